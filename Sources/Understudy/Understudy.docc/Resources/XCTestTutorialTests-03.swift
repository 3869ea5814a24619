import Understudy
import XCTest

final class XCTestTutorialTests: StubbedTestCase {
  func testLoadsAUser() async throws {
    stubs.stub(.get("https://api.example.com/users/{id}"), .json(User(id: 42, name: "Ada")))
    let client = UserClient(session: stubs.makeSession())

    let user = try await client.user(id: 42)

    XCTAssertEqual(user, User(id: 42, name: "Ada"))
  }

  func testReportsServerErrors() async throws {
    stubs.stub(.get("/users/{id}"), .status(503))
    let client = UserClient(session: stubs.makeSession())

    do {
      _ = try await client.user(id: 1)
      XCTFail("expected an APIError")
    } catch {
      XCTAssertEqual(error as? APIError, APIError(status: 503))
    }
  }

  func testAsksOnlyOnce() async throws {
    let lookup = stubs.stub(.get("/users/{id}"), .json(User(id: 3, name: "Kay")))
    let client = UserClient(session: stubs.makeSession())

    _ = try await client.user(id: 3)

    XCTAssertEqual(lookup.callCount, 1)
    XCTAssertEqual(lookup.requests.map(\.url.path), ["/users/3"])
  }
}
