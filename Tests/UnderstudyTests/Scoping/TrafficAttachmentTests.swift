import Testing

@testable import Understudy

@Suite struct TrafficAttachmentTests {
  @Test func theJournalBecomesARedactedHARFile() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/me"), .json(["name": "Ada"]))
    var request = URLRequest(url: URL(string: "https://api.test/me")!)
    request.setValue("Bearer live-token-123", forHTTPHeaderField: "Authorization")
    _ = try await registry.makeSession().data(for: request)
    _ = try? await registry.makeSession().data(from: URL(string: "https://api.test/missing")!)

    let har = TrafficAttachmentWriter.har(of: registry.journal, testName: "t()")
    #expect(har.log.entries.count == 2)
    #expect(har.log.entries[0].response.status == 200)
    #expect(har.log.entries[0].response.content.text == #"{"name":"Ada"}"#)
    #expect(har.log.entries[1].response.status == 0)
    #expect(har.log.entries[1].comment?.contains("no stub matched") == true)
    let text = String(decoding: try har.encoded(), as: UTF8.self)
    #expect(!text.contains("live-token-123"))
    #expect(text.contains("<redacted:authorization>"))
  }
}
