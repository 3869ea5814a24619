import Foundation

/// Where a live body departs from the recorded one, said so a person can act on it: the first
/// JSON value that differs (by its JSON path), or the first line that differs, or the first
/// differing byte.
enum BodyDifference {
  static func describe(recorded: Data, live: Data) -> String {
    let sizes = "body (\(recorded.count) bytes recorded, \(live.count) live)"
    if let old = try? JSONValue(parsing: recorded), let new = try? JSONValue(parsing: live) {
      // The recording is what replay would answer, so it is the expected side.
      guard let first = JSONDifference(mode: .equal).find(expected: old, actual: new) else {
        return sizes
      }
      return "\(sizes), first difference \(first)"
    }
    if let old = String(data: recorded, encoding: .utf8),
      let new = String(data: live, encoding: .utf8)
    {
      let oldLines = old.split(separator: "\n", omittingEmptySubsequences: false)
      let newLines = new.split(separator: "\n", omittingEmptySubsequences: false)
      let index = firstDifference(oldLines, newLines)
      let before = index < oldLines.count ? oldLines[index].quoted(limit: 60) : "no line"
      let after = index < newLines.count ? newLines[index].quoted(limit: 60) : "no line"
      return "\(sizes), first difference at line \(index + 1): expected \(before), got \(after)"
    }
    return "\(sizes), first difference at byte \(firstDifference(Array(recorded), Array(live)))"
  }

  /// The first position where the two differ; the shorter's length when one is a prefix.
  private static func firstDifference<Element: Equatable>(_ a: [Element], _ b: [Element]) -> Int {
    zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
  }
}
