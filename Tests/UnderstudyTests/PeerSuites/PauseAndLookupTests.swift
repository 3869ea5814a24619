import Testing

@testable import Understudy

/// Hippolyte's `testThatHippolyteCouldBePausedAndResumed` and its `response(for:)` lookups: a
/// registry pauses without losing its stubs, and says which stub would answer a request.
@Suite struct PauseAndLookupTests {
  static let url = URL(string: "https://api.test/users/7")!

  @Test func aPausedRegistryAnswersNothingAndResumesWithItsStubs() async throws {
    let registry = StubRegistry()
    let stub = registry.stub(.get("/users/{id}"), .text("stubbed"), limit: .times(2))
    let session = registry.makeSession()
    #expect(try await session.data(from: Self.url).0 == Data("stubbed".utf8))

    registry.pause()
    #expect(registry.isPaused)
    let error = try await #require(throws: URLError.self) {
      try await session.data(from: Self.url)
    }
    #expect(error.localizedDescription.contains("The registry is paused"))
    #expect(registry.stubs.count == 1)
    #expect(stub.callCount == 1)
    #expect(registry.journal.count == 2)

    registry.resume()
    #expect(!registry.isPaused)
    #expect(try await session.data(from: Self.url).0 == Data("stubbed".utf8))
    #expect(stub.callCount == 2)
  }

  @Test func aPausedRegistryThatPassesThroughSendsRequestsToTheServer() async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    let registry = StubRegistry(unmatchedRequests: .passThrough(PassThrough()))
    registry.stub(.get("/json"), .text("stubbed"))
    registry.pause()
    let (data, _) = try await registry.makeSession().data(from: server.url("/json"))
    #expect(data != Data("stubbed".utf8))
    #expect(try await server.hits() == 1)
  }

  @Test func removingAllStubsKeepsThePause() {
    let registry = StubRegistry()
    registry.pause()
    registry.removeAllStubs()
    #expect(registry.isPaused)
  }

  @Test func theLookupNamesTheStubThatWouldAnswerAndUsesNothingUp() {
    let registry = StubRegistry()
    let general = registry.stub(.get("/users/{id}"), .text("any"))
    let once = registry.stub(.get("/users/7"), .text("seven"), limit: .once)
    let post = registry.stub(.post("/users/7"), .ok)
    var request = URLRequest(url: Self.url)
    #expect(registry.stub(answering: request) === once)
    #expect(registry.stub(answering: request) === once)
    #expect(once.callCount == 0)
    #expect(registry.journal.isEmpty)
    request.httpMethod = "POST"
    #expect(registry.stub(answering: request) === post)
    request.httpMethod = "DELETE"
    #expect(registry.stub(answering: request) == nil)
    registry.pause()
    request.httpMethod = "GET"
    #expect(registry.stub(answering: request) == nil)
    registry.resume()
    registry.remove(once)
    #expect(registry.stub(answering: request) === general)
  }

  @Test func theLookupSkipsUsedUpStubsAndStubsWaitingForAnotherState() async throws {
    let registry = StubRegistry()
    let fallback = registry.stub(.get("/users/7"), .text("fallback"))
    let once = registry.stub(.get("/users/7"), .text("once"), limit: .once)
    #expect(registry.stub(answering: URLRequest(url: Self.url)) === once)
    _ = try await registry.makeSession().data(from: Self.url)
    #expect(registry.stub(answering: URLRequest(url: Self.url)) === fallback)

    let scenario = StubRegistry()
    scenario.stub(
      .get("/users/7"), .text("later"), scenario: ScenarioStep("s", when: "loggedIn"))
    #expect(scenario.stub(answering: URLRequest(url: Self.url)) == nil)
    scenario.setState("loggedIn", ofScenario: "s")
    #expect(scenario.stub(answering: URLRequest(url: Self.url)) != nil)
  }
}
