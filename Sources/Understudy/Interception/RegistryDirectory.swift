/// Finds the registry behind a protocol class's identifier.
///
/// Identifiers are never reused: a session that outlives its registry must hear that its
/// registry is gone, never be answered by a newer registry that happened to get the same number.
final class RegistryDirectory: Sendable {
  static let shared = RegistryDirectory()

  enum Lookup {
    case live(StubRegistry)
    /// Why the registry is gone, and whether a late request should be recorded as an issue.
    case retired(String, reportAsIssue: Bool)
  }

  private struct WeakRegistry {
    weak var registry: StubRegistry?
  }

  // Guards the identifier counter, the live registries and why retired ones went away.
  private let state = Locked<
    (next: Int, live: [Int: WeakRegistry], retired: [Int: (reason: String, report: Bool)])
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
  func retire(_ id: Int, reason: String, reportAsIssue: Bool = false) {
    state.withLock { state in
      state.live[id] = nil
      if state.retired[id] == nil { state.retired[id] = (reason, reportAsIssue) }
    }
  }

  func lookup(_ id: Int) -> Lookup {
    state.withLock { state in
      if let registry = state.live[id]?.registry { return .live(registry) }
      let retired = state.retired[id] ?? ("its StubRegistry was deallocated", false)
      return .retired(retired.reason, reportAsIssue: retired.report)
    }
  }
}
