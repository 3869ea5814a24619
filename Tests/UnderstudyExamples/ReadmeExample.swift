import Testing
import Understudy

@Suite(.stubs)
struct UserClientTests {
  @Test func loadsAUser() async throws {
    let stubs = try #require(StubRegistry.current)
    stubs.stub(.get("https://api.example.com/users/{id}")) { request in
      .json(User(id: Int(request.pathParameters["id"]!)!, name: "Ada"))
    }
    let client = UserClient(session: stubs.makeSession())

    let user = try await client.user(id: 42)

    #expect(user == User(id: 42, name: "Ada"))
  }

  @Test func reportsServerErrors() async throws {
    let stubs = try #require(StubRegistry.current)
    stubs.stub(.get("/users/{id}"), .status(503))
    let client = UserClient(session: stubs.makeSession())

    await #expect(throws: APIError(status: 503)) { try await client.user(id: 1) }
  }
}
