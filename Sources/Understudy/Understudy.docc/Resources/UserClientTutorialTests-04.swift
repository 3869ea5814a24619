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
}
