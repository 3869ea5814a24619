import Testing

@testable import Understudy

/// The watchdogs stretch their deadline by the time their test waited for the executor; a hang
/// must still end the wait.
@Suite struct HangDeadlineTests {
  @Test(.timeLimit(.minutes(5)))
  func aWatchdogStillEndsAWaitForSomethingThatNeverHappens() async throws {
    let never = Arrival()
    await withKnownIssue {
      await #expect(throws: WatchdogExpired.self) {
        try await withWatchdog(1) { await never.wait() }
      }
    } matching: { issue in
      "\(issue)".contains("hung: no answer within")
    }
  }

  @Test(.timeLimit(.minutes(5)))
  func waitingEventuallyStillEndsForAConditionThatNeverHolds() async throws {
    try await withKnownIssue {
      try await eventually(within: 1) { false }
    } matching: { issue in
      "\(issue)".contains("condition not met within 1.0 s")
    }
  }

  /// A suite started beside a build reads the load before the load average has risen: the
  /// budget must grow with the load met during the wait, and never shrink.
  @Test func theBudgetGrowsWithALoadThatRisesDuringTheWait() async throws {
    let loads = Locked([1.0, 40, 2])
    var deadline = HangDeadline(
      seconds: 0.05,
      load: { loads.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] } },
      rereadAfter: 0)
    // Seconds times factors: compared within rounding (0.05 * 6 * 40 is 12.000000000000002).
    func budget(is seconds: Double) -> Bool {
      abs(deadline.seconds - seconds * TestTiming.scale) < 1e-9
    }
    #expect(budget(is: 0.05))
    try await deadline.pause(nanoseconds: 1_000_000)
    #expect(budget(is: 2))
    try await deadline.pause(nanoseconds: 100_000_000)
    #expect(budget(is: 2))
  }
}
