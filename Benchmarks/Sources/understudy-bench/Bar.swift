/// A target from DESIGN.md ("Bars we aim for"), and the wider margin the CI mode enforces.
///
/// CI gates on ratios only, never on absolute times, and only when a ratio is far past its bar:
/// on a shared 2-core machine a neighbour's build can slow one run of a pair by tens of percent.
/// Medians of the CI mode were 0.96x–1.13x for the stub rows on a loaded development machine
/// (load average 1.5–2), and load has been seen to inflate them by about a third, so the limits
/// sit at 1.5x (1.6x in flight): they catch a lost index, a URL cache left on, a blocking call or
/// a hot path that falls back to unspecialised generic code (1.3x–1000x), not a few percent.
struct Bar: Codable, Sendable {
  enum Comparison: String, Codable, Sendable {
    case atMost = "≤"
    case below = "<"
    case atLeast = "≥"
  }

  let comparison: Comparison
  let limit: Double
  let unit: String
  /// The value past which `--ci` fails (above it, or below it for an `≥` bar); `nil` when CI
  /// only reports this row.
  let ciLimit: Double?

  func passes(_ value: Double) -> Bool {
    switch comparison {
    case .atMost: return value <= limit
    case .below: return value < limit
    case .atLeast: return value >= limit
    }
  }

  func breaksCI(_ value: Double) -> Bool {
    guard let ciLimit else { return false }
    return comparison == .atLeast ? value < ciLimit : value > ciLimit
  }

  var text: String { "\(comparison.rawValue) \(Format.number(limit))\(unit)" }

  /// Per-request cost with one stub: at most 1.05x the floor; CI fails above 1.5x.
  static let oneStub = Bar(comparison: .atMost, limit: 1.05, unit: "x", ciLimit: 1.5)
  /// 10,000 exact-route stubs: at most 1.10x the floor; CI fails above 1.5x (an unindexed lookup
  /// would be hundreds of times the floor).
  static let manyExactStubs = Bar(comparison: .atMost, limit: 1.10, unit: "x", ciLimit: 1.5)
  /// 1,000 path templates of any shape (issue 17): within 1.2x of the floor; CI fails above
  /// 1.6x (trying every template was 6.6x-38x).
  static let templates = Bar(comparison: .atMost, limit: 1.20, unit: "x", ciLimit: 1.6)
  /// A test's scope with one stub and one request, through the `.stubs` trait or `withStubs`
  /// (issue 17): within 1.2x of a scope that makes and invalidates a session with the trivial
  /// protocol. CI only reports it: its first wall-clock runs (1.5x-1.8x at load 12) sat far
  /// above its instruction count (1.2x), for a reason not yet found.
  static let scopes = Bar(comparison: .atMost, limit: 1.20, unit: "x", ciLimit: nil)
  /// Eight stubs on one route told apart by header, header regex and JSON subset (issue 17):
  /// within 1.15x of the floor. CI judges it on instructions (instruction-ratios.py); the wall
  /// clock only reports it, since its runs on a loaded machine sit well above that count.
  static let predicates = Bar(comparison: .atMost, limit: 1.15, unit: "x", ciLimit: nil)
  /// 64 requests in flight: within 1.2x of the floor at 64 in flight; CI fails above 1.6x.
  static let inFlight = Bar(comparison: .atMost, limit: 1.20, unit: "x", ciLimit: 1.6)
  /// Replay of 10,000 entries against one entry; CI fails above 1.5x.
  static let replayFlat = Bar(comparison: .atMost, limit: 1.10, unit: "x", ciLimit: 1.5)
  /// Loading a 10,000-entry cassette, in seconds of the loading thread's CPU time: under 0.15 s
  /// (issue 17); CI fails above 0.3 s (it took 0.05 s; decoding every body again took 0.5 s).
  static let cassetteLoad = Bar(comparison: .below, limit: 0.15, unit: " s", ciLimit: 0.3)
  /// A 1 GiB fixture streamed to a delegate: peak RSS above the baseline, in MiB.
  static let fixturePeak = Bar(comparison: .below, limit: 64, unit: " MiB", ciLimit: nil)
  /// Credential scan throughput on a 50 MB body, in MB/s (issue 12: at least 50). CI judges it
  /// as a multiple of ``SpeedGauge``'s speed measured just before, since a busy host slowed these
  /// rows' CPU time 1.6x-2.2x (40 MB/s, this limit's old form, failed a commit that passes
  /// at 72-83 MB/s here): it fails below 1.2x the gauge. The slowest row runs at 2.0x-2.6x (the
  /// gauge parses at about 33 MB/s here), and a second parse of the whole file, which once ran
  /// `scan` at 39 MB/s, halves that.
  static let scanThroughput = Bar(comparison: .atLeast, limit: 50, unit: " MB/s", ciLimit: 1.2)
  /// An `understudy` command on a 50 MB body, in MB/s (issue 15: at least 50); CI fails below
  /// 1.2x the gauge's speed, as for `scan`.
  static let commandLineThroughput = Bar(
    comparison: .atLeast, limit: 50, unit: " MB/s", ciLimit: 1.2)
  /// Growth of RSS over 100,000 requests, in MiB; "no growth" allows allocator noise of a few
  /// MiB, far below the ~50 MiB that keeping each request would cost.
  static let noGrowth = Bar(comparison: .below, limit: 4, unit: " MiB", ciLimit: nil)
}
