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
}
