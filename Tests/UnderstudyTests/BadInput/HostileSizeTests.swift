import Foundation
import Testing

@testable import Understudy

/// Sizes a file or a test may give that no body has: a negative or overflowing streamed part, a
/// negative journal capacity. Each used to trap and take the test process down with it. And a
/// body shaped to make masking slow, which used to stall the test that attached it.
@Suite struct HostileSizeTests {
  /// A one-entry cassette answering `hello` in the parts `chunks` describes.
  private static func cassette(chunks: String) throws -> URL {
    let json = #"""
      {"log": {"version": "1.2", "creator": {"name": "x", "version": "1"}, "entries": [{
      "startedDateTime": "2024-01-01T00:00:00.000Z", "time": 1, "request": {"method": "GET",
      "url": "https://a.example/1", "httpVersion": "HTTP/1.1", "cookies": [], "headers": [],
      "queryString": [], "headersSize": -1, "bodySize": 0}, "response": {"status": 200,
      "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [], "headers": [], "content":
      {"size": 5, "mimeType": "text/plain", "text": "hello", "_chunks": \#(chunks)},
      "redirectURL": "", "headersSize": -1, "bodySize": -1}, "cache": {}, "timings": {"send": 0,
      "wait": 0, "receive": 0}}]}}
      """#
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("hostile-chunks-\(UUID().uuidString).har")
    try Data(json.utf8).write(to: url)
    return url
  }

  @Test(arguments: [
    #"[{"size": -5, "time": 0}, {"size": 10, "time": 0}]"#,
    #"[{"size": 9223372036854775807, "time": 0}, {"size": 1, "time": 0}]"#,
  ])
  func aCassettesPartsThatCannotBeTheBodyReplayItWhole(chunks: String) async throws {
    let url = try Self.cassette(chunks: chunks)
    defer { try? FileManager.default.removeItem(at: url) }
    for api in API.allCases {
      let registry = StubRegistry()
      registry.use(Cassette(at: url))
      let (data, response, _) = try await withWatchdog {
        try await api.send(URLRequest(url: URL(string: "https://a.example/1")!), to: registry)
      }
      #expect(String(decoding: data, as: UTF8.self) == "hello", "\(api)")
      #expect(response.statusCode == 200)
    }
  }

  @Test func aNegativePartInAStubIsReportedAndServesNothingForThatPart() async throws {
    var response = StubResponse.text("hello")
    response.chunks = [BodyChunk(size: -1, delay: 0), BodyChunk(size: 6, delay: 0)]
    #expect(response.problem?.contains("a part of the streamed body has the size -1") == true)
    let registry = StubRegistry()
    withKnownIssue {
      registry.stub(.get("https://a.example/1"), response)
    } matching: { issue in
      "\(issue)".contains("cannot answer as declared: a part of the streamed body has the size -1")
    }
    registry.beginScope(verifying: .default)
    let answered = response
    registry.stub(.get("https://a.example/2")) { _ in answered }
    for api in API.allCases {
      let (data, _, _) = try await withWatchdog {
        try await api.send(URLRequest(url: URL(string: "https://a.example/1")!), to: registry)
      }
      #expect(String(decoding: data, as: UTF8.self) == "hello", "\(api)")
      // A responder's answer is checked per request: it fails, reported at its stub.
      let error = await UnsendableResponseTests.failure(
        of: URLRequest(url: URL(string: "https://a.example/2")!), api, registry)
      #expect(error?.code == .badServerResponse, "\(api)")
    }
    let failures = registry.endScope(testName: "t", location: UnsendableResponseTests.scopeEnd)
    #expect(failures.count == API.allCases.count)
    #expect(failures.allSatisfy { $0.message.contains("the streamed body has the size -1") })
  }

  @Test func aMinifiedStylesheetInATrafficAttachmentIsMaskedWithoutStalling() async throws {
    // One line of `name:value` pairs: every name on it was read to the line's end, so a
    // megabyte took about 45 s, and the test that attached it waited.
    let css = String(repeating: ".a{color:red;margin:0;padding:1px}", count: 30_000)
    let planted = "s3cr3t-stylesheet"
    let registry = StubRegistry()
    registry.stub(.get("https://a.example/app.css"), .text(css + "/* Authorization: \(planted) */"))
    _ = try await registry.makeSession().data(from: URL(string: "https://a.example/app.css")!)
    let attachment = await withWatchdog("the traffic attachment of a 1 MB stylesheet") {
      TrafficAttachmentWriter.attachmentBytes(of: registry, testName: "css()")
    }
    let text = String(decoding: try #require(attachment ?? nil), as: UTF8.self)
    #expect(text.contains(".a{color:red;margin:0;padding:1px}"))
    #expect(!text.contains(planted))
  }

  /// Lines where every credential's value runs over the next one's name: each value was masked
  /// again, to the line's end or as the union of those before it, and 45 KB of `token:[x]` took
  /// 46 s to print. Planted at the end, after 100 KB of each.
  @Test(arguments: ["token:[x]", "secret = (x)(", "password = a)", "secret = [x] "])
  func aLineOfOverlappingCredentialsIsMaskedWithoutStalling(unit: String) async throws {
    let planted = plantedSecret("overlap")
    let text = String(repeating: unit, count: 100_000 / unit.count) + "password = \(planted)\n"
    // CPU-time watchdogs: on a busy machine this work gets a fraction of a core.
    let masked = try #require(await withWatchdog("masking \(unit)") { LogRedaction.mask(text) })
    #expect(!masked.contains(planted))
    #expect(LogRedaction.mask(masked) == masked)
    let entry = HAR.Entry.sample(
      content: HAR.Content(body: Data(text.utf8), mimeType: "text/plain"))
    let redacted = try #require(
      await withWatchdog("redacting \(unit)") {
        try? Redaction.default.redact(HAR(entries: [entry])).encodedText
      } ?? nil)
    #expect(!redacted.contains(planted))
  }

  @Test func aNegativeJournalCapacityIsReportedAndKeepsNone() async throws {
    let made = #line + 3
    var registry: StubRegistry?
    withKnownIssue {
      registry = StubRegistry(journalCapacity: -1)
    } matching: { issue in
      issue.sourceLocation?.line == made && "\(issue)".contains("journalCapacity -1 is negative")
    }
    let stubs = try #require(registry)
    let stub = stubs.stub(.any, .text("ok"))
    let (data, _) = try await stubs.makeSession().data(from: URL(string: "https://a.example/x")!)
    #expect(String(decoding: data, as: UTF8.self) == "ok")
    #expect(stubs.journal.isEmpty)
    #expect(stub.requests.isEmpty)
    #expect(stub.callCount == 1)
  }
}
