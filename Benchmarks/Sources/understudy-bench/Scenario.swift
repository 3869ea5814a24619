/// One measurement the benchmark can make; it builds its own registries and sessions so it can
/// run alone (`--only`).
struct Scenario: Sendable {
  let group: String
  let name: String
  /// Left out of `--ci` runs, which must finish in well under two minutes.
  var fullRunOnly = false
  let run: @Sendable (BenchmarkContext) async throws -> [Row]
}

/// What every scenario may look at.
struct BenchmarkContext: Sendable {
  let plan: RunPlan
  let isCI: Bool
  /// `--megabytes`: the body size of the `finish()` rows, which then run once each.
  var megabytes: Double? = nil
}
