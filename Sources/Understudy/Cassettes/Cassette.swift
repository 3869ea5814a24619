/// A HAR file a test replays instead of the network, and records into when its mode says so.
///
/// Bind one to a test with the `.cassette` trait (Swift Testing) or `withCassette` (XCTest), or
/// attach one to any registry with ``StubRegistry/use(_:)``. Stubs declared on the registry still
/// come first; the cassette answers what they do not.
///
/// Identical requests are answered in recorded order: the second identical request gets the
/// second recorded answer. Everything written is redacted first, then scanned for credentials
/// that survived; a cassette that still looks like it holds one is not written.
public final class Cassette: Sendable {
  /// The file.
  public let url: URL
  /// The mode in effect (after the `UNDERSTUDY_RECORD` override).
  public let mode: RecordMode
  /// Everything the cassette was told besides its file and mode.
  package let options: CassetteOptions
  /// How live requests are matched with recorded ones.
  package var matching: ReplayMatching { options.matching }
  /// What is redacted before anything is written (and applied to live requests before matching).
  package var redaction: Redaction { options.redaction }
  /// `redaction` compiled once, for the per-request check that most requests need no redacting.
  let compiledRedaction: CompiledRedaction
  /// Whether a recorded answer may be replayed again once every match was used.
  package var allowsRepeats: Bool { options.allowsRepeats }
  /// Whether to write a cassette in which the credential scan still finds something.
  package var allowsCredentials: Bool { options.allowsCredentials }
  /// Whether entries never replayed are reported when the cassette is finished.
  package var reportsUnusedEntries: Bool { options.reportsUnusedEntries }
  /// How fast replayed answers arrive.
  package var replaySpeed: ReplaySpeed { options.replaySpeed }
  /// ``CassetteOptions/ignoredHosts``, lower-cased once.
  private let ignoredHosts: Set<String>
  /// Where the cassette was bound, for reports.
  package let location: SourceLocation
  /// The command that records this cassette, printed in failures.
  package let recordCommand: String

  private struct Recorded {
    /// The redacted request as stored, for matching.
    let request: InterceptedRequest
    /// Why the entry cannot answer a request that matches it, if it cannot. The entry itself
    /// is in ``State/replayable``: a copy here would add its fields' size again per entry.
    let unreplayable: Unreplayable?
    /// The entry's answer with its replay delay applied, built the first time it is replayed:
    /// loading decodes no body, and a test decodes only the bodies it is served. Boxed, since
    /// most entries of a large cassette are never replayed and an inline `nil` answer took 190
    /// bytes of every entry (issue 17).
    var answer: Boxed<StubResponse>?
    /// Whether the entry is older than ``CassetteOptions/reRecordAfter``.
    let isStale: Bool
    /// The next entry with the same index key (``State/firstByKey``), or -1. A chain through the
    /// entries instead of an array of indices per key: an array of one index took 48 bytes of
    /// every entry of a cassette whose paths differ (issue 17). 32 bits fill the padding after
    /// `isStale`.
    var nextWithSameKey: Int32 = -1
    var uses = 0
  }

  private struct State {
    var recorded: [Recorded] = []
    /// The first entry of each index key (``ReplayMatching/indexKey(_:)``); the others follow
    /// through ``Recorded/nextWithSameKey``, in entry order.
    var firstByKey: [String: Int] = [:]
    var original: HAR?
    /// The loaded entries with placeholders restored when asked (the same storage as
    /// `original` when not), by index.
    var replayable: [HAR.Entry] = []
    var newEntries: [HAR.Entry] = []
    /// Fresh recordings of stale entries, by the index of the entry each replaces.
    var replacements: [Int: HAR.Entry] = [:]
    var drift: [Drift] = []
    /// What redaction removed from the live traffic a drift check saw, masked in every drift
    /// line: a redirect's next hop can carry a key the first request sent.
    var driftSecrets: Set<String> = []
    /// What the default rules would remove from the loaded file, read at the first miss: an
    /// export no one redacted can hold a token one answer handed out and a later entry's URL
    /// repeats, and a miss report lists entries.
    var missSecrets: Set<String>?
    var problem: CassetteError?
    var existed = false
    /// The key of the digests in request placeholders (``RedactionDigests``): the file's own, a
    /// new one for a cassette recorded afresh, `nil` for a file recorded before digests.
    var digestKey: String?
    /// The file as this cassette found it; a different one at write time means another
    /// recorder wrote it since, and its entries are merged rather than replaced.
    var foundFile: FileFingerprint?
    var finished = false
  }

  // Guards what was loaded, what was replayed, what was recorded, and drift found so far.
  private let state = Locked(State())

