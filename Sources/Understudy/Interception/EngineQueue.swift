import Dispatch

/// Where the engine runs its timers and its hops off the work queue.
///
/// Not `DispatchQueue.global()`: on Linux its pool has about as many threads as cores and adds
/// more only slowly when they block, so a test elsewhere in the process that blocks a few global
/// threads (a semaphore, a child process, a slow file) held delayed answers and timeouts back
/// for seconds, and past 30 s on a loaded machine. A queue made with a label is serial and
/// overcommitting: libdispatch gives it a thread even when every other thread is blocked. Each
/// hop gets a queue of its own (a few hundred bytes), so one slow hop never delays another.
enum EngineQueue {
  /// Runs `work` soon, on a thread that blocked threads elsewhere cannot hold back.
  static func async(_ work: @escaping @Sendable () -> Void) {
    DispatchQueue(label: "Understudy engine").async(execute: work)
  }

  /// Runs `work` after every wake handed here before it, on one thread.
  ///
  /// A wake waits in `URLSessionTask.suspend()` until the work queue takes it, and every
  /// session's work queue targets one serial queue: wakes run one at a time there whatever
  /// queue they come from. Given a queue each, a burst of delayed answers due at once (800
  /// requests) took a thread each while they waited, libdispatch stopped at its limit of about
  /// 255, and the work queue itself got no thread: every session in the process hung for good.
  static func inTurn(_ work: @escaping @Sendable () -> Void) {
    wakes.async(execute: work)
  }

  private static let wakes = DispatchQueue(label: "Understudy wakes")

  /// Runs `work` after `seconds`, on such a thread.
  static func after(_ seconds: TimeInterval, _ work: @escaping @Sendable () -> Void) {
    DispatchQueue(label: "Understudy timer").asyncAfter(deadline: .now() + seconds, execute: work)
  }

  /// Runs `item` after `seconds`, on such a thread; cancelling the item stops it.
  static func after(_ seconds: TimeInterval, execute item: DispatchWorkItem) {
    DispatchQueue(label: "Understudy timer").asyncAfter(deadline: .now() + seconds, execute: item)
  }
}
