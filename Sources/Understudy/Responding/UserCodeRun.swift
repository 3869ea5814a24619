/// The closures users write (responders, custom matchers) running for one request.
///
/// They never run on a URLSession work queue: every session's work queue targets one serial
/// queue, so a closure there that blocks stalls every test in the process, and one that starts
/// or cancels a task waits on the queue it is running on (a crash). Synchronous closures run on
/// a serial dispatch queue of their own, which libdispatch serves from its overcommitting pool:
/// it starts another thread when every thread is blocked, so a closure that blocks for seconds
/// delays only its own request. Async responders run in a detached task, which cancelling the
/// request cancels, on the same overcommitting pool (``UserCodeExecutor``). The answer goes back
/// to the protocol through its re-entry path, as a delayed answer does.
final class UserCodeRun: Sendable {
  /// What is running, as reports name it, and where it was declared.
  struct Closure: Sendable {
    /// What is running, as reports name it: worked out only when a report needs it. A stub's
    /// name is its pattern's description, masked, and writing it for every request was 58% of
    /// a responder stub's instructions in a debug build (issue 41).
    var name: String { describe() }
    let location: SourceLocation?
    private let describe: @Sendable () -> String

    init(name: @autoclosure @escaping @Sendable () -> String, location: SourceLocation?) {
      self.describe = name
      self.location = location
    }
  }

  private struct State {
    var closure: Closure?
    var startedAt = Date()
    var task: Task<Void, Never>?
    var cancelled = false
  }

  /// How long a synchronous closure may run on after its request timed out before it counts as
  /// overrunning.
  static let overrunGrace: TimeInterval = 0.5

  // Guards which closure runs now, since when, and the task to cancel.
  private let state = Locked(State())

  /// Runs `work` on a thread of its own, naming `closure` as what runs.
  func run(_ closure: Closure, _ work: @escaping @Sendable () -> Void) {
    begin(closure)
    DispatchQueue(label: "Understudy user code").async(execute: work)
  }

  /// Runs `work` as a detached task, which ``cancel()`` cancels.
  func runAsync(_ closure: Closure, _ work: @escaping @Sendable () async -> Void) {
    begin(closure)
    let task: Task<Void, Never>
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
      task = Task.detached(executorPreference: UserCodeExecutor.shared) { await work() }
    } else {
      task = Task.detached { await work() }
    }
    let cancelled = state.withLock { state -> Bool in
      state.task = task
      return state.cancelled
    }
    if cancelled { task.cancel() }
  }

  /// Notes that `closure` runs now: the first, or the next on the same thread (a responder after
  /// the custom matchers that chose its stub).
  func begin(_ closure: Closure) {
    state.withLock { state in
      state.closure = closure
      state.startedAt = Date()
    }
  }

  /// Notes that the closure returned.
  func end() {
    state.withLock { state in
      state.closure = nil
      state.task = nil
    }
  }

  /// The closure still running, with how long it has run; `nil` once it returned.
  var running: (closure: Closure, seconds: TimeInterval)? {
    state.withLock { state in
      state.closure.map { ($0, Date().timeIntervalSince(state.startedAt)) }
    }
  }

  /// Whether the closure running now is an async responder, which cancelling stops.
  var isAsync: Bool { state.withLock { $0.task != nil } }

  /// Cancels an async responder's task; a synchronous closure cannot be stopped and runs on.
  func cancel() {
    markCancelled()?.cancel()
  }

  /// Notes that the request ended, so what the closures decide is not used (a stub they choose
  /// is not used up by it); the async responder's task, to be cancelled where cancelling it
  /// cannot wait on the caller's queue.
  @discardableResult
  func markCancelled() -> Task<Void, Never>? {
    state.withLock { state in
      state.cancelled = true
      return state.task
    }
  }

  /// Whether the request ended while its closures ran.
  var isCancelled: Bool { state.withLock { $0.cancelled } }
}
