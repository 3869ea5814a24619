import Understudy
import XCTest

/// The XCTest example of Documentation/Recording.md; its cassette is committed in
/// `__Cassettes__/RecordAndReplayXCTestExamples/testLoadsAUser.har`.
final class UserClientCassetteXCTests: XCTestCase {
  func testLoadsAUser() async throws {
    try await withCassette { stubs in
      let client = UserClient(session: stubs.makeSession())

      let user = try await client.user(id: 42)

      XCTAssertEqual(user.name, "Ada")
    }
  }

  func testLoadsAUserWithACompletionHandler() {
    withCassette("testLoadsAUser") { stubs in
      let loaded = expectation(description: "user loaded")
      let url = URL(string: "https://api.example.com/users/42")!
      stubs.makeSession().dataTask(with: url) { data, _, _ in
        XCTAssertEqual(try? JSONDecoder().decode(User.self, from: data ?? Data()).name, "Ada")
        loaded.fulfill()
      }.resume()
      wait(for: [loaded], timeout: 30)
    }
  }
}
