/// When a cassette records real traffic instead of replaying it.
///
/// Set it in code, and override it without code changes through the `UNDERSTUDY_RECORD`
/// environment variable (`never`, `missing`, `new_episodes`, `all`, `drift_check`), so CI and a
/// developer's machine can differ:
///
/// ```sh
/// UNDERSTUDY_RECORD=missing swift test --filter ProfileTests
/// ```
#if hasAttribute(nonexhaustive)
  @nonexhaustive
#endif
public enum RecordMode: String, Sendable, Hashable, CaseIterable {
  /// Replay only (the default). A missing cassette or a request the cassette cannot answer fails
  /// the test, with the command that records it.
  case never
  /// Record when the cassette file does not exist; replay only once it does.
  case missing
  /// Replay what the cassette has; record and append what it does not.
  case newEpisodes = "new_episodes"
  /// Ignore what the cassette has; record everything afresh.
  case all
  /// Send every request to the live server, compare each answer with the cassette (using the
  /// same match rules and redactions), and report differences without writing the cassette.
  case driftCheck = "drift_check"

  /// The name of the environment variable that overrides the mode set in code.
  package static let environmentVariable = "UNDERSTUDY_RECORD"

  /// The mode in effect: the environment's when it names one, otherwise `mode`.
  ///
  /// An unknown value in the environment is ignored and reported once to standard error.
  package static func effective(
    _ mode: RecordMode, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> RecordMode {
    guard let raw = environment[environmentVariable], !raw.isEmpty else { return mode }
    let normalized = raw.lowercased().replacingOccurrences(of: "-", with: "_")
    if let override = RecordMode(rawValue: normalized)
      ?? allCases.first(where: { "\($0)".lowercased() == normalized })
    {
      return override
    }
    warnOnce(ignoring: raw)
    return mode
  }

  private static let ignoredValues = Locked<Set<String>>([])

  /// What ``warnOnce(ignoring:)`` prints. The value is whatever the environment held (a token
  /// pasted into the wrong variable), so it is masked as any report is.
  static func warning(ignoring raw: String) -> String {
    LogRedaction.mask(
      "Understudy: ignoring \(environmentVariable) set to \(QuotedValue.quoted(raw)); use one of "
        + allCases.map(\.rawValue).joined(separator: ", ") + ".")
  }

  /// Says once per run that `raw` is ignored: every cassette of the run asks for the mode.
  /// Returns whether this call said it.
  @discardableResult
  static func warnOnce(ignoring raw: String) -> Bool {
    guard ignoredValues.withLock({ $0.insert(raw).inserted }) else { return false }
    FileHandle.standardError.write(Data((warning(ignoring: raw) + "\n").utf8))
    return true
  }
}
