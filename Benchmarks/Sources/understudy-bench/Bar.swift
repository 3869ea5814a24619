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

  /// Per-request cost with one stub: at most 1.05x the floor; CI fails above 1.5x. In the debug
  /// build `swift test` compiles (issue 41): at most 1.2x, CI fails above 1.8x.
  static let oneStub = build(
    release: Bar(comparison: .atMost, limit: 1.05, unit: "x", ciLimit: 1.5),
    debug: Bar(comparison: .atMost, limit: 1.2, unit: "x", ciLimit: 1.8))
  /// 10,000 exact-route stubs: at most 1.10x the floor; CI fails above 1.5x (an unindexed lookup
  /// would be hundreds of times the floor). Debug: at most 1.2x, CI fails above 2.5x: on one
  /// commit (2026-12-06) its wall-clock ratio read 1.57x–2.31x from run to run on this machine
  /// while its instructions read 1.40x (`instruction-ratios.py --debug`), so 1.8x failed CI on
  /// noise; an unindexed lookup would still be far past 2.5x.
  static let manyExactStubs = build(
    release: Bar(comparison: .atMost, limit: 1.10, unit: "x", ciLimit: 1.5),
    debug: Bar(comparison: .atMost, limit: 1.2, unit: "x", ciLimit: 2.5))
  /// A responder closure against the same answer from a plain stub, release and debug (issue
  /// 41): within 1.5x; CI fails above 2.5x (the hop back through suspend/resume was 5.85x).
  static let responder = Bar(comparison: .atMost, limit: 1.5, unit: "x", ciLimit: 2.5)
  /// 1,000 path templates of any shape (issue 17): within 1.2x of the floor; CI fails above
  /// 1.6x (trying every template was 6.6x-38x).
  static let templates = Bar(comparison: .atMost, limit: 1.20, unit: "x", ciLimit: 1.6)
  /// A test's scope with one stub and one request, through the `.stubs` trait or `withStubs`
  /// (issue 17): within 1.2x of a scope that makes and invalidates a session with the trivial
  /// protocol. CI only reports it: its first wall-clock runs (1.5x-1.8x at load 12) sat far
  /// above its instruction count (1.2x), for a reason not yet found.
  static let scopes = build(
    release: Bar(comparison: .atMost, limit: 1.20, unit: "x", ciLimit: nil),
    debug: Bar(comparison: .atMost, limit: 1.3, unit: "x", ciLimit: nil))
  /// Eight stubs on one route told apart by header, header regex and JSON subset (issue 17):
  /// within 1.15x of the floor. CI judges it on instructions (instruction-ratios.py); the wall
  /// clock only reports it, since its runs on a loaded machine sit well above that count.
  static let predicates = build(
    release: Bar(comparison: .atMost, limit: 1.15, unit: "x", ciLimit: nil),
    debug: Bar(comparison: .atMost, limit: 1.5, unit: "x", ciLimit: nil))
  /// 64 requests in flight: within 1.2x of the floor at 64 in flight; CI fails above 1.6x.
  static let inFlight = Bar(comparison: .atMost, limit: 1.20, unit: "x", ciLimit: 1.6)
  /// Replay of 10,000 entries against one entry; CI fails above 1.5x.
  static let replayFlat = Bar(comparison: .atMost, limit: 1.10, unit: "x", ciLimit: 1.5)
  /// Loading a 10,000-entry cassette, in seconds of the loading thread's CPU time: under 0.15 s
  /// (issue 17); CI fails above 0.3 s (it took 0.05 s; decoding every body again took 0.5 s).
  /// Debug build: under 0.5 s (issue 41); it takes 0.75–1.1 s (quiet machine, 2026-12-06, the
  /// same commit), so CI fails above 2 s: a CPU-time limit must sit beyond the machine's noise.
  static let cassetteLoad = build(
    release: Bar(comparison: .below, limit: 0.15, unit: " s", ciLimit: 0.3),
    debug: Bar(comparison: .below, limit: 0.5, unit: " s", ciLimit: 2))
  /// `finish()` of a recording with a 10 MB body, in seconds of CPU time: under 0.5 s in the
  /// debug build (20 MB/s, issue 41), under 0.25 s in release; CI fails release above 0.5 s.
  /// The debug build is past its bar (1.7–2.4 s on 2026-12-06) and its CPU time moved 40%
  /// between hours of one day here, which failed CI at 2.79 s against a limit of 2.5 s: CI
  /// gates its instruction count per megabyte instead (`BYTE_ROWS` in
  /// Benchmarks/Tools/instruction-ratios.py), and this row is reported.
  static let finishTenMegabytes = build(
    release: Bar(comparison: .below, limit: 0.25, unit: " s", ciLimit: 0.5),
    debug: Bar(comparison: .below, limit: 0.5, unit: " s", ciLimit: nil))
  /// `finish()` of a recording whose requests sent 2,000 passwords, each echoed in responses of
  /// 45 MB in all, in seconds of CPU time. Searched once per spelling (44,000 of them) it took
  /// 100 s in the debug build; one pass per text (NeedleSet), two passes a body, short needles
  /// found from a rare byte by `memchr`, take 0.9 s in release (8.2 billion instructions) and
  /// 4.4–6.9 s in debug (2026-12-06). Bars: under 1 s in either build. CI fails release when
  /// it takes more than 1.5x the time ``SpeedGauge`` takes to parse as many megabytes of JSON
  /// (0.77x on 2026-12-07; the old limit, 2 s, failed at random once the machine slowed), and
  /// gates the debug build by instruction counts, as the row above.
  static let finishManySecrets = build(
    release: Bar(comparison: .below, limit: 1, unit: " s", ciLimit: 1.5),
    debug: Bar(comparison: .below, limit: 1, unit: " s", ciLimit: nil))
  /// A traffic attachment or a near-miss report of a 1 MB body, in seconds of CPU time: under
  /// 0.1 s in either build (issue 41: a report shows 16 KiB of a body and reads little more);
  /// CI fails above 0.3 s: the near-miss row, whose process CPU time counts URLSession's threads
  /// too, took 0.09–0.16 s, best of three, on a quiet machine (2026-12-06).
  static let reportOfOneMegabyte = Bar(comparison: .below, limit: 0.1, unit: " s", ciLimit: 0.3)

  /// Whether this is the debug build, whose rows `swift test` users pay.
  static var isDebugBuild: Bool {
    #if DEBUG
      return true
    #else
      return false
    #endif
  }

  /// The bar for the build this benchmark was compiled as.
  private static func build(release: Bar, debug: Bar) -> Bar {
    isDebugBuild ? debug : release
  }
  /// A 1 GiB fixture streamed to a delegate: peak RSS above the baseline, in MiB.
  static let fixturePeak = Bar(comparison: .below, limit: 64, unit: " MiB", ciLimit: nil)
  /// Credential scan throughput on a 50 MB body, in MB/s (issue 12: at least 50). CI judges it
  /// as a multiple of ``SpeedGauge``'s speed measured just before, since a busy host slowed these
  /// rows' CPU time 1.6x-2.2x (40 MB/s, this limit's old form, failed a commit that passes
  /// at 72-83 MB/s here): it fails below 1.2x the gauge. The slowest row runs at 2.0x-2.6x (the
  /// gauge parses at about 33 MB/s here), and a second parse of the whole file, which once ran
  /// `scan` at 39 MB/s, halves that.
  ///
  /// 2026-12-02 to 12-06 this row ran at 31-40 MB/s: a redaction rule's "does the body hold a
  /// `-` at all?" test was Foundation's `contains`, which copies the whole body to UTF-16 on
  /// Linux, so a body lacking the character paid 0.5 s. Every such test is a `memmem` now
  /// (`contains(bytes:)`).
  static let scanThroughput = Bar(comparison: .atLeast, limit: 50, unit: " MB/s", ciLimit: 1.2)
  /// An `understudy` command on a 50 MB body, in MB/s (issue 15: at least 50); CI fails below
  /// 1.2x the gauge's speed, as for `scan`.
  static let commandLineThroughput = Bar(
    comparison: .atLeast, limit: 50, unit: " MB/s", ciLimit: 1.2)
  static let noGrowth = Bar(comparison: .below, limit: 4, unit: " MiB", ciLimit: nil)
}
