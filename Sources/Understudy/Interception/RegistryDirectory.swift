/// Finds the registry behind a protocol class's identifier.
///
/// Identifiers are never reused: a session that outlives its registry must hear that its
/// registry is gone, never be answered by a newer registry that happened to get the same number.
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

  // Guards the identifier counter, the live registries and why retired ones went away.
  private let state = Locked<
    (
      next: Int, live: [Int: WeakRegistry],
      retired: [Int: (reason: String, reportAt: SourceLocation?)]
    )
  >((1, [:], [:]))

  func allocateID() -> Int {
    state.withLock { state in
      defer { state.next += 1 }
      return state.next
    }
  }

  func register(_ registry: StubRegistry) {
    state.withLock { $0.live[registry.id] = WeakRegistry(registry: registry) }
  }

  /// Marks `id` as gone; later requests from its sessions fail with `reason`.
  func retire(_ id: Int, reason: String, reportAt location: SourceLocation? = nil) {
    state.withLock { state in
      state.live[id] = nil
      if state.retired[id] == nil { state.retired[id] = (reason, location) }
    }
  }

  func lookup(_ id: Int) -> Lookup {
    state.withLock { state in
      if let registry = state.live[id]?.registry { return .live(registry) }
      let retired = state.retired[id] ?? ("its StubRegistry was deallocated", nil)
      return .retired(retired.reason, reportAt: retired.reportAt)
    }
  }
}
