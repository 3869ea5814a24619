import Testing
import Understudy
import XCTest

/// The examples of Documentation/GettingStarted.md and the GettingStarted article.
@Suite struct GettingStartedExamples {
  @Test(
    .stubs { stubs in
      stubs.stub(.get("https://api.example.com/users/{id}"), .json(User(id: 42, name: "Ada")))
    })
  func loadsAUser() async throws {
    let client = UserClient(session: StubRegistry.current!.makeSession())
    let user = try await client.user(id: 42)
    #expect(user.name == "Ada")
  }

  @Test func aRegistryOfYourOwn() async throws {
    let registry = StubRegistry()
    registry.stub(.get("https://api.example.com/users/42"), .json(User(id: 42, name: "Ada")))
    let client = UserClient(session: registry.makeSession())

    let user = try await client.user(id: 42)

    #expect(user.name == "Ada")
    #expect(registry.requests.map(\.url.path) == ["/users/42"])
  }

  @Test func anUnmatchedRequestFailsWithAReport() async throws {
    let registry = StubRegistry()
    registry.stub(.get("https://api.example.com/users/{id}"), .json(User(id: 42, name: "Ada")))
    let session = registry.makeSession()

    let error = await #expect(throws: URLError.self) {
      try await session.data(from: URL(string: "https://api.example.com/user/42")!)
    }

    #expect(error?.code == .resourceUnavailable)
    #expect(error?.localizedDescription.contains("✗ path: expected ~ /users/{id}") == true)
  }
}

final class GettingStartedXCTests: StubbedTestCase {
  func testLoadsAUser() async throws {
    stubs.stub(.get("https://api.example.com/users/{id}"), .json(User(id: 42, name: "Ada")))
    let client = UserClient(session: stubs.makeSession())

    let user = try await client.user(id: 42)

    XCTAssertEqual(user.name, "Ada")
  }
}
