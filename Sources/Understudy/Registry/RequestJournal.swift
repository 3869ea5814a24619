/// One request the protocol intercepted and what became of it.
public struct JournalEntry: Sendable {
  /// What happened to a request.
  public enum Outcome: Sendable {
    /// A stub answered it.
    case stubbed(Stub)
    /// It went to the real network.
    case passedThrough
    /// Nothing matched; the report says what came closest.
    case unmatched(NearMissReport)
    /// It arrived after its registry was gone (a straggler from an ended test).
    case rejected(String)
  }

  /// The request, body included.
  public let request: InterceptedRequest
  /// What happened to it.
  public let outcome: Outcome
  /// When it was intercepted.
  public let date: Date

  /// Whether no stub matched.
  public var isUnmatched: Bool {
    if case .unmatched = outcome { return true }
    return false
  }
}

/// The ordered log of intercepted requests, bounded when a capacity is set.
struct RequestJournal: Sendable {
  private(set) var entries: [JournalEntry] = []
  let capacity: Int?

  mutating func append(_ entry: JournalEntry) {
    if let capacity {
      guard capacity > 0 else { return }
      if entries.count >= capacity { entries.removeFirst(entries.count - capacity + 1) }
    }
    entries.append(entry)
  }

  mutating func removeAll() {
    entries.removeAll()
  }
}
