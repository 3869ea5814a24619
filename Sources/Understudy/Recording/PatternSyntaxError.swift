/// A JSON path or regular expression given to ``Redaction`` or ``CredentialScanner`` that
/// cannot be used.
///
/// Rules are checked when they are built, so a typo fails the test that configures recording
/// rather than silently redacting nothing.
public struct PatternSyntaxError: Error, CustomStringConvertible, Sendable, Hashable {
  /// The expression as given.
  public var expression: String
  /// What is wrong with it and how to write it instead.
  public var problem: String

  /// Creates an error.
  public init(expression: String, problem: String) {
    self.expression = expression
    self.problem = problem
  }

  /// `The pattern "…" cannot be used: …`.
  public var description: String {
    "The pattern \"\(expression)\" cannot be used: \(problem)"
  }
}

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
    regex.matches(in: text, range: NSRange(text.startIndex..., in: text))
  }

  /// Whether the expression matches all of `text`.
  func matchesWhole(_ text: String) -> Bool {
    let whole = NSRange(text.startIndex..., in: text)
    return regex.firstMatch(in: text, options: [.anchored], range: whole)?.range == whole
  }
}
