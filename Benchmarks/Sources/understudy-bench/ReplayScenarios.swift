/// Replay from HAR cassettes: per-request cost at 1, 1,000 and 10,000 entries, and the time to
/// load the largest.
///
/// Record and replay are not merged yet (no `Cassette` API in Sources/Understudy), so these rows
/// say so rather than measure something else. When the API lands, replace `pending` with
/// scenarios that write a cassette of N entries to a temp file, load it (timed, for the load
/// row), and compare sequential requests for the last entry against the floor; the flatness bar
/// is the 10,000-entry ratio over the 1-entry ratio.
enum ReplayScenarios {
  static let group = "replay"

  static var all: [Scenario] {
    [
      Scenario(group: group, name: "replay") { _ in
        [
          pending("replay, cassette of 1 entry", bar: nil),
          pending("replay, cassette of 1,000 entries", bar: nil),
          pending("replay, cassette of 10,000 entries (vs 1 entry)", bar: .replayFlat),
          pending("load a 10,000-entry cassette", bar: .cassetteLoad),
        ]
      }
    ]
  }

  private static func pending(_ scenario: String, bar: Bar?) -> Row {
    .notAvailableYet(
      group, scenario, bar: bar, reason: "record/replay is not merged yet")
  }
}