  /// Opens the cassette at `url`, loading it unless the mode records everything afresh.
  ///
  /// Problems (a malformed file, a missing file in `.never` mode, matching rules that cannot
  /// work) do not throw: they are reported by ``problem`` and by the trait that binds the
  /// cassette, and every request the cassette would answer fails with them.
  ///
  /// - Parameters:
  ///   - url: The HAR file.
  ///   - mode: When to record; `UNDERSTUDY_RECORD` overrides it.
  ///   - options: Matching, redaction, hooks and the rest; ``CassetteOptions`` lists them.
  ///   - recordCommand: The command printed in failures; the trait fills in the test's own.
  ///   - fileID: The `#fileID` of the caller; failures that belong to the cassette are reported
  ///     here. Leave the default.
  ///   - filePath: The `#filePath` of the caller; leave the default.
  ///   - line: The line of the caller; leave the default.
  ///   - column: The column of the caller; leave the default.
  public init(
    at url: URL, mode: RecordMode = .never, options: CassetteOptions = CassetteOptions(),
    recordCommand: String? = nil, fileID: String = #fileID, filePath: String = #filePath,
    line: Int = #line, column: Int = #column
  ) {
    // A value this cassette keeps out is kept out of every report of the run: tests share a log.
    KnownValues.declare(options.redaction.knownValues)
    // and out of its own file's name, which a test may have built before the cassette declared
    // the value (`url(forCassetteNamed: "run-" + key)`, then this cassette).
    self.url = url.deletingLastPathComponent().appendingPathComponent(
      CassetteName.withoutKnownValues(url.lastPathComponent))
    self.mode = RecordMode.effective(mode)
    self.options = options
    compiledRedaction = CompiledRedaction(options.redaction)
    ignoredHosts = Set(options.ignoredHosts.map { $0.lowercased() })
    self.location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    self.recordCommand =
      recordCommand ?? "\(RecordMode.environmentVariable)=missing swift test"
    load(restoring: options.restoring)
    if let problem = options.matching.problems.first {
      state.withLock {
        $0.problem =
          $0.problem
          ?? CassetteError(
            kind: .invalidValue, file: url.path,
            problem: "its replay matching cannot work as declared: \(problem)",
            fix: "correct the ReplayMatching passed to the cassette")
      }
    }
  }

  private func load(restoring: [String: String]) {
    // Taken before reading, so a write that lands in between counts as someone else's.
    let found = FileFingerprint(of: url)
    let exists = FileManager.default.fileExists(atPath: url.path)
    state.withLock {
      $0.existed = exists
      $0.foundFile = found
    }
    if mode == .all || !exists {
      state.withLock { $0.digestKey = Self.newDigestKey() }
    }
    if mode == .all { return }
    guard exists else {
      if mode == .never || mode == .driftCheck {
        state.withLock {
          $0.problem = CassetteError(
            kind: .fileMissing, file: url.path,
            problem: "the cassette does not exist (mode \(mode.rawValue))"
              + Self.earlierNameNote(for: url),
            fix: "Record it: \(recordCommand)")
        }
      }
      return
    }
    do {
      var har = try HAR.load(contentsOf: url)
      // Kept for the cassette's life: hold the bodies, not the whole file (memory no larger
      // than the file, issue 17).
      har.keepBodyBytesOnly()
      let values = KnownValues.restorable(
        redaction.knownValuesForReplay, in: url, explicit: restoring)
      let replayable = values.isEmpty ? har : redaction.restoring(har, values: values)
      var recorded: [Recorded] = []
      recorded.reserveCapacity(har.log.entries.count)
      let digestKey = har.log.redactionDigestSeed
      let staleBefore = options.reRecordAfter.map { Date().addingTimeInterval(-$0.seconds) }
      // Once: a file URL's path is decoded on every read, which cost as much per entry as
      // reading the entry's request.
      let file = url.path
      // Through a buffer pointer, whose elements are read in place: `enumerated()` and the
      // array's subscript copied each 752-byte entry, or its request, and destroyed the copy.
      try har.log.entries.withUnsafeBufferPointer { entries throws(CassetteError) in
        for index in entries.indices {
          // Through today's rules, as live requests are: a cassette recorded when fewer names
          // were redacted still matches a request whose value a newer rule now replaces.
          let request = redactedForMatching(
            try entries[index].request.interceptedRequest(), digestKey: digestKey)
          recorded.append(
            Recorded(
              request: request,
              unreplayable: Unreplayable(entries[index], index: index, file: file),
              isStale: staleBefore.map { entries[index].startedDateTime < $0 } ?? false))
        }
      }
      // Backwards, so each key's chain runs in entry order and ends at its first entry.
      var firstByKey: [String: Int] = [:]
      for index in recorded.indices.reversed() {
        guard let key = matching.indexKey(recorded[index].request) else { continue }
        if let next = firstByKey.updateValue(index, forKey: key) {
          recorded[index].nextWithSameKey = Int32(truncatingIfNeeded: next)
        }
      }
      state.withLock {
        $0.recorded = recorded
        $0.digestKey = digestKey
        $0.firstByKey = firstByKey
        $0.original = har
        $0.replayable = replayable.log.entries
      }
    } catch {
      state.withLock { $0.problem = error }
    }
  }

