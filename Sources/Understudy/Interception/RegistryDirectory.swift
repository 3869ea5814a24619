/// Finds the registry behind a protocol class's identifier.
///
/// Identifiers are never reused: a session that outlives its registry must hear that its
/// registry is gone, never be answered by a newer registry that happened to get the same number.
///
/// Why a registry went away is kept for the most recent ``reasonCapacity`` retirements only, so
/// the directory stays the same size however many tests a process runs. No session can be
/// proven unreachable (one built from another session's `configuration` carries the class
/// unseen), so an older retired identifier is still refused, with a reason that names the
/// registry but no longer its test: a late request arrives while the next few tests run.
final class RegistryDirectory: Sendable {
  static let shared = RegistryDirectory()

  enum Lookup {
    case live(StubRegistry)
    /// Why the registry is gone, and where a late request is recorded as an issue (the test's
    /// scope), if it is.
    case retired(String, reportAt: SourceLocation?)
  }

  private struct WeakRegistry {
    weak var registry: StubRegistry?
  }

  /// Why a registry went away, put into words only when a late request reads it, and where that
  /// request is reported.
  typealias Retirement = (reason: RetirementReason, reportAt: SourceLocation?)

  private struct State {
    var next = 1
    var live: [Int: WeakRegistry] = [:]
    var retired: RetiredReasons
    /// Identifiers no registry gets, refused for the life of the process.
    var closed: [Int: String] = [:]
  }

  /// How many retired registries keep their reasons.
  let reasonCapacity: Int

  // Guards the identifier counter, the live registries and why retired ones went away.
  private let state: Locked<State>

  /// - Parameter reasonCapacity: How many retired registries keep their reasons; tests make
  ///   small directories of their own, so they never push another test's reasons out of the
  ///   shared one.
  init(reasonCapacity: Int = 1_024) {
    self.reasonCapacity = reasonCapacity
    state = Locked(State(retired: RetiredReasons(capacity: reasonCapacity)))
  }

  func allocateID() -> Int {
    state.withLock { state in
      defer { state.next += 1 }
      return state.next
    }
  }

  func register(_ registry: StubRegistry) {
    register(registry, as: registry.id)
  }

  /// Files `registry` under `id`; tests of a directory of their own pass identifiers it made.
  func register(_ registry: StubRegistry, as id: Int) {
    state.withLock { $0.live[id] = WeakRegistry(registry: registry) }
  }

  /// Marks live registry `id` as gone; later requests from its sessions fail with `reason`.
  /// The first retirement stands (a scope ends, then its registry is deallocated).
  func retire(_ id: Int, reason: RetirementReason, reportAt location: SourceLocation? = nil) {
    state.withLock { state in
      guard state.live.removeValue(forKey: id) != nil else { return }
      state.retired.insert(id, (reason, location))
    }
  }

  /// Refuses `id`, which no registry gets, with `reason` for the life of the process.
  func close(_ id: Int, reason: String) {
    state.withLock { $0.closed[id] = reason }
  }

  func lookup(_ id: Int) -> Lookup {
    state.withLock { state in
      if let registry = state.live[id]?.registry { return .live(registry) }
      if let retired = state.retired[id] {
        return .retired(retired.reason.description, reportAt: retired.reportAt)
      }
      if let reason = state.closed[id] { return .retired(reason, reportAt: nil) }
      if state.live[id] != nil {
        return .retired("its StubRegistry was deallocated", reportAt: nil)
      }
      return .retired(
        "its StubRegistry (number \(id) of this process) was retired: its test scope ended or it "
          + "was deallocated, more than \(reasonCapacity) registries ago, so which test it served "
          + "is no longer kept",
        reportAt: nil)
    }
  }

  /// How many retired registries' reasons are kept now.
  var keptReasons: Int { state.withLock { $0.retired.count } }
}

/// The reasons of the most recently retired registries; the oldest retirement is dropped first
/// once `capacity` are kept.
///
/// A ring, searched from end to end: every test's scope retires a registry, and only a request
/// that arrives after its test ended reads a reason. A dictionary hashed each retirement in and
/// out of a table the next scope found cold; the ring writes one slot after the last.
private struct RetiredReasons {
  private let capacity: Int
  /// Retirements in order, as a ring: `ring[oldest]` is overwritten next once it is full.
  private var ring: [(id: Int, retirement: RegistryDirectory.Retirement)] = []
  private var oldest = 0

  init(capacity: Int) {
    self.capacity = max(1, capacity)
  }

  var count: Int { ring.count }

  /// An identifier is retired once (the directory drops it from the live ones first), so the
  /// ring holds it at most once.
  subscript(id: Int) -> RegistryDirectory.Retirement? {
    ring.first { $0.id == id }?.retirement
  }

  mutating func insert(_ id: Int, _ retirement: RegistryDirectory.Retirement) {
    guard ring.count == capacity else {
      ring.append((id, retirement))
      return
    }
    ring[oldest] = (id, retirement)
    oldest = (oldest + 1) % capacity
  }
}
