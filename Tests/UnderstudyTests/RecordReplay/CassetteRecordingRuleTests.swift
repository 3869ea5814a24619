import Testing

@testable import Understudy

/// Hosts a cassette ignores and the age past which it records an entry again (VCR's
/// `ignore_hosts` and `re_record_interval`), against the loopback server.
@Suite struct CassetteRecordingRuleTests {
  @Test func anIgnoredHostPassesThroughUnrecordedWhenUnmatchedRequestsPassThrough() async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    let file = RecordReplayTests.temporaryCassette()
    // Both hosts reach the loopback server; only one of them is the cassette's.
    let registry = StubRegistry(
      unmatchedRequests: .passThrough(PassThrough(baseURL: server.baseURL)))
    let cassette = Cassette(
      at: file, mode: .all, options: CassetteOptions(ignoredHosts: ["Telemetry.Test"]))
    registry.use(cassette)
    let session = registry.makeSession()
    _ = try await session.data(from: URL(string: "https://api.test/json")!)
    _ = try await session.data(from: URL(string: "https://telemetry.test/echo/event")!)
    #expect(cassette.finish().isEmpty)
    #expect(try await server.hits() == 2)
    let hosts = try HAR.load(contentsOf: file).log.entries.map { URL(string: $0.request.url)?.host }
    #expect(hosts == ["api.test"])
  }

  @Test func anIgnoredHostIsRefusedWhenUnmatchedRequestsFail() async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    let file = RecordReplayTests.temporaryCassette()
    let registry = StubRegistry()
    let cassette = Cassette(
      at: file, mode: .all,
      options: CassetteOptions(ignoredHosts: ["127.0.0.1"]))
    registry.use(cassette)
    let error = try await #require(throws: URLError.self) {
      try await registry.makeSession().data(from: server.url("/json"))
    }
    #expect(error.localizedDescription.contains("ignores host 127.0.0.1"))
    #expect(try await server.hits() == 0, "strict mode sent nothing to the network")
    #expect(cassette.finish().isEmpty)
    #expect(try HAR.load(contentsOf: file).log.entries.isEmpty)
  }

  @Test func anIgnoredHostIsNotReplayedFromAnOlderRecording() async throws {
    let file = try CassetteHookTests.cassette(answering: "https://cdn.test/logo", body: "old")
    let registry = StubRegistry()
    registry.use(Cassette(at: file, options: CassetteOptions(ignoredHosts: ["cdn.test"])))
    let error = try await #require(throws: URLError.self) {
      try await registry.makeSession().data(from: URL(string: "https://cdn.test/logo")!)
    }
    #expect(error.localizedDescription.contains("ignores host cdn.test"))
  }

  /// A cassette holding `/echo/stale` recorded in 2020 and `/echo/fresh` recorded now, both
  /// answering `"recorded"`, for the loopback server at `server`.
  static func agedCassette(for server: LoopbackServer) throws -> URL {
    let file = RecordReplayTests.temporaryCassette()
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    var stale = HAR.Entry.sample(
      url: server.url("/echo/stale").absoluteString,
      content: HAR.Content(body: Data("recorded".utf8), mimeType: "text/plain"))
    stale.startedDateTime = Date(timeIntervalSince1970: 1_577_836_800)  // 2020-01-01
    var fresh = stale
    fresh.request.url = server.url("/echo/fresh").absoluteString
    fresh.startedDateTime = Date()
    try HAR(entries: [stale, fresh]).write(to: file)
    return file
  }

  @Test func newEpisodesFetchesAnEntryOlderThanTheIntervalAgainAndReplacesIt() async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    let file = try Self.agedCassette(for: server)
    let registry = StubRegistry()
    let cassette = Cassette(
      at: file, mode: .newEpisodes,
      options: CassetteOptions(reRecordAfter: .seconds(30 * 24 * 3600)))
    registry.use(cassette)
    let session = registry.makeSession()
    let (stale, _) = try await session.data(from: server.url("/echo/stale"))
    let (fresh, _) = try await session.data(from: server.url("/echo/fresh"))
    #expect(String(decoding: stale, as: UTF8.self) != "recorded", "fetched again")
    #expect(String(decoding: fresh, as: UTF8.self) == "recorded", "replayed")
    #expect(try await server.hits() == 1)
    #expect(cassette.finish().isEmpty)
    let entries = try HAR.load(contentsOf: file).log.entries
    #expect(entries.map { URL(string: $0.request.url)?.path } == ["/echo/stale", "/echo/fresh"])
    #expect(entries[0].startedDateTime > Date(timeIntervalSince1970: 1_577_836_800))
    #expect(entries[0].response.content.body == stale)
  }

  @Test func withoutAnIntervalOrOutsideNewEpisodesAnOldEntryIsReplayed() async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    let file = try Self.agedCassette(for: server)
    for (mode, options) in [
      (RecordMode.newEpisodes, CassetteOptions()),
      (.never, CassetteOptions(reRecordAfter: .seconds(60))),
    ] {
      let registry = StubRegistry()
      let cassette = Cassette(at: file, mode: mode, options: options)
      registry.use(cassette)
      let (data, _) = try await registry.makeSession().data(from: server.url("/echo/stale"))
      #expect(String(decoding: data, as: UTF8.self) == "recorded")
      #expect(cassette.finish().isEmpty)
    }
    #expect(try await server.hits() == 0)
  }

  @Test func driftChecksAndMissReportsSayHowOldTheCassetteIs() async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    let file = try Self.agedCassette(for: server)
    let registry = StubRegistry()
    let drift = Cassette(at: file, mode: .driftCheck)
    registry.use(drift)
    _ = try await registry.makeSession().data(from: server.url("/echo/stale"))
    let failures = drift.finish()
    #expect(failures.count == 1)
    #expect(failures.first?.message.contains("recorded between") == true)
    #expect(failures.first?.message.contains("days ago and today") == true)

    let replaying = StubRegistry()
    replaying.use(Cassette(at: file, mode: .never))
    let error = try await #require(throws: URLError.self) {
      try await replaying.makeSession().data(from: server.url("/echo/other"))
    }
    #expect(error.localizedDescription.contains("days ago and today"))
  }

  @Test func ageIsDescribedInDays() {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    #expect(CassetteAge.describe([], now: now) == nil)
    #expect(CassetteAge.describe([now], now: now) == "recorded today")
    #expect(CassetteAge.describe([now - 86_400 * 1.5], now: now) == "recorded 1 day ago")
    #expect(
      CassetteAge.describe([now - 86_400 * 40, now - 86_400 * 2], now: now)
        == "recorded between 40 days ago and 2 days ago")
  }
}