  /// Points at a cassette recorded for the same case under the naming rule before digests.
  private static func earlierNameNote(for url: URL) -> String {
    guard let earlier = CassetteName.earlierName(of: url) else { return "" }
    return "; \(earlier.lastPathComponent) beside it was recorded under the earlier naming rule: "
      + "this case's arguments lose characters in a file name, so its name now ends in a digest "
      + "that keeps such cases apart. If that file holds this case only, rename it to "
      + "\(url.lastPathComponent); if several cases shared it, record each again"
  }

  /// The key of the digests in request placeholders, when the cassette has one.
  var digestKey: String? { state.withLock { $0.digestKey } }

  /// What prevents the cassette from working as declared, if anything.
  public var problem: CassetteError? { state.withLock { $0.problem } }

  /// How many entries were loaded from the file.
  public var entryCount: Int { state.withLock { $0.recorded.count } }

  // MARK: Answering

  enum Decision: Sendable {
    case replay(StubResponse)
    /// Replay `entry` once the `beforeReplay` hook has adjusted it.
    case adjustThenReplay(HAR.Entry)
    /// Record the live answer, in place of the stale entry `replacing` when there is one.
    case record(replacing: Int?)
    case checkDrift(entry: Int?)
    case refuse(String)
    /// The host is ignored: the request goes wherever unmatched requests go, with this note
    /// when they are refused.
    case ignore(String)
  }

  /// What to do with `request`, which no stub answered.
  /// What to do with `request`. `cancelled` says the request ended while custom replay rules
  /// compared it: no entry is then used up by it, and the decision is to ignore it.
  func decide(_ request: InterceptedRequest, unless cancelled: () -> Bool = { false }) -> Decision {
    if let host = request.host?.lowercased(), ignoredHosts.contains(host) {
      return .ignore(
        "cassette \(url.lastPathComponent) ignores host \(host) (ignoredHosts), so it neither "
          + "replays nor records it; stub the request or pass unmatched requests through")
    }
    if let problem = state.withLock({ $0.problem }) {
      return .refuse(Self.unusableMessage(for: request, problem))
    }
    switch mode {
    case .all:
      return .record(replacing: nil)
    case .driftCheck:
      return .checkDrift(
        entry: take(matchFor: request, consume: true, unless: cancelled).map(\.index))
    case .missing where !state.withLock({ $0.existed }):
      return .record(replacing: nil)
    case .never, .missing, .newEpisodes:
      if let hit = take(matchFor: request, consume: true, unless: cancelled) {
        if mode == .newEpisodes && hit.isStale { return .record(replacing: hit.index) }
        switch hit.answer {
        case .success(let response):
          guard let entry = hit.entry else { return .replay(response) }
          return .adjustThenReplay(entry)
        case .failure(let reason): return .refuse(reason.message(for: request))
        }
      }
      if mode == .newEpisodes { return .record(replacing: nil) }
      return .refuse(missMessage(for: request))
    }
  }

  /// Why a cassette that could not be loaded answered nothing; names the file once (the
  /// problem does), and is the report the scope leaves to the cassette's own failure.
  static func unusableMessage(for request: InterceptedRequest, _ problem: CassetteError) -> String {
    "Understudy: \(request) was not answered, because the cassette cannot be used: \(problem)"
  }

  private func take(
    matchFor live: InterceptedRequest, consume: Bool, unless cancelled: () -> Bool = { false }
  ) -> (
    index: Int, answer: Result<StubResponse, Unreplayable>, entry: HAR.Entry?, isStale: Bool
  )? {
    let comparable = redactedForMatching(live, digestKey: state.withLock { $0.digestKey })
    // The entries with the request's index key, or every entry when the rules pin no path.
    let key = matching.indexKey(comparable)
    guard matching.runsUserCode else {
      return state.withLock { state in
        var candidate = Self.firstCandidate(key, in: state)
        var lastMatch: Int?
        while let index = candidate {
          candidate = Self.nextCandidate(after: index, key, in: state)
          guard matching.firstDifference(comparable, state.recorded[index].request) == nil else {
            continue
          }
          lastMatch = index
          if state.recorded[index].uses == 0 {
            if consume { state.recorded[index].uses += 1 }
            return hit(index, in: &state)
          }
        }
        return repeating(lastMatch, in: &state)
      }
    }
    // A custom rule is the test's own code: compared under the lock, one that sends a request
    // through this cassette's registry waited for itself, and held every request to it. The
    // entries are compared outside it, and the first unused match is claimed under it.
    let (indices, requests) = state.withLock { state in
      let indices = Self.candidates(key, in: state)
      return (indices, indices.map { state.recorded[$0].request })
    }
    let matches = zip(indices, requests).filter {
      matching.firstDifference(comparable, $0.1) == nil
    }.map(\.0)
    // The request ended while the rules ran: nothing is used up by it.
    if cancelled() { return nil }
    return state.withLock { claim(matches, consume: consume, in: &$0) }
  }

