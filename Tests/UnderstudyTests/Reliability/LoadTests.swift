import Testing

@testable import Understudy

/// Identical URLs, different answers, 16 scopes, 64 requests in flight, three task APIs.
///
/// It runs in a process of its own: at full load it holds URLSession's one process-wide queue
/// and the concurrency pool for seconds, and would stall every other test beside it. CI runs it
/// as its own step (`UNDERSTUDY_LOAD_TESTS=1 swift test --filter LoadTests`, 24,000 requests);
/// add `UNDERSTUDY_STRESS_REQUESTS=100000` for the full size.
@Suite(
  .enabled(
    if: ProcessInfo.processInfo.environment["UNDERSTUDY_LOAD_TESTS"] == "1",
    "runs in its own process: UNDERSTUDY_LOAD_TESTS=1 swift test --filter LoadTests"))
struct LoadTests {
  static let totalRequests =
    ProcessInfo.processInfo.environment["UNDERSTUDY_STRESS_REQUESTS"].flatMap(Int.init) ?? 24_000
  static let scopes = 16
  static let inFlight = 64
  static let url = URL(string: "https://load.test/same")!

  @Test func noCrossedAnswersAndFlatMemoryUnderLoad() async throws {
    let registries = (0..<Self.scopes).map { index -> StubRegistry in
      // A bounded journal: this test is about routing and memory, not about history.
      let registry = StubRegistry(journalCapacity: 8)
      registry.stub(.get("/same"), .text("scope \(index)"))
      return registry
    }
    let sessions = registries.map { $0.makeSession() }
    let delegates = registries.map { _ in LoadDelegate() }
    let delegateSessions = zip(registries, delegates).map { $0.makeSession(delegate: $1) }

    func batch(_ range: Range<Int>) async throws -> Int {
      try await withThrowingTaskGroup(of: Bool.self) { group in
        var crossed = 0
        var next = range.lowerBound
        func add(_ index: Int) {
          let scope = index % Self.scopes
          let expected = "scope \(scope)"
          group.addTask {
            let body: String
            switch index % 3 {
            case 0: body = try await sessions[scope].text(from: Self.url)
            case 1: body = try await Self.completionHandlerText(sessions[scope])
            default: body = try await delegates[scope].text(delegateSessions[scope])
            }
            return body == expected
          }
        }
        while next < min(range.upperBound, range.lowerBound + Self.inFlight) {
          add(next)
          next += 1
        }
        while let correct = try await group.next() {
          if !correct { crossed += 1 }
          if next < range.upperBound {
            add(next)
            next += 1
          }
        }
        return crossed
      }
    }

    let quarter = Self.totalRequests / 4
    var crossed = try await batch(0..<quarter)
    let warm = MemoryUse.residentBytes()
    crossed += try await batch(quarter..<Self.totalRequests)
    let end = MemoryUse.residentBytes()
    #expect(crossed == 0)
    #expect(registries.allSatisfy { $0.stubs[0].callCount > 0 })
    #expect(registries.map { $0.stubs[0].callCount }.reduce(0, +) == Self.totalRequests)
    if let warm, let end {
      // Three quarters of the requests may not grow the process by more than 24 MiB.
      #expect(end - warm < 24 * 1024 * 1024, "RSS grew from \(warm) to \(end) bytes")
    }
  }

  /// Two thousand delayed answers come due at once. Each woke its request from a thread of its
  /// own that waited for the work queue; past libdispatch's limit of about 255 threads the work
  /// queue got none, and every session in the process hung for good (1 run in 2 here, and 31 of
  /// 1,000 answered in an audit's run).
  @Test func twoThousandDelayedAnswersDueAtOnceAllArrive() async throws {
    let registry = StubRegistry(journalCapacity: 8)
    registry.stub(.get("/burst"), StubResponse.text("due").delayed(by: 0.5))
    let bystander = StubRegistry()
    bystander.stub(.get("/now"), .text("now"))
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = TestTiming.never
    let session = registry.makeSession(configuration: configuration)
    let answered = Locked(0)
    let burst = URL(string: "https://load.test/burst")!
    for _ in 0..<2_000 {
      session.dataTask(with: burst) { data, _, _ in
        if data == Data("due".utf8) { answered.withLock { $0 += 1 } }
      }.resume()
    }
    try await Task.sleep(nanoseconds: 600_000_000)
    // While the answers arrive, another test's session is answered too.
    let now = try await withWatchdog {
      try await bystander.makeSession().text(from: URL(string: "https://load.test/now")!)
    }
    #expect(now == "now")
    try await eventually(within: 60) { answered.current == 2_000 }
  }

  static func completionHandlerText(_ session: URLSession) async throws -> String {
    let box = Unchecked(session)
    return try await withCheckedThrowingContinuation { continuation in
      box.value.dataTask(with: url) { data, _, error in
        if let error { return continuation.resume(throwing: error) }
        continuation.resume(returning: String(decoding: data ?? Data(), as: UTF8.self))
      }.resume()
    }
  }
}

/// A session delegate that hands each task's body to whoever awaits it.
final class LoadDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  // Guards the bodies collected so far and the waiters, by task identifier.
  private let state = Locked<
    (bodies: [Int: Data], waiters: [Int: CheckedContinuation<String, any Error>])
  >(([:], [:]))

  func text(_ session: URLSession) async throws -> String {
    let task = session.dataTask(with: LoadTests.url)
    return try await withCheckedThrowingContinuation { continuation in
      state.withLock { $0.waiters[task.taskIdentifier] = continuation }
      task.resume()
    }
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    state.withLock { $0.bodies[dataTask.taskIdentifier, default: Data()].append(data) }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    let (body, waiter) = state.withLock { state in
      (
        state.bodies.removeValue(forKey: task.taskIdentifier),
        state.waiters.removeValue(forKey: task.taskIdentifier)
      )
    }
    if let error {
      waiter?.resume(throwing: error)
    } else {
      waiter?.resume(returning: String(decoding: body ?? Data(), as: UTF8.self))
    }
  }
}

/// The process's resident memory, from /proc (Linux); `nil` elsewhere.
enum MemoryUse {
  static func residentBytes() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return nil
    }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first
      return kilobytes.map { $0 * 1024 }
    }
    return nil
  }
}
