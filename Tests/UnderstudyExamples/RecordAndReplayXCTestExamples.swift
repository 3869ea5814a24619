import Understudy
import XCTest

/// The XCTest example of Documentation/RecordAndReplay.md; its cassette is committed in
/// `__Cassettes__/RecordAndReplayXCTestExamples/testLoadsAUser.har`.
final class UserClientCassetteXCTests: XCTestCase {
  func testLoadsAUser() async throws {
    try await withCassette { stubs in
      let client = UserClient(session: stubs.makeSession())

      let user = try await client.user(id: 42)

      XCTAssertEqual(user.name, "Ada")
    }
  }
}