  /// The indices of the entries a request with index key `key` may match, in order.
  private static func candidates(_ key: String?, in state: State) -> [Int] {
    var indices: [Int] = []
    var candidate = firstCandidate(key, in: state)
    while let index = candidate {
      indices.append(index)
      candidate = nextCandidate(after: index, key, in: state)
    }
    return indices
  }

  /// The first entry a request with index key `key` may match: the first with that key, or the
  /// first of all when the rules pin no path.
  private static func firstCandidate(_ key: String?, in state: State) -> Int? {
    key.map { state.firstByKey[$0] } ?? (state.recorded.isEmpty ? nil : 0)
  }

  /// The entry after `index` that the same request may match.
  private static func nextCandidate(after index: Int, _ key: String?, in state: State) -> Int? {
    guard key != nil else { return index + 1 < state.recorded.count ? index + 1 : nil }
    let next = Int(state.recorded[index].nextWithSameKey)
    return next < 0 ? nil : next
  }

  /// The first unused entry of `matches`, or with ``allowsRepeats`` the last one used again.
  private func claim(_ matches: [Int], consume: Bool, in state: inout State) -> (
    index: Int, answer: Result<StubResponse, Unreplayable>, entry: HAR.Entry?, isStale: Bool
  )? {
    for index in matches where state.recorded[index].uses == 0 {
      if consume { state.recorded[index].uses += 1 }
      return hit(index, in: &state)
    }
    return repeating(matches.last, in: &state)
  }

  /// With ``allowsRepeats``, the last entry that matched, used once more.
  private func repeating(_ lastMatch: Int?, in state: inout State) -> (
    index: Int, answer: Result<StubResponse, Unreplayable>, entry: HAR.Entry?, isStale: Bool
  )? {
    guard allowsRepeats, let index = lastMatch else { return nil }
    state.recorded[index].uses += 1
    return hit(index, in: &state)
  }

  /// The recorded entry at `index`, its answer built on first use and kept.
  ///
  /// With a `beforeReplay` hook the entry comes back instead, for the hook to adjust first.
  private func hit(_ index: Int, in state: inout State) -> (
    index: Int, answer: Result<StubResponse, Unreplayable>, entry: HAR.Entry?, isStale: Bool
  ) {
    // Fields one by one: copying the whole record would copy its entry on every request.
    let isStale = state.recorded[index].isStale
    if let answer = state.recorded[index].answer {
      return (index, .success(answer.value), nil, isStale)
    }
    if let reason = state.recorded[index].unreplayable {
      return (index, .failure(reason), nil, isStale)
    }
    let entry = state.replayable[index]
    // With a hook, the hook's adjusted entry gives the answer; this one is not used.
    if options.replayHook != nil { return (index, .success(.status(0)), entry, isStale) }
    let answer = Self.replayResponse(entry, index: index, file: url.path, speed: replaySpeed)
    state.recorded[index].answer = Boxed(answer)
    return (index, .success(answer), nil, isStale)
  }

  /// The answer replaying `entry` gives. The loader checked that its body decodes, so the
  /// failure here is for a model changed since in a way that broke it (a `restoring` value).
  private static func replayResponse(
    _ entry: HAR.Entry, index: Int, file: String, speed: ReplaySpeed
  ) -> StubResponse {
    do {
      return try response(replaying: entry, speed: speed)
        .delayed(by: replayDelay(of: entry, speed: speed))
    } catch {
      let message = "Understudy: entry \(index) of \(file) cannot be replayed: \(error)"
      return .failure(
        URLError.understudy(.cannotDecodeContentData, message, URL(string: entry.request.url)))
    }
  }

  /// How long a replayed answer waits before its response. Worked out once, at load: anything
  /// that copies the locked state per request would copy every entry, and replay would slow down
  /// as cassettes grow.
  static func replayDelay(of entry: HAR.Entry, speed: ReplaySpeed) -> TimeInterval {
    // A streamed body replays its own timing; the wait before the response is what is left.
    let streamed = entry.response.content.chunks?.last?.time ?? 0
    return speed.delay(forRecordedMilliseconds: max(0, entry.time - streamed))
  }

