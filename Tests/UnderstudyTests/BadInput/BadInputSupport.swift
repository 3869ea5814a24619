import Foundation
import Testing

@testable import Understudy

/// The package's `Fixtures/BadInput` folder, beside `Fixtures/HAR`.
enum BadInputFixtures {
  static let directory = HARFixtures.directory.deletingLastPathComponent()
    .appendingPathComponent("BadInput")

  static func url(_ relativePath: String) -> URL {
    directory.appendingPathComponent(relativePath)
  }

  /// The text of a one-expression file, exactly as written (no trailing newline is added).
  static func expression(_ name: String) throws -> String {
    try String(contentsOf: url("patterns/\(name)"), encoding: .utf8)
  }

  /// The files of one folder, sorted.
  static func files(in folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: url(folder).path).sorted()
  }
}

/// Runs `body` on a thread of its own and stops waiting once it has used `seconds` of CPU time,
/// so an input that hangs fails its own case with a sentence instead of stalling the whole run.
///
/// CPU time, not the wall clock: on a busy machine (a CI host, five builds beside the suite)
/// `body` gets a fraction of a core, and 20 s of wall time held 6 s of CPU work at load 6 (issue
/// 41). A body that blocks uses no CPU, so the wall clock still stops it, at ten times `seconds`.
///
/// - Returns: What `body` returned, or `nil` after recording an issue when it ran too long. The
///   thread cannot be stopped; it keeps running until the test process exits.
func withWatchdog<Value: Sendable>(
  _ what: String, seconds: Double = 20,
  sourceLocation: Testing.SourceLocation = #_sourceLocation,
  _ body: @escaping @Sendable () -> Value
) async -> Value? {
  // Sanitizer runs are several times slower; the watchdog is for hangs, not for speed.
  let budget = seconds * TestTiming.scale
  let outcome = Locked<Value??>(nil)
  let clock = Locked<clockid_t?>(nil)
  let thread = Thread {
    var id = clockid_t()
    if pthread_getcpuclockid(pthread_self(), &id) == 0 { clock.withLock { $0 = id } }
    let value = body()
    outcome.withLock { $0 = .some(value) }
  }
  // Decoders recurse once per nesting level; give them the main thread's room.
  thread.stackSize = 8 << 20
  thread.start()
  var wall = HangDeadline(seconds: seconds * 10)
  while true {
    if let value = outcome.current { return value }
    if let id = clock.current, WatchdogClock.seconds(of: id) > budget { break }
    if wall.hasPassed { break }
    try? await wall.pause(nanoseconds: 5_000_000)
  }
  // It may have finished while the clocks were read.
  if let value = outcome.current { return value }
  Issue.record(
    "\(what) did not finish within \(budget) s of CPU time: bad input must fail fast, never hang",
    sourceLocation: sourceLocation)
  return nil
}

/// CPU time of a thread, read from its clock.
enum WatchdogClock {
  static func seconds(of clock: clockid_t) -> Double {
    var time = timespec()
    guard clock_gettime(clock, &time) == 0 else { return 0 }
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}

/// What loading a cassette gave: the error, or how many entries it held.
enum LoadOutcome: Sendable {
  case failed(CassetteError)
  case loaded(HAR)

  init(_ load: () throws(CassetteError) -> HAR) {
    do {
      self = .loaded(try load())
    } catch {
      self = .failed(error)
    }
  }

  var error: CassetteError? {
    if case .failed(let error) = self { return error }
    return nil
  }

  var har: HAR? {
    if case .loaded(let har) = self { return har }
    return nil
  }
}

/// Checks the parts every cassette error shares: it starts with the file and the line and
/// column when known, names the JSON path when known, and reads as sentences.
func expectWellFormed(
  _ error: CassetteError, file: String,
  sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  #expect(error.file == file, sourceLocation: sourceLocation)
  var location = file
  if let line = error.line, let column = error.column { location += ":\(line):\(column)" }
  if let path = error.jsonPath { location += ": \(path)" }
  #expect(error.description.hasPrefix(location + ": "), sourceLocation: sourceLocation)
  #expect(error.description.hasSuffix("."), sourceLocation: sourceLocation)
  #expect(
    !error.description.contains(".. "), "a sentence ends twice", sourceLocation: sourceLocation)
  #expect(!error.fix.isEmpty, sourceLocation: sourceLocation)
}
