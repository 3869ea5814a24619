import Foundation
import Testing
import Understudy

@Suite struct StubCommandTests {
  /// The block of `GeneratedStubsCompile.swift` between `// BEGIN GENERATED <fixture>` and
  /// `// END GENERATED`, without the two spaces of indentation the file adds.
  static func checkedInCode(for fixture: String) throws -> String {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("GeneratedStubsCompile.swift")
    let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
    let start = try #require(lines.firstIndex(of: "  // BEGIN GENERATED \(fixture)"))
    let end = try #require(lines[start...].firstIndex(of: "  // END GENERATED"))
    return lines[(start + 1)..<end].map { $0.isEmpty ? $0 : String($0.dropFirst(2)) }
      .joined(separator: "\n") + "\n"
  }

  @Test(arguments: ["chrome-export.har", "stub-edge-cases.har", "stub-redacted.har"])
  func printsExactlyTheCompiledCode(_ fixture: String) async throws {
    let result = try await understudy("stub", Fixtures.path(fixture))
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    #expect(result.stdout == (try Self.checkedInCode(for: fixture)))
  }

  /// The compiled stubs answer each recorded request with the recorded status, body and
  /// content type; identical requests get their responses in recorded order.
  @Test(arguments: ["chrome-export.har", "stub-edge-cases.har", "stub-redacted.har"])
  func compiledStubsReplayTheFixture(_ fixture: String) async throws {
    let declarations = [
      "chrome-export.har": declareChromeExportStubs, "stub-edge-cases.har": declareEdgeCaseStubs,
      "stub-redacted.har": declareRedactedStubs,
    ]
    let declare = try #require(declarations[fixture])
    let registry = StubRegistry()
    declare(registry)
    let session = registry.makeSession()
    let har = try HAR.load(contentsOf: URL(fileURLWithPath: Fixtures.path(fixture)))
    for (index, entry) in har.log.entries.enumerated() {
      var request = URLRequest(url: try #require(URL(string: entry.request.url)))
      request.httpMethod = entry.request.method
      if let postData = entry.request.postData {
        request.httpBody = postData.body
        request.setValue(postData.mimeType, forHTTPHeaderField: "Content-Type")
      }
      let (data, response) = try await session.data(for: request)
      let http = try #require(response as? HTTPURLResponse)
      #expect(http.statusCode == entry.response.status, "entry \(index)")
      #expect(data == (entry.response.content.body ?? Data()), "entry \(index)")
      if !entry.response.content.mimeType.isEmpty {
        #expect(
          http.value(forHTTPHeaderField: "Content-Type")?.hasPrefix(entry.response.content.mimeType)
            == true, "entry \(index)")
      }
    }
    #expect(registry.unmatchedReports.isEmpty)
  }

