import Understudy
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `URLSession.shared` answered from the test's registry.
///
/// Named to run first: on Linux the shared session only reaches Understudy when the protocol was
/// registered before the process created its first URLSession, which `setUp()` here does.
final class AAASharedSessionXCTests: XCTestCase {
  override class func setUp() {
    super.setUp()
    SharedSessionInterception.install()
  }

  func testSharedSessionIsAnsweredByTheTestsRegistry() throws {
    XCTAssertEqual(SharedSessionInterception.install(), .active)
    let body = withSharedSessionStubs { stubs -> String? in
      stubs.stub(.get("https://legacy.test/status"), .text("stubbed shared"))
      return fetchSynchronously(URLSession.shared, URL(string: "https://legacy.test/status")!)
    }
    XCTAssertEqual(body, "stubbed shared")
  }

  func testSharedSessionRefusesWhenNoTestOwnsIt() throws {
    let error = fetchErrorSynchronously(URLSession.shared, URL(string: "https://legacy.test/x")!)
    XCTAssertEqual(error?.code, .resourceUnavailable)
    XCTAssertTrue(
      error?.localizedDescription.contains("no test that stubs URLSession.shared is running")
        == true)
  }
}

func fetchSynchronously(_ session: URLSession, _ url: URL) -> String? {
  let done = DispatchSemaphore(value: 0)
  let result = LockedBox<String?>(nil)
  session.dataTask(with: url) { data, _, _ in
    result.set(data.map { String(decoding: $0, as: UTF8.self) })
    done.signal()
  }.resume()
  _ = done.wait(timeout: .now() + 10)
  return result.get()
}

func fetchErrorSynchronously(_ session: URLSession, _ url: URL) -> URLError? {
  let done = DispatchSemaphore(value: 0)
  let result = LockedBox<URLError?>(nil)
  session.dataTask(with: url) { _, _, error in
    result.set(error as? URLError)
    done.signal()
  }.resume()
  _ = done.wait(timeout: .now() + 10)
  return result.get()
}

final class LockedBox<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func set(_ newValue: Value) {
    lock.lock()
    value = newValue
    lock.unlock()
  }
  func get() -> Value {
    lock.lock()
    defer { lock.unlock() }
    return value
  }
}
