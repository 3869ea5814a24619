import Testing

@testable import Understudy

/// Replay's `MatcherTests` (`?key=1&key=2` is not `?key=1&key=3`; `?key=Value` is not
/// `?key=value`), through redaction: placeholders on the request side carry a keyed digest of
/// the value, so redacted values stay distinguishable without being written.
@Suite struct RedactedValueDigestTests {
  static func temporaryCassette() -> URL {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("understudy-digests-\(UUID().uuidString)")
      .appendingPathComponent("digests.har")
  }

  @Test func requestsThatDifferOnlyInRedactedValuesReplayTheirOwnEntries() async throws {
    let server = try await LoopbackServer.start()
    let file = Self.temporaryCassette()
    defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
    let recordedPaths = ["/echo/a?key=first-111&key=third-333", "/echo/a?key=Mixed-Value"]
    let recording = StubRegistry()
    let recorder = Cassette(at: file, mode: .missing)
    recording.use(recorder)
    for path in recordedPaths {
      _ = try await recording.makeSession().data(from: server.url(path))
    }
    #expect(recorder.finish().isEmpty)
    server.stop()

    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(text.contains("\"_redactionDigestSeed\""))
    #expect(text.contains("%3Credacted:key:"))
    for value in ["first-111", "third-333", "Mixed-Value"] { #expect(!text.contains(value)) }

    // What each entry replays: the recorded answer, redacted as it was written.
    let answers = try HAR.load(contentsOf: file).log.entries.map { $0.response.content.body }
    #expect(answers[0] != answers[1])
    let replaying = StubRegistry()
    replaying.use(Cassette(at: file, mode: .never))
    let session = replaying.makeSession()
    // One redacted value different, or only its case: no entry answers (asked first, while both
    // entries are still unused).
    for path in ["/echo/a?key=first-111&key=second-222", "/echo/a?key=mixed-value"] {
      await #expect(throws: URLError.self) { try await session.data(from: server.url(path)) }
    }
    // The recorded requests replay, query items in any order.
    let swapped = try await session.data(from: server.url("/echo/a?key=third-333&key=first-111"))
    #expect(swapped.0 == answers[0])
    let mixed = try await session.data(from: server.url("/echo/a?key=Mixed-Value")).0
    #expect(mixed == answers[1])
  }

  @Test func aCassetteWrittenThroughABeforeRecordHookKeepsItsDigests() async throws {
    let server = try await LoopbackServer.shared()
    let file = Self.temporaryCassette()
    defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
    let options = CassetteOptions().beforeRecord { $0 }
    let recorder = Cassette(at: file, mode: .missing, options: options)
    let recording = StubRegistry()
    recording.use(recorder)
    _ = try await recording.makeSession().data(from: server.url("/echo/h?key=hooked-123"))
    #expect(recorder.finish().isEmpty)

    let replaying = StubRegistry()
    replaying.use(Cassette(at: file, mode: .never, options: options))
    let session = replaying.makeSession()
    await #expect(throws: URLError.self) {
      try await session.data(from: server.url("/echo/h?key=other-456"))
    }
    _ = try await session.data(from: server.url("/echo/h?key=hooked-123"))
  }

  @Test func redactingAWrittenCassetteAgainKeepsItsDigests() {
    // What `understudy redact` does to a cassette already written.
    let entry = HAR.Entry.sample(
      url: "https://a.test/?key=%3Credacted:key:7f3a%3E&token=%3Credacted:token:0b1c%3E",
      requestHeaders: [HAR.Header(name: "Authorization", value: "<redacted:authorization:9c41>")])
    let again = Redaction.default.redact(HAR(entries: [entry])).log.entries[0].request
    #expect(again.url == entry.request.url)
    #expect(again.headers == entry.request.headers)
  }

  @Test func aCassetteRecordedBeforeDigestsStillReplays() async throws {
    let file = Self.temporaryCassette()
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
    let entry = HAR.Entry.sample(
      url: "https://api.test/a?key=%3Credacted:key%3E",
      requestHeaders: [HAR.Header(name: "Authorization", value: "<redacted:authorization>")])
    try HAR(entries: [entry]).encoded().write(to: file)
    #expect(try HAR.load(contentsOf: file).log.redactionDigestSeed == nil)

    let registry = StubRegistry()
    registry.use(Cassette(at: file, mode: .never))
    var request = URLRequest(url: URL(string: "https://api.test/a?key=any-value-9")!)
    request.setValue("Bearer anything-at-all", forHTTPHeaderField: "Authorization")
    let (data, _) = try await registry.makeSession().data(for: request)
    #expect(String(decoding: data, as: UTF8.self) == "{\"id\":7}")
  }

  @Test func eachPlaceholderGetsTheDigestOfTheValueItReplaced() {
    let key = "k1"
    let marked = RedactionDigests.mark(
      "https://a.test/p?key=%3Credacted:key%3E&key=%3Credacted:key%3E&q=1",
      original: "https://a.test/p?key=one&key=two&q=1", key: key)
    let one = RedactionPlaceholder.digest(of: "one", key: key)
    let two = RedactionPlaceholder.digest(of: "two", key: key)
    #expect(one != two)
    #expect(
      marked == "https://a.test/p?key=%3Credacted:key:\(one)%3E&key=%3Credacted:key:\(two)%3E&q=1")
    // Another key, another digest: the same value in two cassettes cannot be linked.
    #expect(RedactionPlaceholder.digest(of: "one", key: "k2") != one)
    // A request redacted again keeps the digests it carries.
    #expect(
      RedactionDigests.mark("<redacted:a>", original: "<redacted:a:\(one)>", key: key)
        == "<redacted:a:\(one)>")
    // Side by side, the values cannot be told apart: both get the whole field's digest.
    let whole = RedactionPlaceholder.digest(of: "xy", key: key)
    #expect(
      RedactionDigests.mark("<redacted:a><redacted:b>", original: "xy", key: key)
        == "<redacted:a:\(whole)><redacted:b:\(whole)>")
  }

  @Test func digestsAreReadInEverySpellingAndRemovedForRestoring() {
    #expect(RedactionPlaceholder.digest(in: "<redacted:key:7f3a>") == "7f3a")
    #expect(RedactionPlaceholder.digest(in: "%3Credacted:key:7f3a%3E") == "7f3a")
    #expect(RedactionPlaceholder.digest(in: "%3Credacted%3Akey%3A7f3a%3E") == "7f3a")
    #expect(RedactionPlaceholder.digest(in: "<redacted:key>") == nil)
    #expect(RedactionPlaceholder.digest(in: "<redacted:beef>") == nil)
    #expect(
      RedactionPlaceholder.adding(digest: "7f3a", to: "%3Credacted%3Akey%3E")
        == "%3Credacted%3Akey%3A7f3a%3E")
    #expect(
      RedactionPlaceholder.removingDigests(from: "a <redacted:key:7f3a> b %3Credacted:t:0001%3E")
        == "a <redacted:key> b %3Credacted:t%3E")
    let entry = HAR.Entry.sample(
      url: "https://a.test/?key=%3Credacted:key:7f3a%3E",
      requestHeaders: [HAR.Header(name: "Authorization", value: "<redacted:authorization:0b1c>")])
    let restored = Redaction.default.restoring(
      HAR(entries: [entry]), values: ["authorization": "Bearer t", "key": "k"])
    #expect(restored.log.entries[0].request.url == "https://a.test/?key=k")
    #expect(restored.log.entries[0].request.headers.first?.value == "Bearer t")
  }
}
