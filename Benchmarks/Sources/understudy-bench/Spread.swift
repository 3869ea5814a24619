/// The middle and the spread of a handful of samples.
///
/// The benchmark reports medians because a shared machine adds one-sided noise (a run can only be
/// slowed down by a neighbour's build, never sped up), and the quartiles and extremes so a reader
/// can see how much to trust the median.
struct Spread: Codable, Sendable {
  let median: Double
  let lowerQuartile: Double
  let upperQuartile: Double
  let min: Double
  let max: Double
  let samples: [Double]

  init(_ samples: [Double]) {
    precondition(!samples.isEmpty, "a spread needs at least one sample")
    let sorted = samples.sorted()
    self.samples = samples
    self.min = sorted.first!
    self.max = sorted.last!
    self.median = Self.quantile(sorted, 0.5)
    self.lowerQuartile = Self.quantile(sorted, 0.25)
    self.upperQuartile = Self.quantile(sorted, 0.75)
  }

  /// Linear interpolation between the closest ranks.
  private static func quantile(_ sorted: [Double], _ q: Double) -> Double {
    let position = q * Double(sorted.count - 1)
    let below = Int(position.rounded(.down))
    let above = Swift.min(below + 1, sorted.count - 1)
    let fraction = position - Double(below)
    return sorted[below] + (sorted[above] - sorted[below]) * fraction
  }
}
