/// How old a cassette's recordings are, as reports say it: drift checks and miss reports name
/// it, so a reader can tell a stale recording from a changed server.
enum CassetteAge {
  /// `"recorded 40 days ago"`, or `"recorded between 40 days ago and today"` when the entries span
  /// days; `nil` without entries.
  static func describe(_ dates: [Date], now: Date = Date()) -> String? {
    guard let oldest = dates.min(), let newest = dates.max() else { return nil }
    let old = days(from: oldest, to: now)
    let new = days(from: newest, to: now)
    return old == new
      ? "recorded \(phrase(old))" : "recorded between \(phrase(old)) and \(phrase(new))"
  }

  private static func days(from date: Date, to now: Date) -> Int {
    max(0, Int(now.timeIntervalSince(date) / 86_400))
  }

  private static func phrase(_ days: Int) -> String {
    switch days {
    case 0: return "today"
    case 1: return "1 day ago"
    default: return "\(days) days ago"
    }
  }
}
