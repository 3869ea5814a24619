import Foundation
import Testing

@testable import Understudy

/// Reports and attachments show the start of a large body and count the rest (issue 41): only
/// the part shown is masked, and a credential the cut would split is masked whole.
@Suite struct BoundedExcerptTests {
  /// Filler that holds no credential, `count` bytes long.
  private static func filler(_ count: Int) -> String {
    String(String(repeating: "lorem ipsum ", count: count / 12 + 1).prefix(count))
  }

  /// A text whose `secret` starts 10 bytes before the cut, with `before` and `after` around it.
  private static func straddling(_ before: String, _ secret: String, _ after: String) -> String {
    let lead = LogRedaction.shownBytes - 10 - before.utf8.count
    return filler(lead) + before + secret + after + filler(200_000)
  }

  @Test(arguments: [
    ("deploy ", "ghp_" + String(repeating: "Zq9", count: 12), " done"),
    ("\nAuthorization: Bearer ", String(repeating: "Zq9", count: 12), "\n"),
    (#"{"password":""#, String(repeating: "Zq9", count: 12), #""}"#),
    ("token=", String(repeating: "Zq9", count: 12), "&page=2"),
  ])
  func aCredentialTheCutWouldSplitIsMaskedWhole(
    before: String, secret: String, after: String
  ) {
    let text = Self.straddling(before, secret, after)
    let (shown, omitted) = LogRedaction.maskedPrefix(of: text)
    #expect(!shown.contains("Zq9"))
    #expect(shown.hasSuffix("chars)"), "the masked value ends what is shown")
    #expect(omitted > 200_000 && omitted < text.utf8.count - LogRedaction.shownBytes)
  }

  @Test func aPlaceholderTheCutWouldSplitIsShownWhole() {
    let text = Self.straddling("password=", "<redacted:password>", " and more")
    let (shown, _) = LogRedaction.maskedPrefix(of: text)
    #expect(shown.hasSuffix("<redacted:password>"))
  }

  @Test func aShortTextIsShownWhole() {
    let text = Self.filler(LogRedaction.shownBytes) + " password=hunter2"
    let (shown, omitted) = LogRedaction.maskedPrefix(of: text)
    #expect(omitted == 0)
    #expect(shown.hasSuffix("password=••••(7 chars)"))
  }

  /// A megabyte response body in a traffic attachment: the first 16 KiB and a count of the
  /// rest, so attaching it costs what a small one does (it took 6.4 s of CPU in a debug build).
  @Test func aLargeBodyInATrafficAttachmentShowsItsStartAndCountsTheRest() async throws {
    let body = String(repeating: #"{"id":1,"name":"Customer"},"#, count: 40_000)
    let secret = "ghp_" + String(repeating: "Zq9", count: 12)
    let straddling = Self.straddling("deploy ", secret, " done")
    let registry = StubRegistry()
    registry.stub(.get("https://a.example/big"), .text(body))
    registry.stub(.get("https://a.example/token"), .text(straddling))
    let session = registry.makeSession()
    _ = try await session.data(from: URL(string: "https://a.example/big")!)
    _ = try await session.data(from: URL(string: "https://a.example/token")!)
    let bytes = try #require(
      TrafficAttachmentWriter.attachmentBytes(of: registry, testName: "big()"))
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.utf8.count < 3 * (LogRedaction.shownBytes + LogRedaction.lookaheadBytes))
    #expect(text.contains("… \(body.utf8.count - LogRedaction.shownBytes) more bytes, not shown"))
    #expect(!text.contains("Zq9"))
    // The recorded size is the body's, not the part shown.
    let har = try HAR.decode(Data(bytes), source: "attachment")
    #expect(har.log.entries[0].response.content.size == body.utf8.count)
  }
}
