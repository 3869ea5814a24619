import Testing

@testable import Understudy

/// Which stub answers when several match, and what happens when a limited stub is used up.
@Suite struct RegistryPrecedenceTests {
  let url = URL(string: "https://api.test/items/1")!

  @Test func theStubRegisteredLastAnswers() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/items/{id}"), .text("general"))
    registry.stub(.get("/items/1"), .text("specific"))
    let (data, _) = try await registry.makeSession().data(from: url)
    #expect(String(decoding: data, as: UTF8.self) == "specific")
  }

  @Test func precedenceHoldsAcrossIndexedAndUnindexedStubs() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/items/1"), .text("indexed, older"))
    registry.stub(.path(prefix: "/items"), .text("unindexed, newer"))
    let session = registry.makeSession()
    #expect(try await session.text(from: url) == "unindexed, newer")
    registry.stub(.get("/items/1"), .text("indexed, newest"))
    #expect(try await session.text(from: url) == "indexed, newest")
  }

  @Test func aUsedUpStubStepsAsideForTheNextMatch() async throws {
    let registry = StubRegistry()
    let fallback = registry.stub(.get("/items/1"), .text("fallback"))
    let once = registry.stub(.get("/items/1"), .text("first time"), limit: .once)
    let session = registry.makeSession()
    #expect(try await session.text(from: url) == "first time")
    #expect(try await session.text(from: url) == "fallback")
    #expect(try await session.text(from: url) == "fallback")
    #expect(once.callCount == 1)
    #expect(once.isExhausted)
    #expect(fallback.callCount == 2)
  }

  @Test func aUsedUpStubWithNoFallbackFailsAndTheReportSaysItIsUsedUp() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/items/1"), .ok, limit: .times(2))
    let session = registry.makeSession()
    _ = try await session.data(from: url)
    _ = try await session.data(from: url)
    let error = try await #require(throws: URLError.self) { try await session.data(from: url) }
    #expect(error.code == .resourceUnavailable)
    #expect(
      error.localizedDescription.contains("matched, but it is used up: limit 2 times, answered 2"))
  }

  @Test func aSequenceAnswersInOrderThenIsUsedUp() async throws {
    let registry = StubRegistry()
    let stub = registry.stub(
      .get("/items/1"), sequence: [.status(503), .text("recovered"), .status(204)])
    let session = registry.makeSession()
    var statuses: [Int] = []
    for _ in 0..<3 {
      let (_, response) = try await session.data(from: url)
      statuses.append((response as! HTTPURLResponse).statusCode)
    }
    #expect(statuses == [503, 200, 204])
    #expect(stub.isExhausted)
    await #expect(throws: URLError.self) { try await session.data(from: url) }
  }

  @Test func removingAStubUncoversTheOneBeneath() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/items/1"), .text("beneath"))
    let top = registry.stub(.get("/items/1"), .text("top"))
    let session = registry.makeSession()
    #expect(try await session.text(from: url) == "top")
    registry.remove(top)
    #expect(try await session.text(from: url) == "beneath")
    registry.removeAllStubs()
    #expect(registry.stubs.isEmpty)
    await #expect(throws: URLError.self) { try await session.data(from: url) }
  }

  @Test func scenarioStatesGateAndMoveStubs() async throws {
    let registry = StubRegistry()
    let cart = URL(string: "https://api.test/cart")!
    registry.stub(.get("/cart"), .text("empty"), scenario: ScenarioStep("cart", when: "started"))
    registry.stub(
      .post("/cart"), .status(201), scenario: ScenarioStep("cart", when: "started", then: "filled"))
    registry.stub(.get("/cart"), .text("one item"), scenario: ScenarioStep("cart", when: "filled"))
    let session = registry.makeSession()
    #expect(try await session.text(from: cart) == "empty")
    var post = URLRequest(url: cart)
    post.httpMethod = "POST"
    _ = try await session.data(for: post)
    #expect(registry.state(ofScenario: "cart") == "filled")
    #expect(try await session.text(from: cart) == "one item")
    // A second POST finds no stub for state "filled", and the report says why.
    let error = try await #require(throws: URLError.self) { try await session.data(for: post) }
    #expect(
      error.localizedDescription.contains(
        #"scenario "cart": expected state "started", got state "filled""#))
  }
}

extension URLSession {
  /// The body of a GET as UTF-8 text, for tests.
  func text(from url: URL) async throws -> String {
    let (data, _) = try await data(from: url)
    return String(decoding: data, as: UTF8.self)
  }
}
