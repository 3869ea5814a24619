import Understudy
import XCTest

final class XCTestTutorialTests: StubbedTestCase {
  func testLoadsAUser() async throws {
    stubs.stub(.get("https://api.example.com/users/{id}"), .json(User(id: 42, name: "Ada")))
    let client = UserClient(session: stubs.makeSession())

    let user = try await client.user(id: 42)

    XCTAssertEqual(user, User(id: 42, name: "Ada"))
  }

}
