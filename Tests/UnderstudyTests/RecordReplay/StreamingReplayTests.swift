import Testing

@testable import Understudy

/// Streamed bodies: stubbed as parts, recorded with their timing, replayed to delegate tasks.
@Suite struct StreamingReplayTests {
  static let events = ["data: 1\n\n", "data: 2\n\n", "data: 3\n\n"].map { Data($0.utf8) }

  @Test(arguments: API.allCases)
  func stubbedPartsReachDelegatesOneByOneAndOthersWhole(api: API) async throws {
    let registry = StubRegistry()
    registry.stub(
      .get("/events"),
      .streaming(
        Self.events.map { ($0, after: 0.05) }, headers: ["Content-Type": "text/event-stream"]))
    let start = Date()
    let (data, _, chunks) = try await withWatchdog {
      try await api.send(URLRequest(url: URL(string: "https://api.test/events")!), to: registry)
    }
    #expect(data == Self.events.reduce(Data(), +))
    #expect(Date().timeIntervalSince(start) >= 0.14)
    if api == .delegate { #expect(chunks == 3) }
  }

  @Test func aRecordedStreamKeepsItsPartsAndReplaysThemAtEachSpeed() async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    let file = RecordReplayTests.temporaryCassette()
    let streamURL = server.url("/stream?chunks=4&interval_ms=80")

    let recording = StubRegistry()
    let recorder = Cassette(at: file, mode: .all)
    recording.use(recorder)
    let (recorded, _) = try await recording.makeSession().data(from: streamURL)
    #expect(recorder.finish().isEmpty)
    let stored = try HAR.load(contentsOf: file).log.entries[0].response.content
    let parts = try #require(stored.chunks)
    #expect(parts.map(\.size) == Array(repeating: 9, count: 4))
    // Arrival times as seen here; under load callbacks can bunch, so only their order is fixed.
    #expect(zip(parts, parts.dropFirst()).allSatisfy { $0.time < $1.time })
    let recordedSpan = (parts.last!.time - parts.first!.time) / 1000
    server.stop()

    for speed in [ReplaySpeed.instant, .recorded] {
      let replaying = StubRegistry()
      replaying.use(Cassette(at: file, options: CassetteOptions(replaySpeed: speed)))
      let delegate = CollectingDelegate()
      let start = Date()
      replaying.makeSession(delegate: delegate).dataTask(with: streamURL).resume()
      let result = try await withWatchdog { try await delegate.result() }
      #expect(result.body == recorded)
      #expect(result.chunks == 4)
      if speed == .recorded { #expect(Date().timeIntervalSince(start) >= recordedSpan * 0.95) }
    }

    // Async callers get the whole recorded body.
    let whole = StubRegistry()
    whole.use(Cassette(at: file))
    let (data, _) = try await whole.makeSession().data(from: streamURL)
    #expect(data == recorded)
  }
}
