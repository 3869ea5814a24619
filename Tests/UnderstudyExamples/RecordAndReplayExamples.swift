import Testing
import Understudy

/// The examples of Documentation/RecordAndReplay.md and the RecordAndReplay article.
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

  @Test func restoringPlaceholders() {
    let cassette = Redaction.default.redact(HAR(entries: [Self.entry()]))

    let usable = Redaction.default.restoring(cassette, values: ["access_token": "test-token"])

    let body = usable.log.entries[0].response.content.text ?? ""
    #expect(body.contains(#""access_token":"test-token""#))
  }

  @Test func scanningForCredentials() {
    let scanner = CredentialScanner()

    let findings = scanner.scan(HAR(entries: [Self.entry()]))

    #expect(findings.map(\.kind) == [.basicCredentials, .gitHubToken])
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
        .method(HTTPMethod(recorded.method)) && .url(recorded.url),
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
}
