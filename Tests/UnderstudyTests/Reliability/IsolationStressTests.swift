import Testing

@testable import Understudy

/// One test's misbehaving stub never delays another test's answers: 16 scopes in parallel, one
/// with a responder that blocks (until the test releases it, at most 30 s), the other 15 answering
/// instant stubs meanwhile.
///
/// Run alone for figures (`swift test --filter IsolationStressTests`); it prints the others'
/// added latency, median and worst, which Documentation/Reliability.md quotes. The assertion is
/// deliberately generous (worst under 1 s, all done before the blocker returns): timing is
/// the benchmark's job, and this test must not flake on a loaded machine.
@Suite struct IsolationStressTests {
  /// The longest the blocker blocks; the test releases it once the others are done.
  static let blockSeconds = 30.0
  static let requestsPerScope = 20
  static let quickScopes = 15

  @Test func aBlockingResponderDelaysNoOtherScope() async throws {
    let blocker = StubRegistry()
    let arrival = Arrival()
    let released = DispatchSemaphore(value: 0)
    let returned = Locked(false)
    blocker.stub(.get("/block")) { _ in
      arrival.signal()
      _ = released.wait(timeout: .now() + Self.blockSeconds)
      returned.withLock { $0 = true }
      return .text("unblocked")
    }
    let quick = (0..<Self.quickScopes).map { index -> StubRegistry in
      let registry = StubRegistry()
      registry.stub(.get("/quick"), .text("scope \(index)"))
      return registry
    }
    let sessions = quick.map { $0.makeSession() }

    let baseline = try await Self.latencies(sessions)
    let blocked = Task {
      try await blocker.makeSession().data(from: URL(string: "https://blocker.test/block")!)
    }
    try await arrival.wait(within: 20)
    let during = try await Self.latencies(sessions)
    let stillBlocking = !returned.current
    released.signal()
    _ = try await blocked.value

    let floor = Self.median(baseline)
    let added = during.map { max(0, $0 - floor) }
    print(
      "IsolationStressTests: \(Self.quickScopes) scopes × \(Self.requestsPerScope) requests "
        + "beside a blocking responder: baseline median "
        + "\(Self.milliseconds(floor)), added latency median \(Self.milliseconds(Self.median(added))), "
        + "worst \(Self.milliseconds(added.max() ?? 0))")
    #expect(stillBlocking, "the quick scopes finished only after the blocker was released")
    #expect((added.max() ?? 0) < 1)
  }

  /// Every scope sends its requests one after another, all scopes at once; each latency.
  static func latencies(_ sessions: [URLSession]) async throws -> [TimeInterval] {
    try await withThrowingTaskGroup(of: [TimeInterval].self) { group in
      for (index, session) in sessions.enumerated() {
        group.addTask {
          var latencies: [TimeInterval] = []
          for _ in 0..<requestsPerScope {
            let (body, latency) = try await Self.timedText(
              session, URL(string: "https://quick.test/quick")!)
            latencies.append(latency)
            #expect(body == "scope \(index)")
          }
          return latencies
        }
      }
      return try await group.reduce(into: []) { $0 += $1 }
    }
  }

  /// The body of `url` and how long the session took to deliver it, timed by the completion
  /// handler on the session's delegate queue: an awaiting test resumes on Swift Testing's few
  /// shared threads, which other tests' synchronous work can hold on a loaded machine, and that
  /// delay is not the engine's.
  static func timedText(_ session: URLSession, _ url: URL) async throws -> (String, TimeInterval) {
    try await withCheckedThrowingContinuation { continuation in
      let start = Date()
      session.dataTask(with: url) { data, _, error in
        let elapsed = Date().timeIntervalSince(start)
        if let error { return continuation.resume(throwing: error) }
        continuation.resume(returning: (String(decoding: data ?? Data(), as: UTF8.self), elapsed))
      }.resume()
    }
  }

  static func median(_ values: [TimeInterval]) -> TimeInterval {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
  }

  static func milliseconds(_ seconds: TimeInterval) -> String {
    String(format: "%.2f ms", seconds * 1000)
  }
}
