import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A cassette written before a rule existed still replays: recorded requests are matched
/// through today's rules, as live ones are.
@Suite struct OlderCassetteTests {
  @Test func aValueANewerRuleRedactsStillMatchesItsRecording() async throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("understudy-older-\(UUID().uuidString).har")
    defer { try? FileManager.default.removeItem(at: file) }
    let url = "https://auth.example.test/callback?code=oauth-code-1&state=s1"
    let entry = HAR.Entry.sample(
      url: url, requestHeaders: [HAR.Header(name: "X-CSRF-Token", value: "csrf-value-1")],
      content: HAR.Content(body: Data("welcome".utf8), mimeType: "text/plain"))
    // As an older version wrote it: neither `code` nor `X-CSRF-Token` was redacted then.
    try Redaction.none.redact(HAR(entries: [entry])).write(to: file)

    let registry = StubRegistry()
    let cassette = Cassette(
      at: file, mode: .never,
      options: CassetteOptions(
        matching: ReplayMatching([.method, .url, .headers(["X-CSRF-Token"])])))
    registry.use(cassette)
    var request = URLRequest(url: URL(string: url)!)
    request.setValue("csrf-value-1", forHTTPHeaderField: "X-CSRF-Token")
    let (data, _) = try await registry.makeSession().data(for: request)
    #expect(String(decoding: data, as: UTF8.self) == "welcome")
    #expect(cassette.finish().isEmpty)
  }
}
