import Foundation
import Testing
import UnderstudyTestSupport

@testable import Understudy

/// A value one exchange's rules removed (a cookie an answer set), echoed by another exchange in
/// any spelling a cassette searches for (``SpelledEchoCases``), shows in no output the library
/// prints: the miss report, the near-miss report, the traffic attachment, and the lines a tool
/// prints per exchange. The cassette finds the echo in each of these spellings, so every output
/// masks it in each as well (third blind attack, P088: a hex echo in a later request's query).
@Suite struct EchoSpellingOutputsTests {
  private static let value = SpelledEchoCases.value

  /// The spellings a request's query holds as they are.
  private static let urlCases = SpelledEchoCases.cases.filter(\.fitsURL)

  /// `outputs` hold neither the value nor the spelling's evidence.
  private static func expectHidden(
    _ spelling: SpelledEchoCases.Case, in outputs: [String],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    for output in outputs {
      #expect(
        !output.contains(spelling.evidence), "\(spelling.name) shown: \(output)",
        sourceLocation: sourceLocation)
      #expect(!output.contains(value), "value shown: \(output)", sourceLocation: sourceLocation)
    }
  }

  /// Every spelling but those with characters a URL cannot hold (a space, `\`) stands in a URL.
  @Test func mostSpellingsStandInAURL() {
    #expect(Self.urlCases.count >= SpelledEchoCases.cases.count - 8, "\(Self.urlCases)")
  }

  /// An export nobody redacted, loaded as a cassette: the miss report lists its closest entries,
  /// the later one's URL holding the echo.
  @Test(arguments: urlCases)
  func aMissReportMasksAnEchoInEverySpelling(_ spelling: SpelledEchoCases.Case) async throws {
    let file = RecordReplayTests.temporaryCassette()
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try HAR(entries: [
      .sample(
        url: "http://127.0.0.1:8080/login",
        responseHeaders: [HAR.Header(name: "Set-Cookie", value: "sid=\(Self.value)")]),
      .sample(url: "http://127.0.0.1:8080/x?h=\(spelling.placed)"),
    ]).write(to: file)
    let registry = StubRegistry()
    registry.use(Cassette(at: file))
    do {
      _ = try await registry.makeSession().data(
        from: URL(string: "http://127.0.0.1:8080/x?h=other")!)
      Issue.record("a request the cassette does not hold was answered")
    } catch {
      let shown = [String(reflecting: error), error.localizedDescription]
      #expect(shown[1].contains("Closest recorded requests"), "\(shown[1])")
      Self.expectHidden(spelling, in: shown)
    }
  }

  /// A request that sends the value in its cookie and an echo of it in its query and body: the
  /// near-miss report shows the URL, the body's excerpt and the closest stub's differences.
  @Test(arguments: SpelledEchoCases.cases)
  func aNearMissReportMasksAnEchoInEverySpelling(_ spelling: SpelledEchoCases.Case) {
    let registry = StubRegistry()
    registry.stub(.post("http://127.0.0.1:8080/x") && .query("h", "other"), .ok)
    let url = "http://127.0.0.1:8080/x" + (spelling.fitsURL ? "?h=\(spelling.placed)" : "")
    let request = InterceptedRequest(
      method: .post, url: URL(string: url)!,
      headers: ["Cookie": "sid=\(Self.value)", "Content-Type": "text/plain"],
      body: Data("seen \(spelling.placed) here".utf8))
    let report = NearMissReport(request: request, stubs: registry.stubs).description
    #expect(report.contains("Closest stubs"), "\(report)")
    Self.expectHidden(spelling, in: [report])
  }

  /// Traffic through stubs: one answer sets the cookie, a later request echoes it in its query
  /// and body. The attachment and the line a tool prints for each exchange (as `understudy
  /// serve` and `record` print them, hiding what earlier exchanges carried) show neither.
  @Test(arguments: SpelledEchoCases.cases)
  func theAttachmentAndEachExchangesLineMaskAnEchoInEverySpelling(
    _ spelling: SpelledEchoCases.Case
  ) async throws {
    let registry = StubRegistry()
    registry.stub(
      .get("http://127.0.0.1:8080/login"),
      .text("ok", headers: ["Set-Cookie": "sid=\(Self.value); Path=/"]))
    registry.stub(.post("http://127.0.0.1:8080/x"), .text("done"))
    let session = registry.makeSession()
    _ = try await session.data(from: URL(string: "http://127.0.0.1:8080/login")!)
    let url = "http://127.0.0.1:8080/x" + (spelling.fitsURL ? "?h=\(spelling.placed)" : "")
    var post = URLRequest(url: URL(string: url)!)
    post.httpMethod = "POST"
    post.setValue("text/plain", forHTTPHeaderField: "Content-Type")
    post.httpBody = Data("seen \(spelling.placed) here".utf8)
    _ = try await session.data(for: post)
    let attachment = try #require(
      TrafficAttachmentWriter.attachmentBytes(of: registry, testName: "t"))
    var secrets: Set<String> = []
    var lines: [String] = []
    for entry in registry.journal {
      secrets.formUnion(entry.removedValues(by: CompiledRedaction(.default)))
      lines.append(LogRedaction.mask("\(entry.request) — answered", hiding: secrets))
    }
    #expect(lines.count == 2)
    Self.expectHidden(spelling, in: [String(decoding: attachment, as: UTF8.self)])
    if spelling.fitsURL { Self.expectHidden(spelling, in: lines) }
  }
}
