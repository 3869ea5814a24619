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

/// Runs `body` on a thread of its own and stops waiting after `seconds`, so an input that hangs
/// fails its own case with a sentence instead of stalling the whole run.
///
/// - Returns: What `body` returned, or `nil` after recording an issue when it ran too long. The
///   thread cannot be stopped; it keeps running until the test process exits.
func withWatchdog<Value: Sendable>(
  _ what: String, seconds: Double = 20,
  sourceLocation: Testing.SourceLocation = #_sourceLocation,
  _ body: @escaping @Sendable () -> Value
) async -> Value? {
  // Sanitizer runs are several times slower; the watchdog is for hangs, not for speed.
  let seconds = seconds * TestTiming.scale
  let value: Value? = await withCheckedContinuation { continuation in
    let resumed = Locked(false)
    let finish: @Sendable (Value?) -> Void = { value in
      let first = resumed.withLock { resumed in
        defer { resumed = true }
        return !resumed
      }
      if first { continuation.resume(returning: value) }
    }
    let thread = Thread { finish(body()) }
    // Decoders recurse once per nesting level; give them the main thread's room.
    thread.stackSize = 8 << 20
    thread.start()
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { finish(nil) }
  }
  if value == nil {
    Issue.record(
      "\(what) did not finish within \(seconds) s: bad input must fail fast, never hang",
      sourceLocation: sourceLocation)
  }
  return value
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
