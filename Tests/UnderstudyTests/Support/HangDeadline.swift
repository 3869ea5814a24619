import Foundation

/// The end of a wait for a possible hang, counted in time the waiting test could run.
///
/// Swift Testing runs every test at once on an executor with as many threads as the machine has
/// cores, and each `await` goes to the back of the line of every other test's work. On a quiet
/// 2-core machine a test can wait 15 s for its turn; when other processes share the CPU, 45 s.
/// A watchdog that counted that wait as the engine's time failed tests whose requests were
/// never even started. The deadline moves on by however long each of the waiter's own wake-ups
/// waited in that line, which every other step of the test waits in too.
///
/// The deadline moves at most to five times the budget: a sanitizer makes every wake-up late,
/// and counting all of that pushed a 6 s wait for a hang past a minute. A real hang still ends
/// the wait.
///
/// Some waits are not in that line: the engine's work waits on FoundationNetworking's one serial
/// queue and for a core, while the waiter wakes on time. Beside two busy loops and two builds
/// (load 11 on 2 cores), a request took over 20 s to reach its stub. So the budget also grows
/// with the load the machine is under when the wait starts (``TestTiming/loadFactor()``).
struct HangDeadline {
  private var end: Date
  private let latest: Date
  let seconds: TimeInterval

  /// A deadline `seconds` from now, stretched by `TestTiming.scale` and the machine's load.
  init(seconds: TimeInterval) {
    self.seconds = seconds * TestTiming.scale * TestTiming.loadFactor()
    end = Date().addingTimeInterval(self.seconds)
    latest = Date().addingTimeInterval(self.seconds * 5)
  }

  var hasPassed: Bool { Date() > end }

  /// Sleeps `nanoseconds`, and moves the deadline on by however much later than that it woke.
  mutating func pause(nanoseconds: UInt64) async throws {
    let asked = Double(nanoseconds) / 1e9
    let before = Date()
    try await Task.sleep(nanoseconds: nanoseconds)
    // A few milliseconds late is the timer's own slack, not a line to wait in.
    let late = Date().timeIntervalSince(before) - asked
    if late > 0.01 { end = min(end.addingTimeInterval(late), latest) }
  }
}
