import Testing
import Understudy

/// The Understudy side of Documentation/MigratingFromOHHTTPStubs.md, MigratingFromMocker.md and
/// MigratingFromReplay.md.
@Suite struct MigrationExamples {
  let registry = StubRegistry()

  func body(_ url: String) async throws -> String {
    let (data, _) = try await registry.makeSession().data(from: URL(string: url)!)
    return String(decoding: data, as: UTF8.self)
  }

  // MARK: OHHTTPStubs

  @Test func ohhttpstubsConditionAndJSON() async throws {
    registry.stub(
      .get("https://api.example.com/users/42"), .json(["id": 42, "name": "Ada"] as JSONValue))

    let client = UserClient(session: registry.makeSession())
    #expect(try await client.user(id: 42) == User(id: 42, name: "Ada"))
  }

  @Test func ohhttpstubsMatchers() async throws {
    registry.stub(.host("api.example.com") && .path(prefix: "/v1/"), .status(410))
    registry.stub(.path(matching: #"\.png$"#), .data(Data([0x89, 0x50]), contentType: "image/png"))
    registry.stub(.get("/search") && .query(containing: ["q": "swift"]), .json([String]()))
    registry.stub(.post("/users") && .header("Authorization", "Bearer t"), .status(201))
    registry.stub(.post("/users") && .jsonBody(["name": "Ada"]), .status(201))

    #expect(try await body("https://api.example.com/search?q=swift&page=1") == "[]")
  }

  @Test func ohhttpstubsResponses() async throws {
    registry.stub(.get("/users/42"), .fixture("Fixtures/user.json"))
    registry.stub(.get("/offline"), .failure(URLError(.notConnectedToInternet)))
    registry.stub(
      .get("/slow"), StubResponse.text("done").delayed(by: 0.1).throttled(bytesPerSecond: 50_000))

    #expect(try await body("https://api.example.com/slow") == "done")
  }

  @Test func ohhttpstubsCustomConfiguration() {
    let configuration = registry.makeSessionConfiguration(from: .default)

    #expect(configuration.protocolClasses?.first == registry.protocolClass)
  }

  // MARK: Mocker

  @Test func mockerMock() async throws {
    let userJSON = Data(#"{"id": 42, "name": "Ada"}"#.utf8)
    registry.stub(
      .get("https://api.example.com/users/42"), .data(userJSON, contentType: "application/json"))
    registry.stub(.head("https://api.example.com/users/42"), .ok)

    let client = UserClient(session: registry.makeSession())
    #expect(try await client.user(id: 42).name == "Ada")
  }

  @Test func mockerOptionsAndExpectations() async throws {
    let mock = registry.stub(
      .get("https://api.example.com/search"), StubResponse.json([String]()).delayed(by: 0.1))
    registry.stub(.get("https://api.example.com/upload"), .failure(URLError(.timedOut)))

    #expect(try await body("https://api.example.com/search?ts=1718000000") == "[]")
    #expect(mock.callCount == 1)
    #expect(mock.requests.first?.queryValue("ts") == "1718000000")
  }

  @Test func mockerOptIn() {
    let optIn = StubRegistry(unmatchedRequests: .passThrough)
    optIn.stub(.get("https://api.example.com/users/42"), .json(User(id: 42, name: "Ada")))

    #expect(optIn.stubs.count == 1)
  }

  // MARK: Replay

  @Test(
    .stubs { stubs in
      stubs.stub(.get("https://example.com/greeting"), .text("Hello, world!"))
    })
  func fetchGreeting() async throws {
    let session = try #require(StubRegistry.current).makeSession()
    let (data, _) = try await session.data(from: URL(string: "https://example.com/greeting")!)
    #expect(String(data: data, encoding: .utf8) == "Hello, world!")
  }

  @Test func replayMatchers() async throws {
    registry.stub(.get("/users/{id}"), .json(User(id: 42, name: "Ada")))
    registry.stub(
      .post("https://api.example.com/graphql") && .header("X-Operation", "GetUser")
        && .jsonBody(subset: ["operationName": "GetUser"]),
      .json(["data": ["user": ["id": 42]]] as JSONValue))

    let client = UserClient(session: registry.makeSession())
    #expect(try await client.user(id: 42).name == "Ada")
  }

  @Test func replayFilters() throws {
    let redaction = try Redaction.default
      .redactingQueryParameters("api_key", "cursor")
      .redactingBodies(Redaction.BodyPattern(name: "email", pattern: #"[\w.+-]+@[\w-]+\.[\w.]+"#))

    #expect(redaction.headerNames.contains("Authorization"))
  }
}
