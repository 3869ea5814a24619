/// Everything about a cassette besides its file and its mode, as one value: declare it once
/// (a suite's `static let`) and pass it to the `.cassette` trait, `withCassette` or
/// ``Cassette/init(at:mode:options:recordCommand:fileID:filePath:line:column:)``.
///
/// ```swift
/// static let options = CassetteOptions(
///   matching: ReplayMatching.default.ignoring(queryItems: ["ts"]),
///   ignoredHosts: ["telemetry.example.com"],
///   reRecordAfter: .seconds(30 * 24 * 3600)
/// )
/// .beforeRecord { entry in
///   entry.request.url.contains("/health") ? nil : entry
/// }
/// ```
public struct CassetteOptions: Sendable {
  // The settings are the initialiser's parameters and the hooks' builders, one spelling each;
  // the properties are the library's to read.
  /// How live requests find recorded ones.
  package var matching: ReplayMatching
  /// What is redacted before anything is written (and applied to live requests before matching).
  package var redaction: Redaction
  /// Values put back into replayed answers in place of redaction placeholders, keyed by
  /// placeholder name (`["authorization": "Bearer test-token"]`).
  package var restoring: [String: String]
  /// Whether a recorded answer may be replayed again once every match was used.
  package var allowsRepeats: Bool
  /// Whether to write a cassette in which the credential scan still finds something.
  package var allowsCredentials: Bool
  /// Whether entries never replayed are reported when the cassette is finished.
  package var reportsUnusedEntries: Bool
  /// How fast replayed answers arrive.
  package var replaySpeed: ReplaySpeed
  /// Hosts the cassette leaves alone (case-insensitive, exact names such as
  /// `telemetry.example.com`): their requests are never recorded nor replayed, and go where any
  /// request no stub matches goes: refused under the default policy, passed through when the
  /// registry passes unmatched requests through.
  package var ignoredHosts: Set<String>
  /// How old a recorded entry may get: in ``RecordMode/newEpisodes`` mode an older entry that a
  /// request matches is fetched again and replaced. Drift checks and miss reports say how old the
  /// cassette is either way. `nil` (the default) keeps entries forever.
  package var reRecordAfter: Duration?
  /// How long the ``beforeRecord(fileID:filePath:line:column:_:)`` hook may run over one
  /// cassette's new entries before the cassette is not written and the hook is reported.
  package var hookTimeout: Duration
  /// Edits or drops new entries before they are written.
  var recordHook: RecordHook?
  /// Adjusts recorded entries before they answer.
  var replayHook: ReplayHook?

  /// Creates options; every default is the cassette's default behaviour.
  ///
  /// - Parameters:
  ///   - matching: How live requests find recorded ones.
  ///   - redaction: Applied before writing, and to live requests before matching.
  ///   - restoring: Values put back in place of redaction placeholders when replaying.
  ///   - allowsRepeats: Replay the last matching answer again once all were used.
  ///   - allowsCredentials: Write even when the credential scan finds something.
  ///   - reportsUnusedEntries: Report recorded entries no request used.
  ///   - replaySpeed: Instantly (default), at recorded speed, or scaled.
  ///   - ignoredHosts: Hosts never recorded nor replayed (case-insensitive, exact names such as
  ///     `telemetry.example.com`): their requests go where any request no stub matches goes,
  ///     refused under the default policy, passed through when the registry passes unmatched
  ///     requests through.
  ///   - reRecordAfter: The age past which ``RecordMode/newEpisodes`` mode fetches an entry
  ///     again and replaces it; `nil` keeps entries forever. Drift checks and miss reports say
  ///     how old the cassette is either way.
  ///   - hookTimeout: How long the `beforeRecord` hook may run over one cassette's new entries
  ///     before the cassette is not written and the hook is reported.
  public init(
    matching: ReplayMatching = .default, redaction: Redaction = .default,
    restoring: [String: String] = [:], allowsRepeats: Bool = false,
    allowsCredentials: Bool = false, reportsUnusedEntries: Bool = false,
    replaySpeed: ReplaySpeed = .instant, ignoredHosts: Set<String> = [],
    reRecordAfter: Duration? = nil, hookTimeout: Duration = .seconds(10)
  ) {
    self.matching = matching
    self.redaction = redaction
    self.restoring = restoring
    self.allowsRepeats = allowsRepeats
    self.allowsCredentials = allowsCredentials
    self.reportsUnusedEntries = reportsUnusedEntries
    self.replaySpeed = replaySpeed
    self.ignoredHosts = ignoredHosts
    self.reRecordAfter = reRecordAfter
    self.hookTimeout = hookTimeout
  }

  /// These options with `transform` run on every newly recorded entry, after redaction and
  /// before the entry is written; returning `nil` drops the entry (VCR's `before_record`).
  ///
  /// What the hook returns is scanned for credentials like everything else a cassette writes:
  /// a hook that puts a secret back in stops the cassette from being written. A hook that
  /// throws, or runs past the `hookTimeout` option, stops it too, and is reported at its own line. It runs
  /// off URLSession's work queues, once per write, over the new entries in order.
  ///
  /// - Parameters:
  ///   - fileID: The `#fileID` of the hook; failures are reported here. Leave the default.
  ///   - filePath: The `#filePath` of the hook; leave the default.
  ///   - line: The line of the hook; leave the default.
  ///   - column: The column of the hook; leave the default.
  ///   - transform: Returns the entry to write, or `nil` to leave it out.
  public func beforeRecord(
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
    column: Int = #column,
    _ transform: @escaping @Sendable (HAR.Entry) throws -> HAR.Entry?
  ) -> CassetteOptions {
    var options = self
    options.recordHook = RecordHook(
      transform: transform,
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    return options
  }

  /// These options with `transform` run on each recorded entry as it is replayed, before its
  /// response is served: to rewrite a date, say (VCR's `before_playback`).
  ///
  /// The entry has its placeholders restored (the `restoring` option). The hook runs off URLSession's
  /// work queues, bounded by the request's timeout; a hook that throws fails the request and is
  /// reported at its own line.
  ///
  /// - Parameters:
  ///   - fileID: The `#fileID` of the hook; failures are reported here. Leave the default.
  ///   - filePath: The `#filePath` of the hook; leave the default.
  ///   - line: The line of the hook; leave the default.
  ///   - column: The column of the hook; leave the default.
  ///   - transform: Returns the entry whose response is served.
  public func beforeReplay(
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
    column: Int = #column,
    _ transform: @escaping @Sendable (HAR.Entry) throws -> HAR.Entry
  ) -> CassetteOptions {
    var options = self
    options.replayHook = ReplayHook(
      transform: transform,
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    return options
  }
}

/// A `beforeRecord` transform and where it was declared.
struct RecordHook: Sendable {
  let transform: @Sendable (HAR.Entry) throws -> HAR.Entry?
  let location: SourceLocation
}

/// A `beforeReplay` transform and where it was declared.
struct ReplayHook: Sendable {
  let transform: @Sendable (HAR.Entry) throws -> HAR.Entry
  let location: SourceLocation
}
