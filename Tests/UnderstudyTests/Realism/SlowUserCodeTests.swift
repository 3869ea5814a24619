import Testing
import UnderstudyTestSupport

@testable import Understudy

/// A closure the user wrote that blocks or takes long is bounded by its request's timeouts: the
/// caller gets `URLError(.timedOut)` on time while the closure still runs, and the closure is
/// reported at its line.
@Suite struct SlowUserCodeTests {
  /// Holds a closure until the test lets it go, and says whether it still holds one: the tests
  /// check order, not time.
  final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let released = Locked(false)
    /// Whether a closure it held has been let go.
    var hasReleased: Bool { released.current }
    func block() {
      _ = semaphore.wait(timeout: .now() + TestTiming.never)
      released.withLock { $0 = true }
    }
    func open() { semaphore.signal() }
  }

  enum Timeout: String, CaseIterable, Sendable {
    case request, sessionRequest, sessionResource

    /// A session of `registry` and a request to `url` that time out after 0.3 s this way.
    func setUp(_ registry: StubRegistry, _ url: URL) -> (URLSession, URLRequest) {
      let configuration = URLSessionConfiguration.ephemeral
      var request = URLRequest(url: url)
      switch self {
      case .request: request.timeoutInterval = 0.3
      case .sessionRequest: configuration.timeoutIntervalForRequest = 0.3
      case .sessionResource: configuration.timeoutIntervalForResource = 0.3
      }
      return (registry.makeSession(configuration: configuration), request)
    }
  }

  @Test(arguments: Timeout.allCases)
  func aBlockingResponderIsBoundedByTheTimeout(timeout: Timeout) async throws {
    let registry = StubRegistry()
    registry.beginScope(verifying: .default)
    let gate = Gate()
    let line = #line + 1
    registry.stub(.get("/slow")) { _ in
      gate.block()
      return .text("too late")
    }
    let (session, request) = timeout.setUp(registry, URL(string: "https://api.test/slow")!)
    let error = try await withWatchdog {
      try await errorOf { try await session.data(for: request) }
    }
    // On time: before the responder returned.
    #expect(!gate.hasReleased)
    #expect(error?.code == .timedOut)
    #expect(error?.localizedDescription.contains("SlowUserCodeTests.swift:\(line)") == true)
    #expect(error?.localizedDescription.contains("was still running") == true)
    // The overrun is reported at the stub once the responder ran past the grace period.
    try await eventually { registry.scopeState.withLock { $0.userCodeFailures }?.isEmpty == false }
    gate.open()
    let failures = registry.endScope(testName: "slow()", location: SourceLocation())
    #expect(failures.map(\.location.line) == [line])
    #expect(failures.first?.message.contains("past the 0.3 s timeout") == true)
  }

  @Test func aBlockingCustomMatcherIsBoundedByTheTimeout() async throws {
    let registry = StubRegistry()
    let gate = Gate()
    registry.stub(
      .custom("waits") { _ in
        gate.block()
        return true
      }, .text("too late"))
    var request = URLRequest(url: URL(string: "https://api.test/slow")!)
    request.timeoutInterval = 0.3
    let error = try await withWatchdog { [request] in
      try await errorOf { try await registry.makeSession().data(for: request) }
    }
    #expect(!gate.hasReleased)
    gate.open()
    #expect(error?.code == .timedOut)
    #expect(error?.localizedDescription.contains("the custom matcher of stub") == true)
  }

  @Test func aTimeoutCancelsAnAsyncResponderWhichIsThenNotReported() async throws {
    let registry = StubRegistry()
    registry.beginScope(verifying: .default)
    let cancelled = Arrival()
    registry.stub(.get("/slow")) { _ async throws -> StubResponse in
      do {
        try await Task.sleep(nanoseconds: 30_000_000_000)
      } catch {
        cancelled.signal()
        throw error
      }
      return .text("too late")
    }
    var request = URLRequest(url: URL(string: "https://api.test/slow")!)
    request.timeoutInterval = 0.3
    let error = try await withWatchdog { [request] in
      try await errorOf { try await registry.makeSession().data(for: request) }
    }
    #expect(error?.code == .timedOut)
    try await cancelled.wait(within: 20)
    try await Task.sleep(nanoseconds: UInt64(UserCodeRun.overrunGrace * 2e9))
    #expect(registry.endScope(testName: "slow()", location: SourceLocation()).isEmpty)
  }
}

/// Swift's cooperative pool has a thread per core and adds none, and every test body shares it.
/// An async responder must not need one of its threads: while other tests compute, it would wait
/// for a thread past its request's timeout.
///
/// It runs in a process of its own, as the load tests do: holding the whole pool stalls every
/// test beside it, and beside a loaded parallel suite an answer that needed no pooled thread
/// still came after the hold, so the check failed for want of a core, not for the pool.
@Suite(
  .serialized,
  .enabled(
    if: ProcessInfo.processInfo.environment["UNDERSTUDY_LOAD_TESTS"] == "1",
    "holds Swift's pool: UNDERSTUDY_LOAD_TESTS=1 swift test --filter BusySharedPoolTests"))
