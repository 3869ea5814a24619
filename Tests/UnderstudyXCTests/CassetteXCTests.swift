import Understudy
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `withCassette` passes every option to the cassette and the scope, in both of its forms.
final class CassetteXCTests: XCTestCase {
  private var folder: URL!

  override func setUpWithError() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("understudy-xctest-cassettes-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    // One recorded exchange that took 300 ms.
    let har = """
      {"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": [
        {"startedDateTime": "2026-01-01T00:00:00.000Z", "time": 300,
         "request": {"method": "GET", "url": "https://api.test/slow", "httpVersion": "HTTP/1.1",
                     "headers": [], "queryString": [], "cookies": [], "headersSize": -1,
                     "bodySize": 0},
         "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
                      "headers": [], "cookies": [], "redirectURL": "", "headersSize": -1,
                      "bodySize": 4, "content": {"size": 4, "mimeType": "text/plain",
                                                 "text": "slow"}},
         "cache": {}, "timings": {"send": 0, "wait": 300, "receive": 0}}]}}
      """
    try Data(har.utf8).write(to: folder.appendingPathComponent("slow.har"))
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  func testReplaySpeedReachesTheCassette() async throws {
    let clock = ContinuousClock()
    let start = clock.now
    let body = try await withCassette(
      "slow", location: .folder(folder), options: CassetteOptions(replaySpeed: .recorded)
    ) { stubs in
      try await stubs.makeSession().data(from: URL(string: "https://api.test/slow")!).0
    }
    XCTAssertEqual(String(decoding: body, as: UTF8.self), "slow")
    // At recorded speed the answer cannot come before the 300 ms the exchange took.
    XCTAssertGreaterThanOrEqual(clock.now - start, .milliseconds(300))
  }

  func testVerificationChoiceReachesTheScope() async throws {
    // The cassette has no entry for this request, so it fails; with the default verification
    // that would also fail this test. Verifying nothing, the test decides for itself.
    let failed = await withCassette("slow", location: .folder(folder), verifying: []) { stubs in
      do {
        _ = try await stubs.makeSession().data(from: URL(string: "https://api.test/other")!)
        return false
      } catch {
        return true
      }
    }
    XCTAssertTrue(failed)
  }

  func testSynchronousFormReplaysAndLetsStubsAnswerFirst() {
    withCassette("slow", location: .folder(folder)) { stubs in
      stubs.stub(.get("https://api.test/stubbed"), .text("stub"))
      let session = stubs.makeSession()
      XCTAssertEqual(fetch(session, "https://api.test/slow"), "slow")
      XCTAssertEqual(fetch(session, "https://api.test/stubbed"), "stub")
    }
  }

  private func fetch(_ session: URLSession, _ url: String) -> String? {
    let done = expectation(description: url)
    let text = LockedText()
    session.dataTask(with: URL(string: url)!) { data, _, _ in
      text.set(data.map { String(decoding: $0, as: UTF8.self) })
      done.fulfill()
    }.resume()
    wait(for: [done], timeout: 30)
    return text.value
  }
}

/// A string set from a URLSession callback and read by the test after waiting.
private final class LockedText: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: String?

  func set(_ text: String?) {
    lock.lock()
    stored = text
    lock.unlock()
  }

  var value: String? {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }
}
