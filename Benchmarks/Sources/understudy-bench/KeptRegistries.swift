import Synchronization
import Understudy

/// Scenarios whose registry holds many stubs never free it: it stays until the process exits.
///
/// The last reference to a registry is not always the scenario's: the protocol instance that
/// answered the last request holds it on URLSession's work queue until `startLoading` unwinds,
/// which may be after the awaiting task has resumed. Freeing 10,000 stubs takes about 95 million
/// instructions; when that thread dropped the reference last, the freeing raced the process's
/// exit, and the instruction counts (Tools/instruction-ratios.py) swung by that much between
/// runs of one binary (0.86x or 1.62x for the 10,000-stub row). Waiting for the registry's weak
/// reference to clear is not enough, since it clears when the freeing starts.
enum KeptRegistries {
  private static let kept = Mutex<[StubRegistry]>([])

  static func run(
    _ make: () -> StubRegistry, _ body: (StubRegistry) async throws -> [Row]
  ) async throws -> [Row] {
    let registry = make()
    kept.withLock { $0.append(registry) }
    return try await body(registry)
  }
}
