import Understudy
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Per-test scopes for XCTest, synchronous and async.
final class StubbedTestCaseTests: StubbedTestCase {
  override func setUp() {
    super.setUp()
    // setUp runs inside the test's scope, so stubs declared here belong to this test.
    stubs.stub(.get("/from-setup"), .text("set up"))
  }

  func testSynchronousTestUsesItsOwnRegistry() {
    XCTAssertTrue(StubRegistry.current === stubs)
    XCTAssertEqual(stubs.stubs.count, 1)
    stubs.stub(.get("/sync"), .text("sync answer"))
    XCTAssertEqual(
      fetchSynchronously(stubs.makeSession(), URL(string: "https://api.test/sync")!), "sync answer")
    XCTAssertEqual(
      fetchSynchronously(stubs.makeSession(), URL(string: "https://api.test/from-setup")!), "set up"
    )
  }

  func testAsyncTestUsesItsOwnRegistry() async throws {
    stubs.stub(.get("/async"), .text("async answer"))
    let (data, _) = try await stubs.makeSession().data(from: URL(string: "https://api.test/async")!)
    XCTAssertEqual(String(decoding: data, as: UTF8.self), "async answer")
    // The previous test's stubs are gone.
    XCTAssertNil(stubs.stubs.first { "\($0.pattern)".contains("/sync") })
  }
}

#if os(Linux)
  /// An unmatched request becomes a failure of the test that sent it, recorded when it ends.
  final class UnmatchedRequestXCTests: StubbedTestCase {
    private var captured: [(description: String, file: String, line: Int)] = []

    // Captures the failure the scope records so the test can assert on it instead of failing.
    override func recordFailure(
      withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
      expected: Bool
    ) {
      if description.contains("no stub matched") {
        captured.append((description, filePath, lineNumber))
      } else {
        super.recordFailure(
          withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
      }
    }

    override func invokeTest() {
      super.invokeTest()
      XCTAssertEqual(captured.count, 1)
      XCTAssertTrue(captured.first?.description.contains("GET https://api.test/users/2") == true)
      XCTAssertEqual(captured.first?.line, stubLine)
      XCTAssertTrue(captured.first?.file.hasSuffix("StubbedTestCaseTests.swift") == true)
    }

    private var stubLine = 0

    func testUnmatchedRequestIsRecordedAtTheClosestStub() throws {
      stubLine = #line + 1
      stubs.stub(.get("/users/1"), .ok)
      let error = fetchErrorSynchronously(
        stubs.makeSession(), URL(string: "https://api.test/users/2")!)
      XCTAssertEqual(error?.code, .resourceUnavailable)
    }
  }
#endif

/// `withStubs` for tests that do not subclass StubbedTestCase.
final class WithStubsTests: XCTestCase {
  func testWithStubsScopesAndEnds() throws {
    var captured: StubRegistry?
    let body = withStubs { stubs -> String? in
      captured = stubs
      stubs.stub(.get("/w"), .text("within"))
      return fetchSynchronously(stubs.makeSession(), URL(string: "https://api.test/w")!)
    }
    XCTAssertEqual(body, "within")
    XCTAssertNil(StubRegistry.current)
    let late = fetchErrorSynchronously(
      captured!.makeSession(), URL(string: "https://api.test/w")!)
    XCTAssertTrue(late?.localizedDescription.contains("arrived after its test") == true)
  }

  func testAsyncWithStubs() async throws {
    let text = try await withStubs { stubs in
      stubs.stub(.post("/a") && .body("ping"), .text("pong"))
      var request = URLRequest(url: URL(string: "https://api.test/a")!)
      request.httpMethod = "POST"
      request.httpBody = Data("ping".utf8)
      let (data, _) = try await stubs.makeSession().data(for: request)
      return String(decoding: data, as: UTF8.self)
    }
    XCTAssertEqual(text, "pong")
  }
}
