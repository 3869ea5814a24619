import Testing

@testable import Understudy

/// Replay's `FragmentMatcherTests` (equal fragments match, different ones do not, two absent
/// ones match), as a stub condition and as a replay rule; recorded entries keep the fragment.
@Suite struct FragmentTests {
  @Test func theFragmentConditionComparesExactly() {
    expectMatch(.fragment("top"), request("GET", "https://a.test/page#top"))
    expectMismatch(
      .fragment("top"), request("GET", "https://a.test/page#bottom"), field: "fragment",
      expected: "== top", actual: "bottom")
    expectMismatch(
      .fragment("top"), request("GET", "https://a.test/page"), field: "fragment",
      expected: "== top", actual: "none")
    expectMatch(.fragment(nil), request("GET", "https://a.test/page"))
    expectMismatch(
      .fragment(nil), request("GET", "https://a.test/page#top"), field: "fragment",
      expected: "absent", actual: "top")
  }

  @Test func aStubWithAFragmentAnswersOnlyThatFragment() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/callback") && .fragment("granted"), .text("granted"))
    registry.stub(.get("/callback") && .fragment("denied"), .text("denied"))
    let session = registry.makeSession()
    for fragment in ["granted", "denied"] {
      let (data, _) = try await session.data(
        from: URL(string: "https://auth.test/callback#\(fragment)")!)
      #expect(String(decoding: data, as: UTF8.self) == fragment)
    }
  }

  @Test func theReplayRuleComparesFragments() throws {
    let matching = ReplayMatching([.method, .path, .fragment])
    let recorded = try HAR.Request(method: "GET", url: "https://a.test/p#one").interceptedRequest()
    #expect(matching.firstDifference(request("GET", "https://a.test/p#one"), recorded) == nil)
    #expect(
      matching.firstDifference(request("GET", "https://a.test/p#two"), recorded)
        == "fragment two ≠ one")
    #expect(matching.firstDifference(request("GET", "https://a.test/p"), recorded) != nil)
    let none = try HAR.Request(method: "GET", url: "https://a.test/p").interceptedRequest()
    #expect(matching.firstDifference(request("GET", "https://a.test/p"), none) == nil)
  }

  @Test func recordedEntriesKeepTheFragmentAndReplayByIt() async throws {
    let server = try await LoopbackServer.shared()
    let file = RecordReplayTests.temporaryCassette()
    defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
    let options = CassetteOptions(matching: ReplayMatching([.method, .url, .fragment]))
    let recorder = Cassette(at: file, mode: .missing, options: options)
    let recording = StubRegistry()
    recording.use(recorder)
    let url = server.url("/echo/f").absoluteString
    _ = try await recording.makeSession().data(from: URL(string: url + "#first")!)
    #expect(recorder.finish().isEmpty)
    #expect(try HAR.load(contentsOf: file).log.entries.map(\.request.url) == [url + "#first"])

    let replaying = StubRegistry()
    replaying.use(Cassette(at: file, mode: .never, options: options))
    let session = replaying.makeSession()
    await #expect(throws: URLError.self) {
      try await session.data(from: URL(string: url + "#second")!)
    }
    _ = try await session.data(from: URL(string: url + "#first")!)
  }
}
