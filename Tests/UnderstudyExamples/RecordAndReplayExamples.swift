import Foundation
import Testing
import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The examples of Documentation/Recording.md, Replaying.md, Secrets.md and Cassettes.md.
///
/// The cassettes the traits replay are committed in `__Cassettes__/RecordAndReplayExamples/`.
/// Examples that record do it against `ExampleServer`, a real server on 127.0.0.1, into a
/// temporary folder: no example reaches a public host.
@Suite struct RecordAndReplayExamples {
  /// A credential-shaped value built at run time, so no secret scanner flags this file.
  static let token = "ghp" + "_" + "R4nd0mT0k3nV4lu3F0rD0cs0nly0123"

  static func entry() -> HAR.Entry {
    let request = InterceptedRequest(
      method: "POST", url: URL(string: "https://api.example.com/oauth/token?client_id=app")!,
      headers: ["Authorization": "Basic YXBwOnNlY3JldA==", "Content-Type": "application/json"],
      body: Data(#"{"grant_type":"client_credentials"}"#.utf8))
    let response = HAR.Response(
      status: 200, headers: ["Content-Type": "application/json"],
      body: Data(#"{"access_token":"\#(token)","expires_in":3600}"#.utf8))
    return HAR.Entry(
      request: request, response: response, startedDateTime: Date(), duration: .milliseconds(120))
  }

  @Test func writingACassette() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID())")
    defer { try? FileManager.default.removeItem(at: folder) }
    let cassetteURL = folder.appendingPathComponent("Cassettes/token.har")
    let entry = Self.entry()

    let cassette = Redaction.default.redact(HAR(entries: [entry]))
    try cassette.write(to: cassetteURL)

    let loaded = try HAR.load(contentsOf: cassetteURL)
    let recorded = loaded.log.entries[0]
    #expect(recorded.request.httpHeaders["Authorization"] == "<redacted:authorization>")
    #expect(recorded.response.content.text?.contains("<redacted:access_token>") == true)
    #expect(try recorded.request.interceptedRequest().url.path == "/oauth/token")
  }

  @Test func customRedaction() throws {
    let redaction = try Redaction.default
      .redactingHeaders("X-Session")
      .redactingQueryParameters("client_id")
      .redactingJSON(Redaction.JSONPath("$.user.ssn"))
      .redactingBodies(
        Redaction.BodyPattern(name: "card", pattern: #"\b\d{4}-\d{4}-\d{4}-\d{4}\b"#))

    let redacted = redaction.redact(Self.entry())

    #expect(
      redacted.request.url
        == "https://api.example.com/oauth/token?client_id=%3Credacted:client_id%3E")
  }

  @Test func nameRules() {
    let request = InterceptedRequest(
      method: "POST", url: URL(string: "https://api.example.com/v1/profile")!,
      headers: ["X-Tenant-Key": "tenant-7f3a9c", "Content-Type": "application/json"],
      body: Data(#"{"name":"Ada","ssn":"123-45-6789","cardPin":"4921"}"#.utf8))
    let entry = HAR.Entry(
      request: request, response: HAR.Response(status: 204, headers: [:], body: nil),
      startedDateTime: Date(), duration: .milliseconds(5))

    let redaction = Redaction.default
      .redactingHeaders("X-Tenant-*")
      .redactingJSONMembers("ssn", "*Pin")
    let redacted = redaction.redact(entry)

    #expect(redacted.request.httpHeaders["X-Tenant-Key"] == "<redacted:x-tenant-key>")
    #expect(
      redacted.request.postData?.text
        == #"{"name":"Ada","ssn":"<redacted:ssn>","cardPin":"<redacted:cardPin>"}"#)
  }

  @Test func restoringPlaceholders() {
    let cassette = Redaction.default.redact(HAR(entries: [Self.entry()]))

    let usable = Redaction.default.restoring(cassette, values: ["access_token": "test-token"])

    let body = usable.log.entries[0].response.content.text ?? ""
    #expect(body.contains(#""access_token":"test-token""#))
  }

  @Test func scanningForCredentials() {
    let scanner = CredentialScanner()

    let findings = scanner.scan(HAR(entries: [Self.entry()]))

    #expect(
      findings.map(\.path) == [
        "log.entries[0].request.headers[0].value", "log.entries[0].response.content.text",
      ])
    #expect(scanner.scan(Redaction.default.redact(HAR(entries: [Self.entry()]))).isEmpty)
  }

  @Test func allowingTestValues() throws {
    let scanner = try CredentialScanner(allowing: [.value(Self.token), .pattern("YXBw.*")])

    #expect(scanner.scan(HAR(entries: [Self.entry()])).isEmpty)
  }

  @Test func servingAHARFileThroughStubs() async throws {
    let cassette = HAR(entries: [Self.entry()])
    let registry = StubRegistry()

    for entry in cassette.log.entries {
      let recorded = try entry.request.interceptedRequest()
      let answer = entry.response
      registry.stub(
        .method(recorded.method) && .url(recorded.url),
        StubResponse(
          status: answer.status, headers: answer.httpHeaders,
          body: .data(answer.content.body ?? Data())))
    }

    var request = URLRequest(url: URL(string: "https://api.example.com/oauth/token?client_id=app")!)
    request.httpMethod = "POST"
    let (data, _) = try await registry.makeSession().data(for: request)
    #expect(String(decoding: data, as: UTF8.self).contains("expires_in"))
  }

  @Test func readingErrors() throws {
    do {
      _ = try HAR.decode(Data("<!DOCTYPE html>".utf8), source: "Cassettes/users.har")
      Issue.record("expected an error")
    } catch {
      #expect(error.kind == .malformedJSON)
      #expect(error.description.hasPrefix("Cassettes/users.har:1:1: the file is not JSON"))
    }
  }

  // MARK: Recording and replaying in tests

  @Test(.cassette())
  func loadsAUser() async throws {
    let client = UserClient(session: try #require(StubRegistry.current).makeSession())

    let user = try await client.user(id: 42)

    #expect(user == User(id: 42, name: "Ada"))
  }

  @Test(.cassette(), arguments: [42, 7])
  func loadsEachUser(id: Int) async throws {
    let client = UserClient(session: try #require(StubRegistry.current).makeSession())

    let user = try await client.user(id: id)

    #expect(user.id == id)
  }

  @Test func whereCassettesLive() {
    let besideTest = CassetteLocation.besideTestFile.url(
      forCassetteNamed: "loadsAUser", testFilePath: "/App/Tests/AppTests/ProfileTests.swift")
    #expect(besideTest.path == "/App/Tests/AppTests/__Cassettes__/ProfileTests/loadsAUser.har")

    let inFolder = CassetteLocation.folder(URL(fileURLWithPath: "/App/Cassettes"))
      .url(forCassetteNamed: "user 42 (admin)", testFilePath: #filePath)
    #expect(inFolder.path == "/App/Cassettes/user-42-admin.har")
  }

  static let bundledCassette = Bundle.module.url(
    forResource: "loadsAUser", withExtension: "har",
    subdirectory: "__Cassettes__/RecordAndReplayExamples")!

  @Test(.cassette(location: .file(bundledCassette)))
  func replaysABundledCassette() async throws {
    let client = UserClient(session: try #require(StubRegistry.current).makeSession())

    #expect(try await client.user(id: 42).name == "Ada")
  }

  @Test(
    .stubs { stubs in
      stubs.stub(.get("https://api.example.com/users/7"), .json(User(id: 7, name: "Grace")))
    },
    .cassette("loadsAUser"))
  func stubsComeFirst() async throws {
    let client = UserClient(session: try #require(StubRegistry.current).makeSession())

    #expect(try await client.user(id: 7).name == "Grace")  // the stub
    #expect(try await client.user(id: 42).name == "Ada")  // the cassette
  }

  @Test(
    .cassette("loadsAUser") { stubs in
      stubs.stub(.get("https://api.example.com/users/7"), .json(User(id: 7, name: "Grace")))
    })
  func stubsInTheCassetteTrait() async throws {
    let client = UserClient(session: try #require(StubRegistry.current).makeSession())

    #expect(try await client.user(id: 7).name == "Grace")  // the stub
    #expect(try await client.user(id: 42).name == "Ada")  // the cassette
  }

  @Test func recordsThenReplaysOffline() async throws {
    let server = try ExampleServer.start()
    let file = Self.scratchFile("service.har")

    let recording = StubRegistry()
    let recorder = Cassette(at: file, mode: .missing)
    recording.use(recorder)
    let (live, _) = try await recording.makeSession().data(from: server.url("/json"))
    #expect(recorder.finish().isEmpty)  // writes the cassette
    server.stop()

    let replaying = StubRegistry()
    replaying.use(Cassette(at: file))  // mode .never: replay only
    let (replayed, _) = try await replaying.makeSession().data(from: server.url("/json"))
    #expect(replayed == live)
  }

  // MARK: Replay matching

  /// Writes `entries` to a fresh temporary cassette and returns its URL.
  static func cassette(_ entries: [HAR.Entry]) throws -> URL {
    let file = scratchFile("cassette.har")
    try HAR(entries: entries).write(to: file)
    return file
  }

  static func scratchFile(_ name: String) -> URL {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("understudy-examples-\(UUID().uuidString)")
      .appendingPathComponent(name)
  }

  static func recorded(
    _ url: String, method: HTTPMethod = .get, body: String? = nil, answer: String,
    milliseconds: Int64 = 5
  ) -> HAR.Entry {
    HAR.Entry(
      request: InterceptedRequest(
        method: method, url: URL(string: url)!, headers: [:], body: body.map { Data($0.utf8) }),
      response: HAR.Response(
        status: 200, headers: ["Content-Type": "application/json"], body: Data(answer.utf8)),
      startedDateTime: Date(), duration: .milliseconds(milliseconds))
  }

  @Test func matchingIgnoresVolatileParameters() async throws {
    let file = try Self.cassette([
      Self.recorded(
        "https://api.example.com/search?q=swift&ts=1700000000", method: "POST",
        body: #"{"page":1}"#,
        answer: #"{"results":["Understudy"]}"#)
    ])

    let matching = ReplayMatching([.method, .path, .query(ignoring: ["ts"]), .jsonBody])
    let registry = StubRegistry()
    registry.use(Cassette(at: file, options: CassetteOptions(matching: matching)))

    var request = URLRequest(
      url: URL(string: "https://api.example.com/search?ts=1800000000&q=swift")!)
    request.httpMethod = "POST"
    request.httpBody = Data(#"{ "page": 1 }"#.utf8)
    let (data, _) = try await registry.makeSession().data(for: request)
    #expect(String(decoding: data, as: UTF8.self) == #"{"results":["Understudy"]}"#)
  }

  @Test func identicalRequestsAreAnsweredInOrder() async throws {
    let file = try Self.cassette([
      Self.recorded("https://api.example.com/jobs/1", answer: #"{"state":"running"}"#),
      Self.recorded("https://api.example.com/jobs/1", answer: #"{"state":"done"}"#),
    ])
    let job = URL(string: "https://api.example.com/jobs/1")!

    let registry = StubRegistry()
    registry.use(Cassette(at: file))
    let session = registry.makeSession()
    let (first, _) = try await session.data(from: job)
    let (second, _) = try await session.data(from: job)
    #expect(String(decoding: first, as: UTF8.self) == #"{"state":"running"}"#)
    #expect(String(decoding: second, as: UTF8.self) == #"{"state":"done"}"#)
    await #expect(throws: URLError.self) { try await session.data(from: job) }

    let repeating = StubRegistry()
    repeating.use(Cassette(at: file, options: CassetteOptions(allowsRepeats: true)))
    let polling = repeating.makeSession()
    for _ in 1...2 { _ = try await polling.data(from: job) }
    let (again, _) = try await polling.data(from: job)
    #expect(String(decoding: again, as: UTF8.self) == #"{"state":"done"}"#)
  }

  @Test func unusedEntriesAreReported() async throws {
    let file = try Self.cassette([
      Self.recorded("https://api.example.com/users/42", answer: #"{"id":42,"name":"Ada"}"#),
      Self.recorded("https://api.example.com/users/42/avatar", answer: "{}"),
    ])

    let registry = StubRegistry()
    let cassette = Cassette(at: file, options: CassetteOptions(reportsUnusedEntries: true))
    registry.use(cassette)
    _ = try await UserClient(session: registry.makeSession()).user(id: 42)

    let failures = cassette.finish()
    #expect(
      failures.map { $0.message } == [
        "Cassette cassette.har entry 1 (GET https://api.example.com/users/42/avatar) was never replayed."
      ])
  }

  // MARK: Secrets

  @Test func redactsWhileRecording() async throws {
    let server = try ExampleServer.start()
    defer { server.stop() }
    let file = Self.scratchFile("redacted.har")
    var request = URLRequest(url: server.url("/json?api_key=k-\(UUID())&page=2"))
    request.setValue("Bearer \(UUID())", forHTTPHeaderField: "Authorization")

    let recording = StubRegistry()
    let recorder = Cassette(at: file, mode: .missing)
    recording.use(recorder)
    _ = try await recording.makeSession().data(for: request)
    #expect(recorder.finish().isEmpty)

    let written = try String(contentsOf: file, encoding: .utf8)
    // A request's placeholders carry a digest of the value: `<redacted:authorization:7f3a>`.
    #expect(written.contains(#""value" : "<redacted:authorization:"#))
    #expect(written.contains("/json?api_key=%3Credacted:api_key:"))
    #expect(written.contains("&page=2"))

    // The live request still carries its secrets, and still matches the redacted entry.
    let replaying = StubRegistry()
    replaying.use(Cassette(at: file))
    let (_, response) = try await replaying.makeSession().data(for: request)
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
  }

  @Test func restoresPlaceholdersOnReplay() async throws {
    let file = try Self.cassette([
      Self.recorded(
        "https://api.example.com/oauth/token", method: "POST",
        answer: #"{"access_token":"<redacted:access_token>","expires_in":3600}"#)
    ])

    let registry = StubRegistry()
    registry.use(
      Cassette(at: file, options: CassetteOptions(restoring: ["access_token": "test-token"])))
    var request = URLRequest(url: URL(string: "https://api.example.com/oauth/token")!)
    request.httpMethod = "POST"
    let (data, _) = try await registry.makeSession().data(for: request)

    #expect(String(decoding: data, as: UTF8.self).contains(#""access_token":"test-token""#))
  }

  @Test func recordsFromAnotherServer() async throws {
    let staging = try ExampleServer.start()
    defer { staging.stop() }
    let file = Self.scratchFile("profile.har")

    let registry = StubRegistry(
      unmatchedRequests: .passThrough(PassThrough(baseURL: staging.baseURL)))
    let recorder = Cassette(at: file, mode: .missing)
    registry.use(recorder)
    let url = URL(string: "https://api.example.com/json")!
    _ = try await registry.makeSession().data(from: url)  // answered by the staging server
    #expect(recorder.finish().isEmpty)

    let recorded = try HAR.load(contentsOf: file)
    #expect(recorded.log.entries.first?.request.url == "https://api.example.com/json")
  }

  @Test func refusesToWriteACredential() async throws {
    let server = try ExampleServer.start()
    defer { server.stop() }
    // A JSON Web Token built at run time; the echo endpoint copies it into its JSON body.
    let session = ["eyJhbGciOiJIUzI1NiJ9", "eyJzdWIiOiJ1c2VyLTQyIn0", "c2lnbmF0dXJlLXZhbHVl"]
      .joined(separator: ".")
    var request = URLRequest(url: server.url("/echo/session"))
    request.setValue(session, forHTTPHeaderField: "X-Request-Context")
    let file = Self.scratchFile("session.har")

    let recording = StubRegistry()
    let recorder = Cassette(at: file, mode: .missing)
    recording.use(recorder)
    _ = try await recording.makeSession().data(for: request)

    let failures = recorder.finish()
    #expect(failures.count == 1)
    #expect(failures.first?.message.contains("was not written") == true)
    #expect(!FileManager.default.fileExists(atPath: file.path))

    // The header, and with it every echo of its value.
    let redaction = Redaction.default.redactingHeaders("X-Request-Context")
    let fixed = StubRegistry()
    let rerecorder = Cassette(
      at: file, mode: .missing, options: CassetteOptions(redaction: redaction))
    fixed.use(rerecorder)
    _ = try await fixed.makeSession().data(for: request)
    #expect(rerecorder.finish().isEmpty)
    #expect(try !String(contentsOf: file, encoding: .utf8).contains(session))

    let allowing = Redaction.default.allowingCredentials(.value(session))
    let permitted = StubRegistry()
    let keeper = Cassette(
      at: Self.scratchFile("allowed.har"), mode: .missing,
      options: CassetteOptions(redaction: allowing))
    permitted.use(keeper)
    _ = try await permitted.makeSession().data(for: request)
    #expect(keeper.finish().isEmpty)  // the token is kept; any other credential would still stop it
  }

  // MARK: Drift, speed, exports

  @Test func reportsDriftWithoutWriting() async throws {
    let server = try ExampleServer.start()
    defer { server.stop() }
    let file = Self.scratchFile("drift.har")
    var request = URLRequest(url: server.url("/echo/profile"))
    request.setValue("1", forHTTPHeaderField: "X-Schema")
    let recording = StubRegistry()
    let recorder = Cassette(at: file, mode: .missing)
    recording.use(recorder)
    _ = try await recording.makeSession().data(for: request)
    #expect(recorder.finish().isEmpty)
    let recorded = try Data(contentsOf: file)

    // Later, the server answers differently.
    request.setValue("2", forHTTPHeaderField: "X-Schema")
    let checking = StubRegistry()
    let checker = Cassette(at: file, mode: .driftCheck)
    checking.use(checker)
    _ = try await checking.makeSession().data(for: request)

    let drift = checker.finish()
    #expect(drift.count == 1)
    #expect(drift.first?.message.contains("/echo/profile (entry 0): body") == true)
    #expect(try Data(contentsOf: file) == recorded)
  }

  @Test func replaysAtScaledSpeed() async throws {
    let file = try Self.cassette([
      Self.recorded("https://api.example.com/report", answer: "{}", milliseconds: 400)
    ])

    let registry = StubRegistry()
    registry.use(Cassette(at: file, options: CassetteOptions(replaySpeed: .scaled(0.5))))
    let clock = ContinuousClock()
    let started = clock.now
    _ = try await registry.makeSession().data(from: URL(string: "https://api.example.com/report")!)

    #expect(clock.now - started >= .milliseconds(200))
  }

  static let chromeExport = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/HAR/chrome-export.har")

  @Test(.cassette(location: .file(chromeExport)))
  func replaysABrowserExport() async throws {
    let session = try #require(StubRegistry.current).makeSession()
    var request = URLRequest(url: URL(string: "https://api.shop.example.com/v1/cart/items")!)
    request.httpMethod = "POST"

    let (_, response) = try await session.data(for: request)

    #expect((response as? HTTPURLResponse)?.statusCode == 201)
  }

  // MARK: Linux

  @Test func recordsRedirectsHopByHop() async throws {
    let server = try ExampleServer.start()
    let file = Self.scratchFile("redirects.har")
    let recording = StubRegistry()
    let recorder = Cassette(at: file, mode: .missing)
    recording.use(recorder)
    _ = try await recording.makeSession().data(from: server.url("/redirect/2"))
    #expect(recorder.finish().isEmpty)
    server.stop()

    let hops = try HAR.load(contentsOf: file).log.entries.map(\.response.status)
    #expect(hops == [302, 302, 200])

    let replaying = StubRegistry()
    replaying.use(Cassette(at: file))
    let (data, _) = try await replaying.makeSession().data(from: server.url("/redirect/2"))
    #expect(String(decoding: data, as: UTF8.self) == "done")
  }

  #if canImport(FoundationNetworking)
    @Test func aBasicChallengeCannotBeRecordedOnLinux() async throws {
      let server = try ExampleServer.start()
      defer { server.stop() }
      let registry = StubRegistry()
      let recorder = Cassette(at: Self.scratchFile("auth.har"), mode: .missing)
      registry.use(recorder)

      let error = try await #require(throws: URLError.self) {
        try await registry.makeSession().data(from: server.url("/auth"))
      }

      #expect(error.code == .userAuthenticationRequired)
      #expect(recorder.finish().isEmpty)
    }
  #endif
}
