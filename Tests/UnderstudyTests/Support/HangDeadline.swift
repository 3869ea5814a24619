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
/// All of that lateness counts, however much it is. Swift Testing starts every test at once, and
/// tests that compute for seconds without suspending fill the line at the start of a run: in
/// CI's busy step one wake-up waited 250 s, and what the test waited for (a request's task,
/// then the signal it sends) waited in the same line. Counted up to four budgets only, those
/// waits failed with requests that were never late (`EndedRequestTests`, `SessionReleaseTests`).
/// A real hang still ends the wait: once the line is short the waiter wakes on time and the
/// budget runs out; CI's 15-minute limit on the whole run is the backstop.
///
/// Some waits are not in that line: the engine's work waits on FoundationNetworking's one serial
/// queue and for a core, while the waiter wakes on time. Beside two busy loops and two builds
/// (load 11 on 2 cores), a request took over 20 s to reach its stub. So the budget also grows
/// with the load the machine is under (``TestTiming/loadFactor()``), read again as the wait goes
/// on: the load average trails a load that has just begun by a minute, and a suite started beside
/// a build read 1 at its first tests, then waited behind a load of 6 with a budget sized for none
/// (five tests that time a request out hit their 150 s ceiling together).
struct HangDeadline {
  private let start = Date()
  /// The budget before the load is counted.
  private let base: TimeInterval
  /// The highest load factor seen so far: the budget never shrinks while a wait goes on.
  private var factor: Double
  private var loadReadAt = Date()
  private let load: @Sendable () -> Double
  private let rereadAfter: TimeInterval
  /// How much later than asked the waiter's own wake-ups came, in all.
  private var lateness: TimeInterval = 0

  /// A deadline `seconds` from now, stretched by `TestTiming.scale` and the machine's load,
  /// which `load` reads again each time `rereadAfter` seconds have passed.
  init(
    seconds: TimeInterval, load: @escaping @Sendable () -> Double = TestTiming.loadFactor,
    rereadAfter: TimeInterval = 1
  ) {
    base = seconds * TestTiming.scale
    self.load = load
    self.rereadAfter = rereadAfter
    factor = load()
  }

  /// The budget as it stands: the base stretched by the load.
  var seconds: TimeInterval { base * factor }

  var hasPassed: Bool {
    Date().timeIntervalSince(start) > seconds + lateness
  }

  /// Sleeps `nanoseconds`, and moves the deadline on by however much later than that it woke.
  mutating func pause(nanoseconds: UInt64) async throws {
    let asked = Double(nanoseconds) / 1e9
    let before = Date()
    try await Task.sleep(nanoseconds: nanoseconds)
    let now = Date()
    // A few milliseconds late is the timer's own slack, not a line to wait in.
    let late = now.timeIntervalSince(before) - asked
    if late > 0.01 { lateness += late }
    if now.timeIntervalSince(loadReadAt) >= rereadAfter {
      loadReadAt = now
      factor = max(factor, load())
    }
  }
}
