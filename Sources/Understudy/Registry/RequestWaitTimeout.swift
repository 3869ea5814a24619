/// The error ``StubRegistry/request(matching:timeout:fileID:filePath:line:column:)`` throws when
/// no matching request arrived in time.
///
/// Its description names the pattern, the time waited and the caller's line, and lists the
/// requests that came closest with the fields that differed.
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

  /// The failure, several lines: what was awaited, for how long, and what came closest.
  public var description: String {
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
}