  @Test func entriesAndRegistryNameCanBeChosen() async throws {
    let result = try await understudy(
      "stub", Fixtures.path("mitmproxy-export.har"), "--entry", "1", "--registry", "self.stubs")
    #expect(result.status == 0)
    #expect(result.stdout.contains("// Stubs for 1 entry of mitmproxy-export.har"))
    #expect(
      result.stdout.contains(
        """
        // 1: GET https://app.example.com/api/profile?fields=name%2Cemail&locale=fr-FR → 200 \
        application/json; charset=utf-8
        self.stubs.stub(
          .get("https://app.example.com/api/profile")
            && .query("fields", "name,email")
            && .query("locale", "fr-FR"),
        """))
    #expect(!result.stdout.contains("auth.example.com"))
  }

  @Test func formBodiesAndRedirectsUseTheirFactories() async throws {
    let result = try await understudy("stub", Fixtures.path("mitmproxy-export.har"), "--entry", "0")
    #expect(
      result.stdout.contains(
        """
        registry.stub(
          .post("https://auth.example.com/login")
            && .formBody(["user": "ada", "remember": "yes", "lang": "en"]),
          StubResponse(
            status: 302,
            headers: ["Location": "https://app.example.com/home"]))
        """))
  }

  @Test func credentialsAreRedactedBeforeTheyReachCode() async throws {
    try await withTemporaryDirectory { directory in
      let path = try HAR(entries: [
        .exchange(
          url: "https://api.example.com/me?access_token=\(FakeSecret.accessToken)",
          responseHeaders: [HAR.Header(name: "Set-Cookie", value: "sid=\(FakeSecret.sessionID)")],
          // Under a name no rule covers (`token` is redacted by name), so only its shape shows it.
          body: #"{"note": "\#(FakeSecret.gitHub)"}"#)
      ]).saved(as: "leaky.har", in: directory)
      let result = try await understudy("stub", path)
      #expect(result.status == 0)
      #expect(result.stdout.contains(#".query("access_token"),"#))
      #expect(!result.stdout.contains(#"<redacted:access_token>")"#))
      #expect(result.stdout.contains(#""Set-Cookie": "<redacted:set-cookie>""#))
      #expect(!result.stdout.contains(FakeSecret.accessToken))
      #expect(!result.stdout.contains(FakeSecret.sessionID))
      #expect(
        result.stderr.contains(
          "the generated code holds 1 credential-shaped value the default redaction does not "
            + "cover:\n  log.entries[0].response.content.text: GitHub token"))
    }
  }

  /// A redacted request value cannot be sent again, so the generated pattern checks that it is
  /// there, never that it equals its placeholder; the compiled stubs then match requests with
  /// any value in its place and refuse one without it.
  @Test func redactedRequestValuesBecomePresenceChecks() async throws {
    let result = try await understudy("stub", Fixtures.path("stub-redacted.har"))
    #expect(result.status == 0)
    let code = result.stdout.components(separatedBy: "\n").filter { !$0.hasPrefix("//") }
      .joined(separator: "\n")
    #expect(!code.contains("redacted"))
    for presence in [
      #".query("api_key")"#, #".formBody(["user": "ada"])"#, #".formField("password")"#,
      #".jsonBody(subset: ["device": ["id": "d1"], "user": "ada"])"#,
      ##".body(containing: #""password""#)"##, #".body(matching: "^note .*? end$")"#,
    ] {
      #expect(code.contains(presence), "\(presence)")
    }
    let registry = StubRegistry()
    declareRedactedStubs(on: registry)
    let session = registry.makeSession()
    var login = URLRequest(
      url: try #require(URL(string: "https://api.example.com/login?v=2&api_key=other")))
    login.httpMethod = "POST"
    login.httpBody = Data("password=another&user=ada".utf8)
    login.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
    #expect((try await session.data(for: login).1 as? HTTPURLResponse)?.statusCode == 200)
    var session2 = URLRequest(url: try #require(URL(string: "https://api.example.com/session")))
    session2.httpMethod = "POST"
    session2.httpBody = Data(#"{"user":"ada","device":{"id":"d1"},"password":"x"}"#.utf8)
    #expect((try await session.data(for: session2).1 as? HTTPURLResponse)?.statusCode == 201)
    #expect(registry.unmatchedReports.isEmpty)
    login.httpBody = Data("user=ada".utf8)
    _ = try? await session.data(for: login)
    #expect(registry.unmatchedReports.count == 1)
  }

  @Test func badEntryOrRegistryIsAUsageError() async throws {
    let path = Fixtures.path("chrome-export.har")
    let missing = try await understudy("stub", path, "--entry", "3")
    #expect(missing.status == 2)
    #expect(missing.stderr.hasPrefix("\(path) has no entry 3: it has 3 entries, numbered 0 to 2."))
    let notNumber = try await understudy("stub", path, "--entry", "first")
    #expect(notNumber.status == 2)
    #expect(notNumber.stderr.hasPrefix("--entry first is not an entry number"))
    let badName = try await understudy("stub", path, "--registry", "my registry")
    #expect(badName.status == 2)
    #expect(badName.stderr.hasPrefix("--registry my registry is not a Swift name"))
  }

  /// Every call in code generated for every fixture is one of the library's factories, by the
  /// hand-maintained list in `LibraryFactories`, whose witnesses compile only while the
  /// factories exist.
  @Test func generatedCodeCallsOnlyKnownFactories() async throws {
    var seen: Set<String> = []
    for fixture in [
      "chrome-export.har", "mitmproxy-export.har", "stub-edge-cases.har", "stub-redacted.har",
      "firefox-export.har",
    ] {
      let result = try await understudy("stub", Fixtures.path(fixture))
      let calls = SwiftCalls.signatures(in: result.stdout)
      #expect(!calls.isEmpty)
      for call in calls {
        #expect(LibraryFactories.witnesses[call] != nil, "\(fixture) calls \(call)")
      }
      seen.formUnion(calls)
    }
    #expect(
      seen.isSuperset(of: ["formBody(_:)", "StubResponse(status:headers:)", "stub(_:sequence:)"]))
  }

  @Test func signatureCheckerSeesLabelsAndSkipsStringsAndComments() {
    let code = """
      // comment(with:) is skipped
      registry.stub(
        .get("https://a.test/x(y:)") && .jsonBody(["k": [1, "two"]]),
        .json(strin: #"{"a":"b\\(c:)"}"#, status: 200, headers: HTTPHeaders([.init(name: "a", value: "b")])))
      """
    #expect(
      SwiftCalls.signatures(in: code)
        == [
          "stub(_:_:)", "get(_:)", "jsonBody(_:)", "json(strin:status:headers:)", "HTTPHeaders(_:)",
          "init(name:value:)",
        ])
    #expect(LibraryFactories.witnesses["json(strin:status:headers:)"] == nil)
  }

  @Test func everyWitnessRuns() {
    for (_, witness) in LibraryFactories.witnesses { witness() }
  }
}
