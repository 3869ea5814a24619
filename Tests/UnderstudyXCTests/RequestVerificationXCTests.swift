import Understudy
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

#if os(Linux)
  /// `verify(_:_:)` and `request(matching:timeout:)` in XCTest: failures land at the caller's line.
  final class RequestVerificationXCTests: StubbedTestCase {
    private var captured: [(description: String, line: Int)] = []

    // Captures verification failures so the test can assert on them instead of failing.
    override func recordFailure(
      withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
      expected: Bool
    ) {
      if description.contains("request(s) matching") {
        captured.append((description, lineNumber))
      } else {
        super.recordFailure(
          withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
      }
    }

    func testAFailedCountIsRecordedAtTheCallersLine() async throws {
      stubs.stub(.post("/events"), .ok)
      var request = URLRequest(url: URL(string: "https://api.test/events")!)
      request.httpMethod = "POST"
      _ = try await stubs.makeSession().data(for: request)
      XCTAssertTrue(stubs.verify(.post("https://api.test/events"), .once))
      let line = #line + 1
      XCTAssertFalse(stubs.verify(.post("https://api.test/events"), .exactly(2)))
      XCTAssertEqual(captured.map(\.line), [line])
      XCTAssertTrue(captured.first?.description.contains("Expected exactly 2 request(s)") == true)
    }

    func testWaitingForABackgroundRequest() async throws {
      stubs.stub(.post("/sync"), .ok)
      let session = stubs.makeSession()
      Task.detached {
        var request = URLRequest(url: URL(string: "https://api.test/sync")!)
        request.httpMethod = "POST"
        _ = try await session.data(for: request)
      }
      let sent = try await stubs.request(
        matching: .post("https://api.test/sync"), timeout: .seconds(20))
      XCTAssertEqual(sent.method, "POST")
      do {
        _ = try await stubs.request(
          matching: .get("https://api.test/none"), timeout: .milliseconds(50))
        XCTFail("no request should have matched")
      } catch let timeout as RequestWaitTimeout {
        XCTAssertTrue(timeout.description.contains("1. POST https://api.test/sync"))
      }
    }
  }
#endif
