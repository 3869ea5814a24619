import Testing
import Understudy

@Suite struct CassetteTutorialTests {
  @Test(.cassette())
  func loadsAUser() async throws {
    let client = UserClient(session: try #require(StubRegistry.current).makeSession())

    let user = try await client.user(id: 42)

    #expect(user == User(id: 42, name: "Ada"))
  }

  @Test(.cassette(), arguments: [42, 7])
  func loadsEachUser(id: Int) async throws {
    let client = UserClient(session: try #require(StubRegistry.current).makeSession())

    let user = try await client.user(id: id)

    #expect(user.id == id)
  }
}
