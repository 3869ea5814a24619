import Testing
import Understudy

/// The Understudy side of Documentation/MigratingFromOHHTTPStubs.md, MigratingFromMocker.md,
/// MigratingFromHippolyte.md and MigratingFromReplay.md.
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

  // MARK: Hippolyte

  @Test func hippolyteStub() async throws {
    registry.stub(.get("http://www.apple.com"), .status(204).header("X-Foo", "Bar"))

    let (_, response) = try await registry.makeSession().data(
      from: URL(string: "http://www.apple.com")!)
    #expect((response as? HTTPURLResponse)?.statusCode == 204)
    #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Foo") == "Bar")
  }

  @Test func hippolyteMatchers() async throws {
    registry.stub(.method(.get) && .url(matching: #"^http://www\.google\.com/.+"#), .status(404))
    registry.stub(.post("/users") && .jsonBody(["id": 100, "name": "Tim"]), .status(201))
    registry.stub(.post("/upload") && .body(Data("raw".utf8)), .ok)

    let (_, response) = try await registry.makeSession().data(
      from: URL(string: "http://www.google.com/foo.html")!)
    #expect((response as? HTTPURLResponse)?.statusCode == 404)
  }

  @Test func hippolytePauseAndLookup() async throws {
    let apple = registry.stub(.get("http://www.apple.com"), .text("Hippolyte"))
    let request = URLRequest(url: URL(string: "http://www.apple.com")!)

    registry.pause()
    #expect(registry.stub(answering: request) == nil)
    registry.resume()
    #expect(registry.stub(answering: request) == apple)

    let registered: Set<Stub> = [apple]
    #expect(registered.contains(apple))
    registry.removeAllStubs()
  }

  @Test func hippolyteComparesPatterns() {
    registry.stub(.get("/users/{id}"), .ok)
    registry.stub(.get("/users/{id}"), .status(404))
    let patterns = registry.stubs.map(\.pattern)
    #expect(patterns[0] == patterns[1])
    #expect(Set(patterns).count == 1)
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

    #expect(redaction.readsNamesAsWords)
  }
}
