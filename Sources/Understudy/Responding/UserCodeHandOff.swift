import Dispatch

/// Lets the work queue take a closure's answer itself when the closure is quick.
///
/// A responder runs on a thread of its own (``UserCodeRun``), never on the work queue every
/// session shares. Its answer used to come back through the re-entry path (`suspend()` and
/// `resume()` of the task, which calls `startLoading` again), and that hop made a responder
/// stub cost 5.85x the floor per request where a plain stub costs 0.93x (issue 41). Most
/// responders build an answer in microseconds, so the work queue now waits for it a little
/// while, ``patience``, and delivers it in the same `startLoading`. A closure that takes
/// longer (it blocks, sleeps, or waits on a request of its own) holds the queue that long once
/// and no longer: its answer then takes the re-entry path as before, and its timeouts run.
final class UserCodeHandOff<Answer: Sendable>: Sendable {
  /// How long the work queue waits. Long enough for a thread to start and a quick closure to
  /// finish on a busy machine; short enough that a thousand slow closures cost the shared
  /// queue a second in all.
  static var patience: DispatchTimeInterval { .milliseconds(1) }

  private struct State {
    var answer: Answer?
    /// Whether the work queue has stopped waiting; the answer then goes to `later`.
    var gaveUp = false
  }

  // Guards the answer and whether anyone still waits for it.
  private let state = Locked(State())
  private let arrived = DispatchSemaphore(value: 0)
  private let later: @Sendable (Answer) -> Void

  init(later: @escaping @Sendable (Answer) -> Void) {
    self.later = later
  }

  /// Hands the closure's answer to the waiting work queue, or to `later` when it gave up.
  @Sendable func deliver(_ answer: Answer) {
    let waited = state.withLock { state -> Bool in
      guard !state.gaveUp else { return false }
      state.answer = answer
      return true
    }
    if waited { arrived.signal() } else { later(answer) }
  }

  /// The answer, when it came within ``patience``; otherwise `nil`, and it goes to `later`.
  func wait() -> Answer? {
    _ = arrived.wait(timeout: .now() + Self.patience)
    return state.withLock { state -> Answer? in
      state.gaveUp = true
      return state.answer
    }
  }
}
