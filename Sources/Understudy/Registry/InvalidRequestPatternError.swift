/// The error ``StubRegistry/request(matching:timeout:fileID:filePath:line:column:)`` throws at
/// once when its pattern has ``RequestPattern/problems``: such a pattern matches no request, so
/// waiting could only time out.
public struct InvalidRequestPatternError: Error, Sendable, CustomStringConvertible,
  LocalizedError
{
  /// The pattern that cannot match.
  package let pattern: RequestPattern
  /// Why it cannot, as ``RequestPattern/problems`` gives them.
  package let problems: [String]
  /// Where the test waited.
  package let location: SourceLocation

  /// The failure: the pattern, the caller's line, each problem and the fix.
  public var description: String {
    LogRedaction.mask(
      "Cannot wait for a request matching \(pattern) (awaited at \(location)): the pattern is "
        + "invalid: \(Self.clause(problems)). Correct the pattern; as written it "
        + "matches no request.", noting: true)
  }

  /// Same as ``description``.
  public var errorDescription: String? { description }

  /// The problems as one clause, for a sentence that goes on: their final periods dropped.
  static func clause(_ problems: [String]) -> String {
    problems.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }.joined(separator: "; ")
  }
}
