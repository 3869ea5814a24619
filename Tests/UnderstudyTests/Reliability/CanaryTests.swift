import Testing

@testable import Understudy

/// A canary server on loopback counts hits: every way a request could slip past Understudy in
/// strict mode is tried against it, and it must see none.
@Suite struct CanaryTests {
  @Test func nothingReachesTheCanaryInStrictMode() async throws {
    let canary = try await LoopbackServer.start()
    defer { canary.stop() }
    let target = canary.url("/json")

    // No stub at all.
    let empty = StubRegistry()
    _ = try? await empty.makeSession().data(from: target)
    // A stub for something else, a used-up stub, and a stub answering only another method.
    let partial = StubRegistry()
    partial.stub(.get("/other"), .ok)
    partial.stub(.get("/json"), .ok, limit: .once)
    partial.stub(.post("/json"), .ok)
    for _ in 0..<3 { _ = try? await partial.makeSession().data(from: target) }
    // A request from a session whose registry is gone, and one from an ended test scope.
    var gone: StubRegistry? = StubRegistry()
    let orphan = gone!.makeSession()
    gone = nil
    _ = try? await orphan.data(from: target)
    let ended = StubRegistry()
    let endedSession = ended.makeSession()
    _ = ended.endScope(testName: "canary", location: SourceLocation())
    _ = try? await endedSession.data(from: target)
    // Upload, completion-handler and delegate forms, and a redirect to the canary.
    var upload = URLRequest(url: target)
    upload.httpMethod = "POST"
    _ = try? await empty.makeSession().upload(for: upload, from: Data("x".utf8))
    let redirecting = StubRegistry()
    redirecting.stub(.get("https://elsewhere.test/start"), .redirect(to: target.absoluteString))
    _ = try? await redirecting.makeSession().data(
      from: URL(string: "https://elsewhere.test/start")!)
    let delegate = CollectingDelegate()
    empty.makeSession(delegate: delegate).dataTask(with: target).resume()
    _ = try? await delegate.result()
    // An unknown cassette entry in replay-only mode.
    let replaying = StubRegistry()
    replaying.use(
      Cassette(
        at: FileManager.default.temporaryDirectory.appendingPathComponent("canary-\(UUID()).har")))
    _ = try? await replaying.makeSession().data(from: target)

    #expect(try await canary.hits() == 0)

    // The same server is reachable when a test allows it, so a zero above means something.
    let allowed = StubRegistry(unmatchedRequests: .passThrough)
    _ = try await allowed.makeSession().data(from: target)
    #expect(try await canary.hits() == 1)
  }
}
