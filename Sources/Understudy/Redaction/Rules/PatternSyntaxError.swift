/// A JSON path or regular expression given to ``Redaction`` or ``CredentialScanner`` that
/// cannot be used.
///
/// Rules are checked when they are built, so a typo fails the test that configures recording
/// rather than silently redacting nothing.
public struct PatternSyntaxError: Error, CustomStringConvertible, Sendable, Hashable {
  /// The expression as given.
  package var expression: String
  /// What is wrong with it and how to write it instead.
  package var problem: String

  /// Creates an error.
  package init(expression: String, problem: String) {
    self.expression = expression
    self.problem = problem
  }

  /// `The pattern "…" cannot be used: …`.
  public var description: String {
    "The pattern \"\(expression)\" cannot be used: \(problem)"
  }
}