  /// The live request as it would be stored, so placeholders compare equal to the secrets they
  /// replaced: with `digestKey`, each placeholder carries the digest of its own value, so two
  /// requests that differ only in redacted values stay different.
  private func redactedForMatching(_ live: InterceptedRequest, digestKey: String?)
    -> InterceptedRequest
  {
    // Nothing to redact means nothing changes: skip the HAR round trip, which costs more than
    // the rest of a replay.
    if !compiledRedaction.mayChange(live) { return live }
    let probe = HAR.Entry(
      request: live, response: HAR.Response(status: 0, headers: [:], body: nil),
      startedDateTime: Date(timeIntervalSince1970: 0), duration: .zero)
    var redacted = redaction.redact(probe).request
    if let digestKey {
      redacted = RedactionDigests.mark(redacted, original: probe.request, key: digestKey)
    }
    return (try? redacted.interceptedRequest()) ?? live
  }

  /// A key for the digests of a cassette recorded afresh, so one value gives unrelated digests
  /// in two cassettes: the moment it was made, to the millisecond, and a number from 0 to 999.
  /// It is no secret (it is written in the file); it is spelled so that secret scanners, which
  /// flag long hex or base64 runs, do not flag every cassette.
  private static func newDigestKey() -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.string(from: Date()) + "/" + String(Int.random(in: 0...999))
  }

  /// The values `request` holds where an entry of this cassette holds a placeholder
  /// (``PlaceholderPlaces``), hidden in what a miss reports.
  func valuesAtPlaceholders(of request: InterceptedRequest) -> Set<String> {
    PlaceholderPlaces.liveValues(of: request, at: state.withLock { $0.recorded.map(\.request) })
  }

  private func missMessage(for request: InterceptedRequest) -> String {
    let recorded = state.withLock { $0.recorded }
    let comparable = redactedForMatching(request, digestKey: state.withLock { $0.digestKey })
    let age = ageDescription.map { ", \($0)" } ?? ""
    var lines = [
      "Understudy: cassette \(url.lastPathComponent) has no recorded answer for \(request) "
        + "(mode \(mode.rawValue); \(recorded.count) \(recorded.count == 1 ? "entry" : "entries")"
        + "\(age))."
    ]
    let near = recorded.enumerated().compactMap { index, entry -> String? in
      guard entry.request.path == comparable.path || entry.request.host == comparable.host else {
        return nil
      }
      guard let difference = matching.firstDifference(comparable, entry.request) else {
        return "  entry \(index): \(entry.request) — matches, but was already replayed "
          + "(pass allowsRepeats: true to answer it again)"
      }
      let used = entry.uses > 0 ? ", already replayed" : ""
      return "  entry \(index): \(entry.request) — differs in \(difference)\(used)"
    }
    if !near.isEmpty { lines.append("Closest recorded requests:") }
    lines += near.prefix(3)
    lines.append(
      "To record it: \(command(recording: .newEpisodes))")
    // Read outside the lock: the rules run over every entry of the file once.
    let (known, original) = state.withLock { ($0.missSecrets, $0.original) }
    let fileSecrets = known ?? original?.removedValuesForLogs() ?? []
    if known == nil { state.withLock { $0.missSecrets = fileSecrets } }
    let secrets = fileSecrets.union(valuesAtPlaceholders(of: request))
    let message = lines.joined(separator: "\n")
    return secrets.isEmpty ? message : LogRedaction.mask(message, hiding: secrets)
  }

  /// How old the loaded entries are, as reports say it.
  private var ageDescription: String? {
    CassetteAge.describe(state.withLock { $0.original?.log.entries.map(\.startedDateTime) ?? [] })
  }

  /// ``recordCommand`` with its `UNDERSTUDY_RECORD` value set to `mode`.
  func command(recording mode: RecordMode) -> String {
    let prefix = RecordMode.environmentVariable + "="
    guard recordCommand.hasPrefix(prefix) else {
      return prefix + mode.rawValue + " " + recordCommand
    }
    let rest = recordCommand.dropFirst(prefix.count).drop { $0 != " " }
    return prefix + mode.rawValue + rest
  }

  // MARK: Recording

  /// Adds a live exchange to the cassette (written when it is finished), in place of the stale
  /// entry `replacing` when there is one.
  func record(
    _ request: InterceptedRequest, _ reply: Reply, startedAt: Date, duration: TimeInterval,
    replacing stale: Int? = nil
  ) {
    guard case .response(let http) = reply, case .data(let body) = http.body.storage else { return }
    var response = HAR.Response(status: http.status, headers: http.headers, body: body)
    if let parts = http.chunks {
      var elapsed = 0.0
      response.content.chunks = parts.map { part in
        elapsed += part.delay * 1000
        return HAR.Content.Chunk(size: part.size, time: (elapsed * 1000).rounded() / 1000)
      }
    }
    var entry = HAR.Entry(
      request: request, response: response, startedDateTime: startedAt,
      duration: .milliseconds(Int64((duration * 1000).rounded())))
    entry.request.headers = entry.request.headers.sortedByName()
    entry.response.headers = entry.response.headers.sortedByName()
    state.withLock { state in
      if let stale {
        state.replacements[stale] = entry
      } else {
        state.newEntries.append(entry)
      }
    }
  }

  /// Compares a live answer with the recorded one (drift-check mode).
  func compare(live reply: Reply, for request: InterceptedRequest, recordedEntry index: Int?) {
    let response: HAR.Response
    if case .response(let http) = reply {
      response = HAR.Response(
        status: http.status, headers: http.headers, body: http.body.inlineData)
    } else {
      response = HAR.Response(status: 0, headers: [:], body: nil)
    }
    let live = HAR.Entry(
      request: request, response: response, startedDateTime: Date(), duration: .zero)
    let (redacted, removed) = redaction.redactedWithRemovals(live)
    state.withLock { $0.driftSecrets.formUnion(removed) }
    guard let index else {
      state.withLock { $0.drift.append(Drift(heading: "\(request): not in the cassette")) }
      return
    }
    guard case .response = reply else {
      state.withLock {
        $0.drift.append(Drift(heading: "\(request): the live server failed: \(reply)"))
      }
      return
    }
    let redactedLive = redacted.response
    state.withLock { state in
      guard let recorded = state.original?.log.entries[index].response else { return }
      var drift = Drift(heading: "\(request) (entry \(index))")
      if recorded.status != redactedLive.status {
        drift.differences.append("status \(recorded.status) → \(redactedLive.status)")
      }
      let recordedBody = recorded.content.body ?? Data()
      let liveBody = redactedLive.content.body ?? Data()
      if recordedBody != liveBody {
        let recordedJSON = try? JSONValue(parsing: recordedBody)
        let liveJSON = try? JSONValue(parsing: liveBody)
        if recordedJSON == nil || recordedJSON != liveJSON {
          // Described at the end, when every live request's values are known: the difference
          // quotes a value cut short, which no later mask could find.
          drift.bodies = (recordedBody, liveBody)
          drift.differences.append("")
        }
      }
      if recorded.content.mimeType.split(separator: ";").first
        != redactedLive.content.mimeType.split(separator: ";").first
      {
        drift.differences.append(
          "content type \(recorded.content.mimeType) → \(redactedLive.content.mimeType)")
      }
      if !drift.differences.isEmpty { state.drift.append(drift) }
    }
  }

  // MARK: Finishing

  /// Writes what was recorded (redacted, scanned, atomically) and returns what went wrong:
  /// problems loading, credentials found, unused entries (when asked), drift.
  ///
  /// Safe to call more than once; only the first call writes.
  /// A `beforeRecord` hook runs on a thread of its own while this call waits for it (at most the
  /// options' `hookTimeout`).
  public func finish() -> [ScopeFailure] {
    guard let snapshot = takeSnapshot() else { return [] }
    guard let (hook, fresh) = recordHookInput(snapshot) else { return finish(snapshot, nil) }
    return finish(snapshot, runRecordHook(hook, on: fresh))
  }

  /// ``finish()`` for async scopes: waits for a `beforeRecord` hook without holding a thread of
  /// the shared concurrency pool, which a test trait's scope runs on.
  func finishAwaitingHooks() async -> [ScopeFailure] {
    guard let snapshot = takeSnapshot() else { return [] }
    guard let (hook, fresh) = recordHookInput(snapshot) else { return finish(snapshot, nil) }
    let outcome = await withCheckedContinuation { continuation in
      startRecordHook(hook, on: fresh) { continuation.resume(returning: $0) }
    }
    return finish(snapshot, outcome)
  }

  /// The state to finish from, once: `nil` when the cassette was finished already.
  private func takeSnapshot() -> State? {
    state.withLock { state -> State? in
      guard !state.finished else { return nil }
      state.finished = true
      return state
    }
  }

  /// Whether `snapshot` will be written.
  private func writes(_ snapshot: State) -> Bool {
    guard mode != .driftCheck else { return false }
    let recordedAny = !snapshot.newEntries.isEmpty || !snapshot.replacements.isEmpty
    return recordedAny || (mode == .all && !snapshot.existed)
  }

  /// The `beforeRecord` hook and what it runs over (new entries, then re-recordings in entry
  /// order), when there is a hook and something to write.
  private func recordHookInput(_ snapshot: State) -> (RecordHook, [HAR.Entry])? {
    guard let hook = options.recordHook, writes(snapshot) else { return nil }
    return (
      hook, snapshot.newEntries + snapshot.replacements.sorted { $0.key < $1.key }.map(\.value)
    )
  }

  /// Reports and writes what `snapshot` holds, with the `beforeRecord` hook's `outcome` applied.
  private func finish(
    _ snapshot: State, _ outcome: Result<[HAR.Entry?], RecordHookFailure>?
  ) -> [ScopeFailure] {
    var failures: [ScopeFailure] = []
    if let problem = snapshot.problem {
      failures.append(ScopeFailure(message: "\(problem)", location: location))
    }
    if mode == .driftCheck {
      let age = CassetteAge.describe(snapshot.original?.log.entries.map(\.startedDateTime) ?? [])
      let secrets = snapshot.driftSecrets.sorted { $0.count > $1.count }
      for drift in snapshot.drift {
        let shown = LogRedaction.mask(
          drift.described(hiding: secrets), naming: nil, echoes: secrets)
        failures.append(
          ScopeFailure(
            message: "Drift from cassette \(url.lastPathComponent)"
              + (age.map { " (\($0))" } ?? "") + ": \(shown). Re-record with "
              + "\(command(recording: .all)) if the "
              + "live behaviour is right.",
            location: location))
      }
      return failures
    }
    if reportsUnusedEntries {
      for (index, entry) in snapshot.recorded.enumerated() where entry.uses == 0 {
        failures.append(
          ScopeFailure(
            message: "Cassette \(url.lastPathComponent) entry \(index) (\(entry.request)) was "
              + "never replayed.",
            location: location))
      }
    }
    if writes(snapshot) {
      var snapshot = snapshot
      if let outcome {
        let stale = snapshot.replacements.sorted { $0.key < $1.key }
        let added = snapshot.newEntries.count
        switch outcome {
        case .success(let kept):
          snapshot.newEntries = kept.prefix(added).compactMap { $0 }
          // A dropped re-recording leaves the stale entry in place.
          for (offset, replaced) in stale.enumerated() {
            snapshot.replacements[replaced.key] = kept[added + offset]
          }
        case .failure(let hookFailure): return failures + [hookFailure.failure]
        }
      }
      failures += write(snapshot)
      if let product = Self.buildProduct(containing: url) {
        failures.append(
          ScopeFailure(
            message: "Cassette \(url.path) was recorded inside \(product), a copy the next "
              + "build replaces, so the recording will be lost. Record into the source tree "
              + "(the default location, .besideTestFile, or a .folder in it) and rebuild to "
              + "ship it as a resource.",
            location: location))
      }
    }
    return failures
  }

  /// The built bundle or build folder `url` lies in (resources are copied there at build
  /// time), or `nil` for files in a source tree.
  static func buildProduct(containing url: URL) -> String? {
    var folder = URL(fileURLWithPath: "/")
    for component in url.standardizedFileURL.pathComponents.dropLast() where component != "/" {
      folder.appendPathComponent(component)
      let isBundle = [".bundle", ".resources", ".xctest", ".app"].contains {
        component.hasSuffix($0)
      }
      if isBundle || component == ".build" || component == "DerivedData" {
        return folder.path
      }
    }
    return nil
  }

  private func write(_ snapshot: State) -> [ScopeFailure] {
    do {
      return try CassetteFileLock.withLock(on: url) { () throws(CassetteError) in
        try writeHoldingLock(snapshot)
      }
    } catch {
      return [ScopeFailure(message: "\(error)", location: location)]
    }
  }

  /// The entries to write: what this cassette started from (per its mode) and what it recorded;
  /// if another recorder replaced the file since it was opened, what is on disk now instead of
  /// the starting point, so neither recorder's entries are lost.
  private func entriesToWrite(_ snapshot: State) throws(CassetteError) -> (
    entries: [HAR.Entry], digestKey: String?
  ) {
    // Another recorder's file may hold other entries at the stale ones' places: there, fresh
    // recordings are added rather than put in place.
    let added = snapshot.newEntries + snapshot.replacements.sorted { $0.key < $1.key }.map(\.value)
    guard FileFingerprint(of: url) != snapshot.foundFile else {
      guard mode == .newEpisodes, let original = snapshot.original else {
        return (added, snapshot.digestKey)
      }
      var kept = original.log.entries
      for (index, fresh) in snapshot.replacements { kept[index] = fresh }
      return (kept + snapshot.newEntries, snapshot.digestKey)
    }
    guard FileManager.default.fileExists(atPath: url.path) else {
      return (added, snapshot.digestKey ?? Self.newDigestKey())
    }
    do {
      // The other recorder's digests were made with its file's key: the new entries use it too.
      let found = try HAR.load(contentsOf: url)
      return (found.log.entries + added, found.log.redactionDigestSeed)
    } catch {
      throw CassetteError(
        kind: .writeFailed, file: url.path,
        problem: "another recorder wrote the cassette while this test was recording, and what "
          + "it wrote cannot be read (\(error)), so this test's \(added.count) new "
          + "\(added.count == 1 ? "entry was" : "entries were") not written",
        fix: "Record again once the other writer has finished: \(command(recording: .newEpisodes))")
    }
  }

  private func writeHoldingLock(_ snapshot: State) throws(CassetteError) -> [ScopeFailure] {
    let (entries, digestKey) = try entriesToWrite(snapshot)
    var har = HAR(entries: entries)
    har.log.creator = HAR.Creator(name: "Understudy", version: "1")
    har = redaction.redact(har)
    if let digestKey {
      har.log.redactionDigestSeed = digestKey
      for index in har.log.entries.indices {
        har.log.entries[index].request = RedactionDigests.mark(
          har.log.entries[index].request, original: entries[index].request, key: digestKey)
      }
    }
    // The rules have just run: what is left to catch is a credential they do not cover, by its
    // shape. Running them a second time inside the scan doubled the cost of writing.
    let findings = CredentialScanner(redaction: redaction).scan(redacted: har)
    if !findings.isEmpty && !allowsCredentials {
      let listed = findings.prefix(5).map { "  \($0)" }.joined(separator: "\n")
      // A body no rule can read is no value to allow: it is written readable or not at all.
      let unreadable =
        findings.contains { $0.kind == .unreadableBody }
        ? "\nA body redaction cannot read (still compressed, or in a charset Understudy does "
          + "not read) may hide anything: send it uncompressed and in UTF-8 while recording, "
          + "or rewrite it in the cassette's beforeRecord hook." : ""
      return [
        ScopeFailure(
          message: "Cassette \(url.path) was not written: it still holds what looks like a "
            + "credential after redaction:\n\(listed)\(unreadable)\nRedact it (add the header, "
            + "query parameter, JSON path or body pattern to the cassette's Redaction). If they "
            + "are deliberate test values, allow them by value or pattern "
            + "(`redaction: .default.allowingCredentials(.value(\"…\"))`), or set "
            // No `name: value` here: the log mask, which every printed line passes, would
            // take the rest of the sentence for a credential's value.
            + "allowsCredentials to true to skip the scan.",
          location: location)
      ]
    }
    try har.write(to: url)
    return []
  }

  /// A recorded HAR entry as a stub response.
  static func response(replaying entry: HAR.Entry, speed: ReplaySpeed) throws
    -> StubResponse
  {
    // A client stops reading at the head of a 204: what a cassette keeps after one (edited by
    // hand) never reached code under test from a server, so replay leaves it out. A 304 keeps
    // its body: browsers export the cached copy there, and tests replaying exports read it.
    let body =
      entry.response.status == 204 ? Data() : try entry.response.content.decodedBody() ?? Data()
    var headers = entry.response.httpHeaders
    // Bodies are stored decoded and may have been redacted: the recorded framing no longer
    // describes them, so the protocol computes its own Content-Length.
    for name in ["Content-Length", "Content-Encoding", "Transfer-Encoding"] { headers[name] = nil }
    var response = StubResponse(status: entry.response.status, headers: headers, body: .data(body))
    // Chunk boundaries replay at every speed (instantly, they still arrive as separate parts);
    // parts that no longer add up to the body (it was redacted, or the file was edited: a
    // negative size, sizes past Int.max) replay as one.
    if let parts = entry.response.content.chunks, parts.count > 1,
      BodyChunk.sizes(of: parts.map(\.size), addUpTo: body.count)
    {
      var previous = 0.0
      response.chunks = parts.map { part in
        defer { previous = part.time }
        return BodyChunk(
          size: part.size,
          delay: speed.delay(forRecordedMilliseconds: max(0, part.time - previous)))
      }
    }
    return response
  }
}

/// How fast replayed answers arrive.
#if hasAttribute(nonexhaustive)
  @nonexhaustive
#endif
public enum ReplaySpeed: Sendable, Hashable {
  /// At once.
  case instant
  /// After the time the recorded exchange took.
  case recorded
  /// After the recorded time multiplied by the factor (0.5 is twice as fast).
  case scaled(Double)

  func delay(forRecordedMilliseconds milliseconds: Double) -> TimeInterval {
    switch self {
    case .instant: return 0
    case .recorded: return max(0, milliseconds / 1000)
    case .scaled(let factor): return max(0, milliseconds / 1000 * factor)
    }
  }
}
