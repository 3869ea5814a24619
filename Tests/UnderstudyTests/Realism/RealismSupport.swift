import Testing

@testable import Understudy

/// Fails the test instead of hanging it when `operation` does not finish in time.
///
/// The operation runs in an unstructured task, so a hung URLSession call cannot keep the test
/// (or the whole run) waiting: it is recorded and left behind.
func withWatchdog<T: Sendable>(
  _ seconds: Double = 30, sourceLocation: Testing.SourceLocation = #_sourceLocation,
  _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
  var deadline = HangDeadline(seconds: seconds)
  let outcome = Locked<Result<T, any Error>?>(nil)
  let work = Task {
    let result: Result<T, any Error>
    do { result = .success(try await operation()) } catch { result = .failure(error) }
    outcome.withLock { $0 = result }
  }
  _ = work
  while true {
    if let result = outcome.current { return try result.get() }
    if deadline.hasPassed { break }
    try await deadline.pause(nanoseconds: 2_000_000)
  }
  Issue.record("hung: no answer within \(deadline.seconds) s", sourceLocation: sourceLocation)
  throw WatchdogExpired()
}

struct WatchdogExpired: Error {}

/// How long tests wait, where waiting stands for something.
enum TestTiming {
  /// How much longer than usual waits for hangs may take: sanitizers slow everything down
  /// several times, so CI's thread-sanitizer run sets `UNDERSTUDY_TEST_TIME_SCALE`.
  static let scale =
    ProcessInfo.processInfo.environment["UNDERSTUDY_TEST_TIME_SCALE"].flatMap(Double.init) ?? 1

  /// How many times over the machine's cores are in demand: the 1-minute load average per core,
  /// at least 1. Waits for hangs grow by it, since a loaded machine delays work a waiter cannot
  /// see (``HangDeadline``).
  static func loadFactor() -> Double {
    var load = [0.0]
    guard getloadavg(&load, 1) == 1 else { return 1 }
    return max(1, load[0] / Double(ProcessInfo.processInfo.activeProcessorCount))
  }

  /// The delay of an answer that must never come: the test cancels or ends its request first.
  ///
  /// An hour, not 30 s: the test's next step after the request arrives waits its turn on an
  /// executor every test shares, which took over 30 s when other processes shared the CPU, and
  /// the answer came before the cancel it stood in for.
  static let never: TimeInterval = 3600
}

extension URLRequest {
  /// A GET of `url` that URLSession leaves in flight for ``TestTiming/never``: for a request a
  /// test holds open on purpose. With the default timeout of 60 s, a thread-sanitizer run on a
  /// busy machine timed such a request out before the test's next step, which then found
  /// nothing in flight.
  static func heldOpen(_ url: URL) -> URLRequest {
    URLRequest(url: url, timeoutInterval: TestTiming.never)
  }
}

/// The three ways code under test receives a body.
enum API: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case async
  case completionHandler
  case delegate

  var testDescription: String { rawValue }

  /// Sends `request` through `session`'s API of this kind (a delegate session for `.delegate`).
  func send(
    _ request: URLRequest, to registry: StubRegistry,
    configuration: URLSessionConfiguration = .ephemeral
  )
    async throws -> (Data, HTTPURLResponse, chunks: Int)
  {
    switch self {
    case .async:
      let (data, response) = try await registry.makeSession(configuration: configuration).data(
        for: request)
      return (data, response as! HTTPURLResponse, 1)
    case .completionHandler:
      let session = registry.makeSession(configuration: configuration)
      let box = Unchecked(session)
      return try await withCheckedThrowingContinuation { continuation in
        box.value.dataTask(with: request) { data, response, error in
          if let error { return continuation.resume(throwing: error) }
          continuation.resume(returning: (data ?? Data(), response as! HTTPURLResponse, 1))
        }.resume()
      }
    case .delegate:
      let delegate = CollectingDelegate()
      let session = registry.makeSession(configuration: configuration, delegate: delegate)
      session.dataTask(with: request).resume()
      let result = try await delegate.result()
      return (result.body, result.response!, result.chunks)
    }
  }
}

/// Tells a test the moment a stub's responder ran, so it can act while the request is in flight
/// without polling (polling misses short windows when the machine is loaded).
final class Arrival: Sendable {
  private let stream = AsyncStream<Void>.makeStream()

  func signal() { stream.continuation.yield() }

  func wait() async {
    for await _ in stream.stream { return }
  }
}

extension Arrival {
  /// Waits for the arrival, failing the test instead of hanging it when none comes.
  func wait(within seconds: Double, sourceLocation: Testing.SourceLocation = #_sourceLocation)
    async throws
  {
    _ = try await withWatchdog(seconds, sourceLocation: sourceLocation) { [self] in await wait() }
  }
}
