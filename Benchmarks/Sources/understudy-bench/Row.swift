/// One line of the report: a scenario and what it measured.
struct Row: Codable, Sendable {
  enum Verdict: String, Codable, Sendable {
    case pass
    case fail
    /// Measured for information; no bar applies.
    case info
    case notAvailableYet = "not available yet"
  }

  let group: String
  let scenario: String
  /// Microseconds per request of the floor runs, for timed comparisons.
  var floorMicroseconds: Spread? = nil
  /// Microseconds per request of the Understudy runs, for timed comparisons.
  var understudyMicroseconds: Spread? = nil
  /// Understudy over floor per pair of runs, for timed comparisons.
  var ratio: Spread? = nil
  /// Understudy over floor in process CPU time per pair, for timed comparisons.
  var cpuRatio: Spread? = nil
  /// A single measured value (memory, a duration) and its unit, for everything else.
  var value: Double? = nil
  var unit: String? = nil
  var bar: Bar? = nil
  var verdict: Verdict = .info
  var note: String? = nil
  /// A throughput's best run as a multiple of ``SpeedGauge``'s speed measured just before it.
  var gaugeMultiple: Double? = nil

  /// What a bar is checked against: the median ratio, or the value.
  var checkedValue: Double? { ratio?.median ?? value }

  /// What `--ci` checks against the bar's CI limit: the multiple of the gauge for a throughput,
  /// since the machine's speed moves under it; otherwise the checked value.
  var ciCheckedValue: Double? { gaugeMultiple ?? checkedValue }

  /// The unit of ``ciCheckedValue``.
  var ciUnit: String { gaugeMultiple != nil || ratio != nil ? "x" : bar?.unit ?? "" }

  static func compared(
    _ group: String, _ scenario: String, _ comparison: Comparison, bar: Bar? = nil,
    note: String? = nil
  ) -> Row {
    var row = Row(group: group, scenario: scenario)
    row.floorMicroseconds = comparison.floor
    row.understudyMicroseconds = comparison.subject
    row.ratio = comparison.ratio
    row.cpuRatio = comparison.cpuRatio
    row.bar = bar
    row.note = note
    row.verdict = bar.map { $0.passes(comparison.ratio.median) ? .pass : .fail } ?? .info
    return row
  }

  static func measured(
    _ group: String, _ scenario: String, _ value: Double, unit: String, bar: Bar? = nil,
    note: String? = nil
  ) -> Row {
    var row = Row(group: group, scenario: scenario)
    row.value = value
    row.unit = unit
    row.bar = bar
    row.note = note
    row.verdict = bar.map { $0.passes(value) ? .pass : .fail } ?? .info
    return row
  }

  /// Megabytes per CPU second, and the same as a multiple of the speed gauge (in the note).
  static func throughput(
    _ group: String, _ scenario: String, _ megabytesPerSecond: Double, gaugeMultiple: Double,
    bar: Bar?, note: String
  ) -> Row {
    var row = measured(
      group, scenario, megabytesPerSecond, unit: "MB/s", bar: bar,
      note: note + "; \(Format.fixed(gaugeMultiple, 2))x the gauge's speed")
    row.gaugeMultiple = gaugeMultiple
    return row
  }

  static func notAvailableYet(_ group: String, _ scenario: String, bar: Bar?, reason: String)
    -> Row
  {
    var row = Row(group: group, scenario: scenario)
    row.bar = bar
    row.verdict = .notAvailableYet
    row.note = reason
    return row
  }
}
