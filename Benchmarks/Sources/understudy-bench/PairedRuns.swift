/// How many requests a timed run sends, and how many runs a comparison makes.
struct RunPlan: Sendable {
  /// Requests sent to each side before timing starts: first calls pay for lazy setup (protocol
  /// class registration, dictionary growth, page faults) that a test suite pays once.
  var warmUp: Int
  var requestsPerRun: Int
  /// Floor/Understudy pairs; the ratio reported is the median of the pairs' ratios.
  var pairs: Int
}

/// Timings of floor and Understudy runs taken alternately, and the ratio within each pair.
struct Comparison {
  /// Microseconds per request of each floor run.
  let floor: Spread
  /// Microseconds per request of each Understudy run.
  let subject: Spread
  /// Understudy over floor, per adjacent pair.
  let ratio: Spread
}

enum PairedRuns {
  /// Times `floor` and `subject` alternately (F S, S F, F S, …) so slow drift of the machine's
  /// load hits both sides alike and neither always runs second; each pair gives one ratio.
  static func compare(floor: Workload, subject: Workload, plan: RunPlan) async throws
    -> Comparison
  {
    try await floor(plan.warmUp)
    try await subject(plan.warmUp)
    var floorTimes: [Double] = []
    var subjectTimes: [Double] = []
    var ratios: [Double] = []
    for pair in 0..<plan.pairs {
      let floorTime: Double
      let subjectTime: Double
      if pair.isMultiple(of: 2) {
        floorTime = try await time(floor, plan.requestsPerRun)
        subjectTime = try await time(subject, plan.requestsPerRun)
      } else {
        subjectTime = try await time(subject, plan.requestsPerRun)
        floorTime = try await time(floor, plan.requestsPerRun)
      }
      floorTimes.append(floorTime)
      subjectTimes.append(subjectTime)
      ratios.append(subjectTime / floorTime)
    }
    return Comparison(
      floor: Spread(floorTimes), subject: Spread(subjectTimes), ratio: Spread(ratios))
  }

  /// Microseconds per request of one run of `workload`.
  static func time(_ workload: Workload, _ requests: Int) async throws -> Double {
    let clock = ContinuousClock()
    let elapsed = try await clock.measure { try await workload(requests) }
    let (seconds, attoseconds) = elapsed.components
    return (Double(seconds) * 1e6 + Double(attoseconds) / 1e12) / Double(requests)
  }
}
