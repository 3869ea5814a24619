import Understudy
import XCTest

final class UserClientXCTests: StubbedTestCase {
  func testLoadsAUser() async throws {
    stubs.stub(.get("https://api.example.com/users/42"), .json(User(id: 42, name: "Ada")))
    let client = UserClient(session: stubs.makeSession())

    let user = try await client.user(id: 42)

    XCTAssertEqual(user.name, "Ada")
  }
}
