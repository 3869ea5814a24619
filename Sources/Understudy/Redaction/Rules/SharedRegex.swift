/// A compiled regular expression that can cross concurrency domains.
///
/// `@unchecked` because `NSRegularExpression` is immutable and documented as thread-safe, but
/// not every SDK we support marks it `Sendable`.
struct SharedRegex: @unchecked Sendable, Hashable {
  let pattern: String
  let regex: NSRegularExpression

  init(_ pattern: String) throws(PatternSyntaxError) {
    do {
      regex = try NSRegularExpression(pattern: pattern)
    } catch {
      throw PatternSyntaxError(
        expression: pattern,
        problem: "it is not a valid regular expression; balance its brackets and escape "
          + "literal characters such as ( [ { . * + ? with \\.")
    }
    self.pattern = pattern
  }

  /// Compiles an expression written in this library's source; a failure is a bug here.
  init(literal pattern: String) {
    self.pattern = pattern
    regex = try! NSRegularExpression(pattern: pattern)
  }

  static func == (lhs: SharedRegex, rhs: SharedRegex) -> Bool { lhs.pattern == rhs.pattern }

  func hash(into hasher: inout Hasher) { hasher.combine(pattern) }

  func matches(in text: String) -> [NSTextCheckingResult] {
    matches(in: text, within: text.startIndex..<text.endIndex)
  }

  /// The matches inside `range` of `text`; their ranges are `text`'s.
  func matches(in text: String, within range: Range<String.Index>) -> [NSTextCheckingResult] {
    regex.matches(in: text, range: NSRange(range, in: text))
  }

  /// Whether the expression matches all of `text`.
  func matchesWhole(_ text: String) -> Bool {
    let whole = NSRange(text.startIndex..., in: text)
    return regex.firstMatch(in: text, options: [.anchored], range: whole)?.range == whole
  }
}
