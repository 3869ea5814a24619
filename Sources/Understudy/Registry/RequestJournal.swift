/// One request the protocol intercepted and what became of it.
public struct JournalEntry: Sendable {
  /// What happened to a request.
  #if hasAttribute(nonexhaustive)
    @nonexhaustive
  #endif
  public enum Outcome: Sendable {
    /// A stub answered it.
    case stubbed(Stub)
    /// It went to the real network.
    case passedThrough
    /// The cassette at this URL replayed a recorded answer.
    case replayed(URL)
    /// Nothing matched; the report says what came closest.
    // Boxed: inline, the report (a dozen words) set the size of every entry the journal keeps,
    // matched or not.
    indirect case unmatched(NearMissReport)
  }

  /// What the caller received.
  public struct Response: Sendable {
    /// The HTTP status, or `nil` when the request failed.
    public var status: Int?
    /// The response headers.
    public var headers: HTTPHeaders
    /// The body when it was held in memory; `nil` for streamed files and failures.
    public var body: Data?
    /// The error the request failed with, as text.
    public var error: String?
    /// Seconds from interception to the answer.
    public var duration: TimeInterval
  }

  /// Sequential within its registry.
  package let id: Int
  /// The request, body included.
  public let request: InterceptedRequest
  /// What happened to it.
  public internal(set) var outcome: Outcome
  /// When it was intercepted.
  public let date: Date
  /// What the caller received, once it has been answered.
  public internal(set) var response: Response?
  /// The list this entry was handed out in, whose values its description masks too.
  var neighbours: JournalNeighbours?

  /// Whether no stub matched.
  package var isUnmatched: Bool {
    if case .unmatched = outcome { return true }
    return false
  }
}

/// The ordered log of intercepted requests, bounded when a capacity is set.
struct RequestJournal: Sendable {
  private var log: BoundedLog<JournalEntry>
  private var nextID = 0
  /// Requests intercepted and not yet answered, by the identifier of their first entry. Kept
  /// beside the log so noting a request and its arrival takes one lock, and so does its answer.
  private(set) var inFlight = [Int: InterceptedRequest]()
  /// Which of those have their response and wait only for the rest of their body.
  private(set) var receivingBody = Set<Int>()
  /// Streams that see each entry as it is appended, by the identifier ``watch(_:)`` returned.
  private var watchers = [Int: AsyncStream<JournalEntry>.Continuation]()
  private var nextWatcher = 0
  /// Whether the log may hold an unmatched request: a scope's end, which looks for them, skips
  /// copying the log when none came (most tests).
  private(set) var mayHoldUnmatched = false

  var capacity: Int? { log.capacity }

  var entries: [JournalEntry] { log.elements }

  init(capacity: Int?) {
    log = BoundedLog(capacity: capacity)
  }

  mutating func append(_ request: InterceptedRequest, _ outcome: JournalEntry.Outcome) -> Int {
    nextID += 1
    // A journal that keeps nothing skips building the entry (and reading the clock) too, unless
    // a test is watching.
    if log.capacity == 0 && watchers.isEmpty { return nextID }
    let entry = JournalEntry(id: nextID, request: request, outcome: outcome, date: Date())
    if entry.isUnmatched { mayHoldUnmatched = true }
    log.append(entry)
    for watcher in watchers.values { watcher.yield(entry) }
    return nextID
  }

  mutating func setOutcome(_ outcome: JournalEntry.Outcome, forEntry id: Int) {
    log.updateLast(where: { $0.id == id }, with: { $0.outcome = outcome })
  }

  mutating func setResponse(_ response: JournalEntry.Response, forEntry id: Int) {
    // Answers come in roughly arrival order, so the entry is almost always near the end.
    log.updateLast(where: { $0.id == id }, with: { $0.response = response })
  }

  /// Notes `request` as waiting for its answer, under its first entry's identifier.
  mutating func noteInFlight(_ request: InterceptedRequest, entry: Int) {
    inFlight[entry] = request
  }

  /// The request noted in flight under `id` has its response, and its body is still arriving
  /// (throttled, delayed or read from a file): it stays in flight until ``finish(_:)``.
  mutating func noteReceivingBody(_ id: Int) {
    if inFlight[id] != nil { receivingBody.insert(id) }
  }

  /// The request noted in flight under `id` has been answered, body and all.
  mutating func finish(_ id: Int) {
    inFlight[id] = nil
    if !receivingBody.isEmpty { receivingBody.remove(id) }
  }

  /// Sends every entry appended from now on to `continuation`, until ``stopWatching(_:)`` or
  /// ``finishWatchers()``; returns the identifier to stop with.
  mutating func watch(_ continuation: AsyncStream<JournalEntry>.Continuation) -> Int {
    nextWatcher += 1
    watchers[nextWatcher] = continuation
    return nextWatcher
  }

  /// Stops sending entries to the stream `id` names and returns it, to be finished once the lock
  /// is released (finishing runs its termination handler, which takes the lock again).
  mutating func stopWatching(_ id: Int) -> AsyncStream<JournalEntry>.Continuation? {
    watchers.removeValue(forKey: id)
  }

  /// Stops every watching stream and returns them, to be finished once the lock is released.
  mutating func removeWatchers() -> [AsyncStream<JournalEntry>.Continuation] {
    defer { watchers.removeAll() }
    return Array(watchers.values)
  }

  /// Empties the log; requests in flight stay noted, since they are still waiting.
  mutating func removeAll() {
    log.removeAll()
    mayHoldUnmatched = false
  }
}
