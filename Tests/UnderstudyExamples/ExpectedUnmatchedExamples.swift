import Foundation
import Testing
import Understudy
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The examples of Documentation/Verification.md about expected unmatched requests.
@Suite struct ExpectedUnmatchedExamples {
  @Test(
    .stubs { stubs in
      stubs.stub(.get("https://api.example.com/users/42"), .json(User(id: 42, name: "Ada")))
      stubs.expectUnmatchedRequests(.get("https://api.example.com/users/7"))
    })
  func reportsAMissingUser() async throws {
    let client = UserClient(session: try #require(StubRegistry.current).makeSession())
    await #expect(throws: URLError.self) { try await client.user(id: 7) }
  }
}

final class MissingUserXCTests: StubbedTestCase {
  func testReportsAMissingUser() async throws {
    stubs.expectUnmatchedRequests(.get("https://api.example.com/users/7"))
    let client = UserClient(session: stubs.makeSession())

    do {
      _ = try await client.user(id: 7)
      XCTFail("expected the request to fail")
    } catch {
      XCTAssertEqual((error as? URLError)?.code, .resourceUnavailable)
    }
  }
}