struct BusySharedPoolTests {
  @Test func anAsyncResponderRunsWhileEveryThreadOfTheSharedPoolComputes() async throws {
    let registry = StubRegistry()
    registry.stub(.get("https://hooks.test/ping"), .text("pong"))
    let session = registry.makeSession()
    registry.stub(.get("/outer")) { _ async throws in
      let (data, _) = try await session.data(from: URL(string: "https://hooks.test/ping")!)
      return .text("outer after " + String(decoding: data, as: UTF8.self))
    }
    let outcome = await PoolHolder().send(URL(string: "https://api.test/outer")!, through: session)
    #expect(outcome.body == "outer after pong")
    #expect(outcome.whileHeld, "the responder waited for a thread of the shared pool")
  }

  @Test func aSessionsAnswerArrivesWhileEveryThreadOfTheSharedPoolComputes() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/ping"), .text("pong"))
    let session = registry.makeSession()
    let outcome = await PoolHolder().send(URL(string: "https://api.test/ping")!, through: session)
    #expect(outcome.body == "pong")
    #expect(outcome.whileHeld, "the completion handler waited for a thread of the shared pool")
  }
}

/// Holds every thread of Swift's cooperative pool with a task that computes (a blocked thread may
/// be replaced; a busy one never is) until released, or for 10 s at most.
///
/// Its tasks compute only once all of them run. Until then each sleeps, so that libdispatch may
/// lend the pool a thread in its place: in the parallel run the last task waited behind every
/// other test's work, and a first one that computed all that time took a thread from all of them
/// (the thread-sanitizer run took half as long again). A thread lent that way may stay and serve
/// the responder, so the check is sharp when the suite runs alone, as it is for the test below.
final class PoolHolder: Sendable {
  private struct State {
    var running = 0
    var released = false
    var heldUntil: Date?
  }
  private let state = Locked(State())
  private let threads: Int

  init(threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
    self.threads = threads
    for _ in 0..<threads {
      Task.detached { [state] in
        state.withLock { $0.running += 1 }
        // Should the pool never be held whole, the tasks still end.
        let givingUp = Date() + 60 * TestTiming.scale
        while true {
          let (done, holding) = state.withLock { state in
            (state.released || Date() > (state.heldUntil ?? givingUp), state.heldUntil != nil)
          }
          if done { return }
          if holding { sched_yield() } else { usleep(1000) }
        }
      }
    }
  }

  /// Waits until a task holds each thread, and starts the 10 s; gives up after a minute, and
  /// then ``release()`` says the threads were not held.
  private func waitUntilHeld() {
    let givingUp = Date() + 60 * TestTiming.scale
    while Date() < givingUp {
      let held = state.withLock { state in
        if state.running == threads { state.heldUntil = Date() + 10 * TestTiming.scale }
        return state.heldUntil != nil
      }
      if held { return }
      usleep(1000)
    }
  }

  /// Sends `url` through `session` once every thread is held, from a thread of its own (no
  /// task runs then), and lets the threads go when the answer arrives: its body, and whether
  /// the threads were still held.
  func send(_ url: URL, through session: URLSession) async -> (body: String?, whileHeld: Bool) {
    await withCheckedContinuation { continuation in
      DispatchQueue(label: "sends once the pool is held").async {
        self.waitUntilHeld()
        session.dataTask(with: url) { data, _, _ in
          let held = self.release()
          continuation.resume(returning: (data.map { String(decoding: $0, as: UTF8.self) }, held))
        }.resume()
      }
    }
  }

  /// Lets the threads go; whether they were still held.
  private func release() -> Bool {
    state.withLock { state in
      defer { state.released = true }
      return state.heldUntil.map { Date() <= $0 } == true && !state.released
    }
  }
}

/// Fixture files that are not regular files would block or never end a read: they are refused.
@Suite struct SpecialFixtureTests {
  static func temporaryPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent(
      "understudy-\(name)-\(UUID().uuidString)"
    ).path
  }

  @Test func aFIFOIsRefusedNamingThePath() throws {
    let path = Self.temporaryPath("fifo")
    #expect(mkfifo(path, 0o600) == 0)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let problem = try #require(ResponseBody.file(URL(fileURLWithPath: path)).problem)
    #expect(problem.contains(path))
    #expect(problem.contains("not a regular file"))
  }

  @Test func aSocketIsRefusedNamingThePath() throws {
    let path = Self.temporaryPath("socket")
    let python = Process()
    python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    python.arguments = [
      "python3", "-c", "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", path,
    ]
    try ChildProcesses.run(python)
    python.waitUntilExit()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let problem = try #require(ResponseBody.file(URL(fileURLWithPath: path)).problem)
    #expect(problem.contains(path))
    #expect(problem.contains("socket"))
  }

  @Test func aDirectoryIsRefusedNamingThePath() throws {
    let path = FileManager.default.temporaryDirectory.path
    let problem = try #require(ResponseBody.file(URL(fileURLWithPath: path)).problem)
    #expect(problem.contains("is a directory"))
  }

  @Test func aDeviceIsRefusedAtDeclarationAndTheRequestFailsAtOnce() async throws {
    let registry = StubRegistry()
    withKnownIssue {
      registry.stub(.get("/zero"), .fixture(at: URL(fileURLWithPath: "/dev/zero")))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("/dev/zero is not a regular file") }
    }
    var request = URLRequest(url: URL(string: "https://api.test/zero")!)
    request.timeoutInterval = TestTiming.never
    let error = try await withWatchdog { [request] in
      try await errorOf { try await registry.makeSession().data(for: request) }
    }
    #expect(error?.code == .fileDoesNotExist)
    #expect(error?.localizedDescription.contains("/dev/zero is not a regular file") == true)
  }
}
