/// The error ``StubRegistry/request(matching:timeout:fileID:filePath:line:column:)`` throws when
/// no matching request arrived in time.
///
/// Its description names the pattern, the time waited and the caller's line, and lists the
/// requests that came closest with the fields that differed. The wait ends early, with this
/// error, when the registry's test scope ends; and it never starts when the pattern has
/// ``RequestPattern/problems``, since such a pattern matches no request and waiting could only
/// time out: the description then names the problems.
public struct RequestWaitTimeout: Error, Sendable, CustomStringConvertible, LocalizedError {
  /// The pattern no request matched.
  package let pattern: RequestPattern
  /// How long the wait lasted.
  package let timeout: Duration
  /// Whether the wait ended early because the registry's test scope ended.
  package let scopeEnded: Bool
  /// Where the test waited.
  package let location: SourceLocation
  let closest: [String]
  /// The pattern's problems, when it could match nothing and so was not waited for.
  package var problems: [String] = []

  /// The failure, several lines: what was awaited, for how long, and what came closest; or, for
  /// an invalid pattern, the caller's line, each problem and the fix.
  public var description: String {
    guard problems.isEmpty else {
      return LogRedaction.mask(
        "Cannot wait for a request matching \(pattern) (awaited at \(location)): the pattern is "
          + "invalid: \(Self.clause(problems)). Correct the pattern; as written it "
          + "matches no request.", noting: true)
    }
    let why =
      scopeEnded
      ? "the registry's test scope ended first"
      : "none arrived within \(timeout)"
    return LogRedaction.mask(
      (["No request matching \(pattern) (awaited at \(location)): \(why)."] + closest)
        .joined(separator: "\n"), noting: true)
  }

  /// Same as ``description``.
  public var errorDescription: String? { description }

  /// The problems as one clause, for a sentence that goes on: their final periods dropped.
  static func clause(_ problems: [String]) -> String {
    problems.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }.joined(separator: "; ")
  }
}
