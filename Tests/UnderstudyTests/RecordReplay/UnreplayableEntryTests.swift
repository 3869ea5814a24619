import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Entries other tools export that cannot answer a request: replay refuses them with the file,
/// the entry and the fix, rather than serving an empty 200 or status 0.
@Suite struct UnreplayableEntryTests {
  static func cassette(_ entries: [HAR.Entry]) throws -> URL {
    let file = RecordReplayTests.temporaryCassette()
    try HAR(entries: entries).write(to: file)
    return file
  }

  static func entry(_ path: String, _ response: HAR.Response) -> HAR.Entry {
    HAR.Entry(
      startedDateTime: Date(timeIntervalSince1970: 1_700_000_000), time: 5,
      request: HAR.Request(method: "GET", url: "https://api.example.test\(path)"),
      response: response)
  }

  /// The text the caller gets for `path`, which must fail.
  static func failure(for path: String, from file: URL) async throws -> String {
    let registry = StubRegistry()
    registry.use(Cassette(at: file, mode: .never))
    do {
      _ = try await registry.makeSession().data(
        from: URL(string: "https://api.example.test\(path)")!)
    } catch {
      return "\(error)"
    }
    Issue.record("\(path) was answered")
    return ""
  }

  @Test func anOmittedBodyIsRefusedWithTheFix() async throws {
    let omitted = Self.entry(
      "/big",
      HAR.Response(
        status: 200, content: HAR.Content(size: 52_311, mimeType: "application/octet-stream")))
    let file = try Self.cassette([
      Self.entry("/ok", HAR.Response(status: 200, headers: [:], body: Data("{}".utf8))), omitted,
    ])
    let message = try await Self.failure(for: "/big", from: file)
    #expect(message.contains("entry 1 of \(file.path), which has no response body"))
    #expect(message.contains("declared 52311 bytes (content.size) but left out content.text"))
    #expect(message.contains("Export the HAR again with bodies included"))
  }

  @Test func statusZeroIsRefusedWithTheFix() async throws {
    let file = try Self.cassette([
      Self.entry("/blocked", HAR.Response(status: 0, headers: [:], body: nil))
    ])
    let message = try await Self.failure(for: "/blocked", from: file)
    #expect(message.contains("entry 0 of \(file.path), which recorded no response (status 0"))
    #expect(message.contains("`understudy convert` drops such entries"))
  }

  @Test func anEmptyBodyThatIsReallyEmptyStillReplays() async throws {
    let file = try Self.cassette([
      Self.entry("/empty", HAR.Response(status: 204, headers: [:], body: nil))
    ])
    let registry = StubRegistry()
    registry.use(Cassette(at: file, mode: .never))
    let (data, response) = try await registry.makeSession().data(
      from: URL(string: "https://api.example.test/empty")!)
    #expect(data.isEmpty)
    #expect((response as? HTTPURLResponse)?.statusCode == 204)
  }

  @Test func aURLFoundationCannotParseFailsTheLoadWithItsPlace() throws {
    let json = """
      {"log": {"version": "1.2", "creator": {"name": "x", "version": "1"}, "entries": [
        {"startedDateTime": "2024-05-01T12:30:00.000Z", "time": 1,
         "request": {"method": "GET", "url": "https://a.test/ok"},
         "response": {"status": 200, "content": {"size": 0, "mimeType": ""}}},
        {"startedDateTime": "2024-05-01T12:30:00.000Z", "time": 1,
         "request": {"method": "GET", "url": "http://[::1/x"},
         "response": {"status": 200, "content": {"size": 0, "mimeType": ""}}}
      ]}}
      """
    let error = cassetteError { _ = try HAR.decode(Data(json.utf8), source: "foreign.har") }
    let found = try #require(error)
    #expect(found.file == "foreign.har")
    #expect(found.jsonPath == "log.entries[1].request.url")
    #expect(found.line == 6)
    #expect("\(found)".contains("\"http://[::1/x\" is not a URL Foundation can parse"))
  }
}
