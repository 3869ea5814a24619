extension StubRegistry {
  /// Runs `action` when this registry's test scope ends (``endScope(testName:verifying:location:)``),
  /// before verification; at once when it has already ended. The loopback server uses it to
  /// close its listener with the scope that started it.
  package func onScopeEnd(_ action: @escaping @Sendable () -> Void) {
    let now = ScopeEndActions.shared.withLock { actions -> Bool in
      if scopeState.withLock({ $0.ended }) { return true }
      actions[id, default: []].append(action)
      return false
    }
    if now { action() }
  }

  /// Runs and forgets the actions registered with ``onScopeEnd(_:)``.
  func runScopeEndActions() {
    let actions = ScopeEndActions.shared.withLock { $0.removeValue(forKey: id) } ?? []
    for action in actions { action() }
  }
}

/// Actions waiting for a registry's scope to end, by registry identifier. Kept outside the
/// registry so the registry's stored state stays what the `URLProtocol` path needs.
private enum ScopeEndActions {
  static let shared = Locked<[Int: [@Sendable () -> Void]]>([:])
}
