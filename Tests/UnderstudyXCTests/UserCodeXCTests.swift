import Understudy
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Responders and custom matchers that send requests of their own, through every URLSession API,
/// in an XCTest case: nothing crashes or hangs, and each request gets its answer.
final class UserCodeXCTests: StubbedTestCase {
  private let side = URL(string: "https://side.test/token")!
  private let orders = URL(string: "https://api.test/orders")!

  override func setUp() {
    super.setUp()
    stubs.stub(.get("https://side.test/token"), .text("t-1"))
  }

  /// A responder that sends a request through the same registry and waits for it.
  private func stubOrdersWithASideRequest() {
    let session = stubs.makeSession()
    let side = side
    stubs.stub(.post("/orders")) { _ in
      .text(Self.blockingGet(side, through: session) ?? "side request failed")
    }
  }

  private static func blockingGet(_ url: URL, through session: URLSession) -> String? {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var body: String?
    session.dataTask(with: url) { data, _, _ in
      body = data.map { String(decoding: $0, as: UTF8.self) }
      done.signal()
    }.resume()
    guard done.wait(timeout: .now() + 20) == .success else { return nil }
    return body
  }

  private var post: URLRequest {
    var request = URLRequest(url: orders)
    request.httpMethod = "POST"
    return request
  }

  func testAsyncDataForWithASideRequestInTheResponder() async throws {
    stubOrdersWithASideRequest()
    let (data, _) = try await stubs.makeSession().data(for: post)
    XCTAssertEqual(String(decoding: data, as: UTF8.self), "t-1")
  }

  func testCompletionHandlerWithASideRequestInTheResponder() {
    stubOrdersWithASideRequest()
    let answered = expectation(description: "answered")
    stubs.makeSession().dataTask(with: post) { data, _, error in
      XCTAssertNil(error)
      XCTAssertEqual(data.map { String(decoding: $0, as: UTF8.self) }, "t-1")
      answered.fulfill()
    }.resume()
    wait(for: [answered], timeout: 20)
  }

  func testDelegateWithASideRequestInTheResponder() {
    stubOrdersWithASideRequest()
    let delegate = BodyCollector()
    stubs.makeSession(delegate: delegate).dataTask(with: post).resume()
    wait(for: [delegate.finished], timeout: 20)
    XCTAssertNil(delegate.error)
    XCTAssertEqual(String(decoding: delegate.body, as: UTF8.self), "t-1")
  }

  func testUploadWithASideRequestInTheResponder() async throws {
    stubOrdersWithASideRequest()
    let (data, _) = try await stubs.makeSession().upload(for: post, from: Data("book".utf8))
    XCTAssertEqual(String(decoding: data, as: UTF8.self), "t-1")
  }

  func testAsyncResponderAwaitingARequestOfItsOwn() async throws {
    let session = stubs.makeSession()
    let side = side
    stubs.stub(.post("/orders")) { _ async throws -> StubResponse in
      let (data, _) = try await session.data(from: side)
      return .data(data)
    }
    let (data, _) = try await stubs.makeSession().data(for: post)
    XCTAssertEqual(String(decoding: data, as: UTF8.self), "t-1")
  }

  func testCustomMatcherWithASideRequest() async throws {
    let session = stubs.makeSession()
    let side = side
    stubs.stub(
      .post("/orders")
        && .custom("the side service answers") { _ in
          Self.blockingGet(side, through: session) == "t-1"
        }, .text("matched"))
    let (data, _) = try await stubs.makeSession().data(for: post)
    XCTAssertEqual(String(decoding: data, as: UTF8.self), "matched")
  }
}

/// Collects a delegate-based task's body and completion.
private final class BodyCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  let finished = XCTestExpectation(description: "finished")
  private(set) var body = Data()
  private(set) var error: (any Error)?

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    body.append(data)
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    self.error = error
    finished.fulfill()
  }
}
