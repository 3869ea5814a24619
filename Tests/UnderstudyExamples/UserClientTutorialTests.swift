import Testing
import Understudy

@Suite(.stubs)
struct UserClientTutorialTests {
  @Test func loadsAUser() async throws {
    let stubs = try #require(StubRegistry.current)
    stubs.stub(.get("https://api.example.com/users/{id}"), .json(User(id: 42, name: "Ada")))
    let client = UserClient(session: stubs.makeSession())

    let user = try await client.user(id: 42)

    #expect(user == User(id: 42, name: "Ada"))
  }

  @Test func createsAUser() async throws {
    let stubs = try #require(StubRegistry.current)
    stubs.stub(.post("https://api.example.com/users") && .jsonBody(["name": "Lin"])) { _ in
      .json(User(id: 7, name: "Lin"), status: 201)
    }
    let client = UserClient(session: stubs.makeSession())

    let user = try await client.createUser(named: "Lin")

    #expect(user.id == 7)
  }

  @Test func reportsServerErrors() async throws {
    let stubs = try #require(StubRegistry.current)
    stubs.stub(.get("/users/{id}"), .status(503))
    let client = UserClient(session: stubs.makeSession())

    await #expect(throws: APIError(status: 503)) { try await client.user(id: 1) }
  }

  @Test func passesOnOfflineErrors() async throws {
    let stubs = try #require(StubRegistry.current)
    stubs.stub(.get("/users/{id}"), .failure(URLError(.notConnectedToInternet)))
    let client = UserClient(session: stubs.makeSession())

    let error = await #expect(throws: URLError.self) { try await client.user(id: 1) }
    #expect(error?.code == .notConnectedToInternet)
  }

  @Test func givesUpOnASlowServer() async throws {
    let stubs = try #require(StubRegistry.current)
    stubs.stub(.get("/users/{id}"), StubResponse.json(User(id: 1, name: "Ada")).delayed(by: 5))
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 0.2
    let client = UserClient(session: stubs.makeSession(configuration: configuration))

    let error = await #expect(throws: URLError.self) { try await client.user(id: 1) }
    #expect(error?.code == .timedOut)
  }

  @Test func asksOnlyOnce() async throws {
    let stubs = try #require(StubRegistry.current)
    let lookup = stubs.stub(.get("/users/{id}"), .json(User(id: 3, name: "Kay")))
    let client = UserClient(session: stubs.makeSession())

    _ = try await client.user(id: 3)

    #expect(lookup.callCount == 1)
    #expect(lookup.requests.map(\.url.path) == ["/users/3"])
  }
}
