import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A session is let go once its exchanges end, even while their timers are still due.
///
/// On Linux each URLSession holds a libcurl handle with a socket pair. The timers of a delayed
/// answer (the delay, and the request's timeout, an hour here) held the exchange, and through
/// it the session, until they were due: in a parallel test run a thousand descriptors stayed
/// open, past the point where Foundation's `Process.run()` reads beyond its buffer.
@Suite struct SessionReleaseTests {
  /// How an exchange with timers running ends.
  enum Ending: CaseIterable, Sendable {
    /// The delayed answer arrives.
    case answered
    /// The test cancels the request long before its answer is due.
    case cancelled
  }

  @Test(arguments: Ending.allCases)
  func aSessionIsLetGoWhenItsDelayedExchangeEnds(ending: Ending) async throws {
    let registry = StubRegistry()
    let delay = ending == .answered ? 0.05 : TestTiming.never
    registry.stub(.get("/slow"), StubResponse.text("slow").delayed(by: delay))
    let released = WeakSession()
    try await exchange(ending, on: registry, noting: released)
    try await eventually { released.session == nil }
  }

  /// Kept out of the test so that nothing in its frame holds the session.
  private func exchange(_ ending: Ending, on registry: StubRegistry, noting released: WeakSession)
    async throws
  {
    let session = registry.makeSession()
    released.session = session
    let request = URLRequest.heldOpen(URL(string: "https://api.test/slow")!)
    switch ending {
    case .answered:
      let (data, _) = try await session.data(for: request)
      #expect(String(decoding: data, as: UTF8.self) == "slow")
    case .cancelled:
      let task = Task { try await session.data(for: request) }
      try await eventually { !registry.requestsInFlight.isEmpty }
      task.cancel()
      #expect(try await errorOf { try await task.value }?.code == .cancelled)
    }
    // Darwin keeps a session until it is invalidated; FoundationNetworking lets go of it either
    // way, and only the timers held it.
    session.finishTasksAndInvalidate()
  }
}

/// The session under test, held weakly.
private final class WeakSession: @unchecked Sendable {
  weak var session: URLSession?
}
