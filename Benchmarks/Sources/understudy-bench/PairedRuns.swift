import Foundation

/// How many requests a timed run sends, and how many runs a comparison makes.
struct RunPlan: Sendable {
  /// Requests sent to each side before timing starts: first calls pay for lazy setup (protocol
  /// class registration, dictionary growth, page faults) that a test suite pays once.
  var warmUp: Int
  var requestsPerRun: Int
  /// Floor/Understudy pairs; the ratio reported is the median of the pairs' ratios.
  var pairs: Int
  /// Set for profiling (`--side`): only this side runs, so `perf stat`, `perf record` or
  /// callgrind see one side's work; the other side's column repeats it.
  var onlySide: Side? = nil

  enum Side: String, Sendable {
    case floor
    case understudy
  }
}

/// Timings of floor and Understudy runs taken alternately, and the ratio within each pair.
struct Comparison {
  /// Wall-clock microseconds per request of each floor run.
  let floor: Spread
  /// Wall-clock microseconds per request of each Understudy run.
  let subject: Spread
  /// Understudy over floor, wall clock, per adjacent pair.
  let ratio: Spread
  /// Understudy over floor in process CPU time (all threads), per pair: less sensitive to
  /// waiting for a CPU that a neighbour holds, so it shows whether a slow pair was the library.
  let cpuRatio: Spread
}

/// The cost of one timed run, per request.
private struct RunCost {
  let wallMicroseconds: Double
  let cpuMicroseconds: Double
}

enum PairedRuns {
  /// Times `floor` and `subject` alternately (F S, S F, F S, …) so slow drift of the machine's
  /// load hits both sides alike and neither always runs second; each pair gives one ratio.
  static func compare(floor: Workload, subject: Workload, plan: RunPlan) async throws
    -> Comparison
  {
    if let side = plan.onlySide {
      let workload = side == .floor ? floor : subject
      try await workload(plan.warmUp)
      var times: [Double] = []
      for _ in 0..<plan.pairs {
        times.append(try await cost(workload, plan.requestsPerRun, side.rawValue).wallMicroseconds)
      }
      return Comparison(
        floor: Spread(times), subject: Spread(times), ratio: Spread([1]), cpuRatio: Spread([1]))
    }
    try await floor(plan.warmUp)
    try await subject(plan.warmUp)
    var floorCosts: [RunCost] = []
    var subjectCosts: [RunCost] = []
    for pair in 0..<plan.pairs {
      if pair.isMultiple(of: 2) {
        floorCosts.append(try await cost(floor, plan.requestsPerRun, "floor"))
        subjectCosts.append(try await cost(subject, plan.requestsPerRun, "understudy"))
      } else {
        subjectCosts.append(try await cost(subject, plan.requestsPerRun, "understudy"))
        floorCosts.append(try await cost(floor, plan.requestsPerRun, "floor"))
      }
    }
    let pairs = zip(floorCosts, subjectCosts)
    return Comparison(
      floor: Spread(floorCosts.map(\.wallMicroseconds)),
      subject: Spread(subjectCosts.map(\.wallMicroseconds)),
      ratio: Spread(pairs.map { $1.wallMicroseconds / $0.wallMicroseconds }),
      cpuRatio: Spread(pairs.map { $1.cpuMicroseconds / $0.cpuMicroseconds }))
  }

  /// With UNDERSTUDY_BENCH_TRACE set, each timed run prints `run SIDE START END` (CLOCK_MONOTONIC
  /// nanoseconds) to standard error, so samples of `perf record -k CLOCK_MONOTONIC` over a paired
  /// run can be split into floor and Understudy profiles taken under the same load.
  private static let tracesRuns =
    ProcessInfo.processInfo.environment["UNDERSTUDY_BENCH_TRACE"] != nil

  /// Wall-clock and process CPU time per request of one run of `workload`.
  private static func cost(_ workload: Workload, _ requests: Int, _ side: String) async throws
    -> RunCost
  {
    let clock = ContinuousClock()
    let cpuBefore = processCPUNanoseconds()
    let start = monotonicNanoseconds()
    let elapsed = try await clock.measure { try await workload(requests) }
    if tracesRuns {
      FileHandle.standardError.write(Data("run \(side) \(start) \(monotonicNanoseconds())\n".utf8))
    }
    let cpu = Double(processCPUNanoseconds() - cpuBefore) / 1e3
    let (seconds, attoseconds) = elapsed.components
    let wall = Double(seconds) * 1e6 + Double(attoseconds) / 1e12
    return RunCost(
      wallMicroseconds: wall / Double(requests), cpuMicroseconds: cpu / Double(requests))
  }

  private static func processCPUNanoseconds() -> Int { nanoseconds(CLOCK_PROCESS_CPUTIME_ID) }

  private static func monotonicNanoseconds() -> Int { nanoseconds(CLOCK_MONOTONIC) }

  private static func nanoseconds(_ clock: clockid_t) -> Int {
    var time = timespec()
    clock_gettime(clock, &time)
    return time.tv_sec * 1_000_000_000 + time.tv_nsec
  }
}
