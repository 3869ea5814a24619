import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Every output a failing run leaves (the `URLError` the caller gets, the issues recorded, the
/// traffic attachment) is grepped for every planted secret; none may appear, and the reports
/// still name what was masked.
@Suite struct LogMaskingTests {
  /// Sends every planted request through a registry that matches none of them closely enough.
  /// With `redaction`, the registry uses a cassette with those rules that holds nothing, as a
  /// `.cassette(options: CassetteOptions(redaction:))` test does before its first recording.
  private func run(
    _ secrets: inout PlantedSecrets, inScope: Bool, redaction: Redaction? = nil
  ) async throws -> (registry: StubRegistry, errors: [String]) {
    let registry = StubRegistry()
    if inScope { registry.beginScope(verifying: .default) }
    if let redaction {
      registry.use(
        Cassette(
          at: FileManager.default.temporaryDirectory
            .appendingPathComponent("log-masking-\(UUID().uuidString).har"),
          mode: .never, options: CassetteOptions(redaction: redaction)))
    }
    // Close enough to be listed with their differences, so mismatch lines show actual values.
    registry.stub(
      .get("https://api.test/users/{id}") && .header("Authorization", "Bearer fixture-value")
        && .header("X-Api-Key", "fixture-key") && .query("access_token", "fixture"), .ok)
    registry.stub(.post("https://api.test/login") && .jsonBody(["user": "grace"]), .ok)
    registry.stub(.post("https://api.test/oauth/token") && .formBody(["grant_type": "pin"]), .ok)
    registry.stub(.put("https://api.test/keys") && .body("no key"), .ok)
    registry.stub(
      .post("https://api.test/session") && .jsonBody(subset: ["password": "fixture"]), .ok)
    registry.stub(
      .post("https://api.test/config") && .jsonBody(subset: ["urn:cfg": ["password": "fixture"]]),
      .ok)
    registry.stub(.post("https://api.test/profile"), secrets.plantResponse())
    let session = registry.makeSession()
    var errors: [String] = []
    for request in secrets.unmatched + secrets.matched {
      do {
        _ = try await session.data(for: request)
      } catch {
        errors += [
          String(describing: error), String(reflecting: error), error.localizedDescription,
          "\(error)",
        ]
        if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] {
          errors.append(String(describing: underlying))
        }
      }
    }
    return (registry, errors)
  }

  @Test func theURLErrorsReportMasksEveryPlantedSecretAndSaysSo() async throws {
    var secrets = PlantedSecrets()
    let (_, errors) = try await run(&secrets, inScope: false)
    #expect(errors.count >= 5 * secrets.unmatched.count)
    let text = errors.joined(separator: "\n")
    #expect(secrets.leaks(in: text) == [])
    #expect(text.contains("Authorization: Bearer ••••("))
    #expect(text.contains("X-Api-Key: ••••("))
    #expect(
      text.contains("✗ header Authorization: expected == Bearer ••••(13 chars), got Bearer ••••("))
    #expect(text.contains("GET https://••••(") && text.contains("@api.test/users/8"))
    #expect(text.contains(LogRedaction.note))
  }

  @Test func theIssuesAScopeRecordsMaskEveryPlantedSecret() async throws {
    var secrets = PlantedSecrets()
    let (registry, errors) = try await run(&secrets, inScope: true)
    let failures = registry.endScope(
      testName: "t", verifying: .default, location: registry.location)
    #expect(failures.count == secrets.unmatched.count)
    let recorded = Locked<[String]>([])
    withKnownIssue {
      for failure in failures { IssueReporter.report(failure.message, at: failure.location) }
    } matching: { issue in
      recorded.withLock { $0.append(issue.comments.map(\.rawValue).joined(separator: "\n")) }
      return true
    }
    let issues = recorded.current
    #expect(issues.count == failures.count)
    let text = (issues + errors + failures.map(\.message)).joined(separator: "\n")
    #expect(secrets.leaks(in: text) == [])
    let headers = try #require(issues.first { $0.contains("/users/7") })
    #expect(headers.contains("Authorization: Bearer ••••("))
    #expect(headers.contains("Cookie: ••••("))
    #expect(headers.contains("Private-Token: ••••("))
    #expect(headers.contains("X-Csrf-Token: ••••("))
    #expect(headers.contains("access_token=••••("))
    #expect(headers.components(separatedBy: LogRedaction.note).count == 2)
    let json = try #require(issues.first { $0.contains("/login") })
    #expect(json.contains(#""password":"••••("#))
    #expect(json.contains(#""user":"ada""#))
  }

  @Test func theTrafficAttachmentAppliesTheTestsRedactionAndMasksTheRest() async throws {
    var secrets = PlantedSecrets()
    let testRedaction = try Redaction.none.redactingHeaders("X-Session-Ref")
      .redactingJSON(Redaction.JSONPath("$.profile.nationalID"))
    let (registry, _) = try await run(&secrets, inScope: false, redaction: testRedaction)
    // What the trait and StubbedTestCase attach, byte for byte.
    let bytes = try #require(TrafficAttachmentWriter.attachmentBytes(of: registry, testName: "t"))
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(secrets.leaks(in: text, including: secrets.testNamed) == [])
    // The file stays a HAR document a viewer opens, with the near-miss reports as comments.
    let har = try HAR.decode(Data(bytes), source: "t-traffic.har")
    #expect(har.log.entries.count == secrets.unmatched.count + secrets.matched.count)
    #expect(text.contains("<redacted:x-session-ref>"))
    #expect(text.contains("<redacted:profile.nationalID>"))
    #expect(text.contains("<redacted:authorization>"))
    let comments = har.log.entries.compactMap(\.comment).joined(separator: "\n")
    #expect(comments.contains("no stub matched"))
    #expect(comments.contains("Authorization: ••••(") || comments.contains("Bearer ••••("))
  }

  @Test func aReportAlsoMasksWhatTheCassettesRedactionNames() async throws {
    let secrets = PlantedSecrets()
    let registry = StubRegistry()
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("log-masking-\(UUID().uuidString).har")
    registry.use(
      Cassette(
        at: file, mode: .never,
        options: CassetteOptions(
          redaction: try Redaction.default.redactingHeaders("X-Session-Ref")
            .redactingJSON(Redaction.JSONPath("$.profile.nationalID")))))
    registry.stub(.post("https://api.test/profile") && .header("X-Session-Ref", "fixture"), .ok)
    let error = try await #require(throws: URLError.self) {
      try await registry.makeSession().data(for: secrets.matched[0])
    }
    let text = String(describing: error)
    #expect(secrets.leaks(in: text, including: secrets.testNamed) == [])
    #expect(text.contains("X-Session-Ref: ••••("))
    // What the stub expects is masked under the name too: a test may read it from the
    // environment, where it is a real key.
    #expect(text.contains("✗ header X-Session-Ref: expected == ••••(7 chars), got ••••("))
    #expect(text.contains("&& header X-Session-Ref == ••••(7 chars)"))
    #expect(!text.contains("fixture"))
    #expect(text.contains(#""nationalID":"••••("#))
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }

  @Test func aRequestAfterItsScopeEndedIsRefusedWithAMaskedMessage() async throws {
    let registry = StubRegistry()
    _ = registry.endScope(testName: "t", location: registry.location)
    let token = "late-\(UUID().uuidString)"
    var request = URLRequest(url: URL(string: "https://api.test/x?access_token=\(token)")!)
    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    let error = try await #require(throws: URLError.self) {
      try await registry.makeSession().data(for: request)
    }
    #expect(error.localizedDescription.contains("access_token=••••(41 chars) arrived after"))
    #expect(!String(describing: error).contains(token))
  }

  @Test func aReportMasksWhatTheTestsOwnPatternsName() async throws {
    let tenant = "tenant-\(UUID().uuidString)"
    let ssn = "ssn-\(UUID().uuidString)"
    let registry = StubRegistry()
    registry.use(
      Cassette(
        at: FileManager.default.temporaryDirectory
          .appendingPathComponent("spellings-\(UUID().uuidString).har"),
        mode: .never,
        options: CassetteOptions(
          redaction: Redaction.default.redactingHeaders("X-Tenant-*").redactingJSONMembers("*Ssn")))
    )
    registry.stub(.post("https://api.test/people") && .jsonBody(["name": "Grace"]), .ok)
    var request = URLRequest(url: URL(string: "https://api.test/people")!)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.setValue(tenant, forHTTPHeaderField: "X-Tenant-Key")
    request.httpBody = Data(#"{"name":"Ada","personSsn":"\#(ssn)"}"#.utf8)
    let error = try await #require(throws: URLError.self) {
      try await registry.makeSession().data(for: request)
    }
    let text =
      [String(describing: error), error.localizedDescription]
      + registry.unmatchedReports.map(\.description)
    #expect(!text.joined().contains(tenant))
    #expect(!text.joined().contains(ssn))
    #expect(text[0].contains("X-Tenant-Key: ••••("))
  }

  @Test func anErrorAboutAMalformedCassetteDoesNotQuoteANumericToken() throws {
    let token = "908172635445\(Int.random(in: 100_000...999_999))"
    let file = #"""
      {"log": {"version": "1.2", "entries": [{"startedDateTime": "2026-01-01T00:00:00Z",
        "time": 1, "request": {"method": "GET", "url": "https://api.test/",
        "headers": [{"name": "Authorization", "value": \#(token)}]},
        "response": {"status": 200}}]}}
      """#
    let error = try #require(cassetteError { _ = try HAR.decode(Data(file.utf8), source: "t.har") })
    #expect(!error.description.contains(token))
    #expect(error.description.contains("a number of 18 characters"))
  }
}
