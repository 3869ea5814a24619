import Foundation

/// How fast this machine runs ordinary CPU work right now: Foundation's `JSONSerialization`
/// parsing a 5 MB prefix of ``ScanScenario``'s body, in megabytes per second of the parsing
/// thread's CPU time, best of two parses.
///
/// The scan rows are throughputs, and a shared machine's speed moves under them: a CI run on a
/// busy host measured every scan row 1.6x–2.2x slower than an idle run of the same commit, CPU
/// time included, and failed a limit that only a change in the code should fail. Measured just
/// before each of those rows, the gauge slows with them, so `--ci` judges a row's speed as a
/// multiple of the gauge's (see ``Bar/scanThroughput``) while the bar itself stays in MB/s.
struct SpeedGauge {
  private let document: Data

  /// Runs of a gauged row, CI's too, each after its own gauge reading; the best multiple
  /// counts. One run's multiple is too loose to gate on: five runs of `understudy redact` on
  /// one commit, one machine, idle, gave 1.15x, 1.18x, 1.73x, 2.03x and 2.57x, and the CI limit
  /// is 1.2x, so a single run failed CI at random. Three were not enough either: CI at 42dafe8
  /// measured `understudy scan` at 1.18x (43.3 MB/s, the gauge 36.7 MB/s), and a quiet re-run of
  /// the same binary minutes later 1.60x (37.1 MB/s, the gauge 23 MB/s).
  static let runs = 5

  /// A gauge over `megabytes` of the body (the `finish()` rows' floor parses their bodies' size).
  init(megabytes: Double = 5) {
    document = Data(ScanScenario.body(size: Int(megabytes * 1_000_000)).utf8)
  }

  /// Megabytes per CPU second of the best of two parses.
  func megabytesPerSecond() throws -> Double {
    var best = Double.infinity
    for _ in 0..<2 {
      let start = ThreadCPU.seconds
      try parse()
      best = min(best, ThreadCPU.seconds - start)
    }
    return Double(document.count) / 1_000_000 / best
  }

  /// One parse of the document.
  func parse() throws {
    // A parse that stopped early would make the machine look fast.
    guard try (JSONSerialization.jsonObject(with: document) as? [Any])?.isEmpty == false else {
      throw WrongAnswer(description: "the speed gauge's document did not parse to an array")
    }
  }
}
