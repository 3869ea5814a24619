import Foundation

/// What differs between a recorded body and a live one, said so a person can act on it: the
/// JSON members that changed, or the first line that differs, or the first differing byte.
enum BodyDifference {
  /// How many JSON differences a report lists before it counts the rest.
  static let maximumListed = 5

  static func describe(recorded: Data, live: Data) -> String {
    let sizes = "\(recorded.count) bytes recorded, \(live.count) live"
    if let old = try? JSONValue(parsing: recorded), let new = try? JSONValue(parsing: live) {
      var differences: [String] = []
      collect(old, new, at: "$", into: &differences)
      guard !differences.isEmpty else { return "body (\(sizes))" }
      let listed = differences.prefix(maximumListed).joined(separator: ", ")
      let more = differences.count - maximumListed
      return "body (\(sizes)): \(listed)" + (more > 0 ? ", and \(more) more" : "")
    }
    if let old = String(data: recorded, encoding: .utf8),
      let new = String(data: live, encoding: .utf8)
    {
      let oldLines = old.split(separator: "\n", omittingEmptySubsequences: false)
      let newLines = new.split(separator: "\n", omittingEmptySubsequences: false)
      let index = firstDifference(oldLines, newLines)
      let before = index < oldLines.count ? excerpt(String(oldLines[index])) : "(no line)"
      let after = index < newLines.count ? excerpt(String(newLines[index])) : "(no line)"
      return "body (\(sizes)): line \(index + 1) \(before) → \(after)"
    }
    let index = firstDifference(Array(recorded), Array(live))
    return "body (\(sizes)): bytes differ from offset \(index)"
  }

  /// The first position where the two differ; the shorter's length when one is a prefix.
  private static func firstDifference<Element: Equatable>(_ a: [Element], _ b: [Element]) -> Int {
    zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
  }

  private static func collect(
    _ old: JSONValue, _ new: JSONValue, at path: String, into differences: inout [String]
  ) {
    guard old != new else { return }
    switch (old, new) {
    case (.object(let before), .object(let after)):
      for key in Set(before.keys).union(after.keys).sorted() {
        let member = path + member(key)
        switch (before[key], after[key]) {
        case (let value?, nil): differences.append("\(member) removed (was \(excerpt(value)))")
        case (nil, let value?): differences.append("\(member) added: \(excerpt(value))")
        case (let value?, let other?): collect(value, other, at: member, into: &differences)
        case (nil, nil): break
        }
      }
    case (.array(let before), .array(let after)) where before.count == after.count:
      for (index, pair) in zip(before, after).enumerated() {
        collect(pair.0, pair.1, at: "\(path)[\(index)]", into: &differences)
      }
    case (.array(let before), .array(let after)):
      differences.append("\(path) has \(after.count) elements, recorded \(before.count)")
    default:
      differences.append("\(path) \(excerpt(old)) → \(excerpt(new))")
    }
  }

  private static func member(_ key: String) -> String {
    let plain = key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && !key.isEmpty
    return plain ? ".\(key)" : "[\(JSONValue.string(key))]"
  }

  private static func excerpt(_ value: JSONValue) -> String { excerpt(value.description) }

  private static func excerpt(_ text: String, limit: Int = 60) -> String {
    text.count > limit ? String(text.prefix(limit)) + "…" : text
  }
}
