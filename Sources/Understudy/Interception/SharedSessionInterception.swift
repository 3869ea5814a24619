/// Interception of `URLSession.shared`, for code under test that cannot be handed a session.
///
/// Registration is process-wide, so at most one test owns the shared session at a time: tests
/// that rely on it wait for each other (and only for each other). Everywhere else, prefer
/// sessions from a registry; they need no registration and run in parallel.
///
/// **Linux.** FoundationNetworking copies the registered protocol classes into
/// `URLSession.shared` when the process creates its first `URLSession`; a class registered later
/// never reaches it. ``install()`` checks this and says so, so a test never silently reaches the
/// network. Sessions that code builds itself from `.default` or `.ephemeral` configurations are
/// not reached by registration on either platform: inject those.
public enum SharedSessionInterception {
  /// Whether interception of `URLSession.shared` is in effect.
  public enum Status: Sendable, Hashable {
    /// Requests through `URLSession.shared` reach Understudy.
    case active
    /// They do not; the text says why and how to fix it.
    case inactive(String)
  }

  // Guards the registry that owns the shared session now.
  private static let ownerState = Locked<StubRegistry?>(nil)

  /// Registers Understudy's protocol for `URLSession.shared` (once) and reports whether it took.
  ///
  /// The `.stubs(interceptingSharedSession: true)` trait calls this while Swift Testing discovers
  /// tests, before any test body can create a session.
  @discardableResult
  public static func install() -> Status {
    installation
  }

  private static let installation: Status = {
    RegistryDirectory.shared.close(
      SharedSessionTag.unowned,
      reason:
        "no test that stubs URLSession.shared is running (use the "
        + "`.stubs(interceptingSharedSession: true)` trait or `withSharedSessionStubs`)")
    _ = URLProtocol.registerClass(TaggedInterceptingProtocol<SharedSessionTag>.self)
    #if canImport(FoundationNetworking)
      let classes = URLSession.shared.configuration.protocolClasses ?? []
      guard let first = classes.first, first == TaggedInterceptingProtocol<SharedSessionTag>.self
      else {
        return .inactive(
          "URLSession.shared was created before Understudy registered its protocol, so "
            + "FoundationNetworking will never route it to Understudy in this process (Linux copies "
            + "the registered classes into URLSession.shared when the first URLSession is "
            + "created). Fix: make sure nothing creates a URLSession before the tests are "
            + "discovered (for example a static property initialised at load time), or call "
            + "`SharedSessionInterception.install()` first; better still, inject a session from "
            + "the test's StubRegistry into the code under test.")
      }
    #endif
    return .active
  }()

  /// The registry answering `URLSession.shared` now, if any.
  static var owner: StubRegistry? { ownerState.current }

  /// Makes `registry` answer `URLSession.shared` while `body` runs; callers serialize through
  /// ``SharedSessionLock``.
  static func withOwner<Result>(
    _ registry: StubRegistry, _ body: () async throws -> Result
  ) async rethrows -> Result {
    ownerState.withLock { $0 = registry }
    defer { ownerState.withLock { $0 = nil } }
    return try await body()
  }

  static func withOwner<Result>(_ registry: StubRegistry, _ body: () throws -> Result) rethrows
    -> Result
  {
    ownerState.withLock { $0 = registry }
    defer { ownerState.withLock { $0 = nil } }
    return try body()
  }
}

/// Routes the shared session's protocol class to whichever registry owns it at request time.
enum SharedSessionTag: ScopeTag {
  /// An identifier no registry gets, retired with the reason requests are refused.
  static let unowned = 0

  static var id: Int { SharedSessionInterception.owner?.id ?? unowned }
}

/// A first-come, first-served lock for tests that take over `URLSession.shared`.
actor SharedSessionLock {
  static let shared = SharedSessionLock()

  private var held = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  func acquire() async {
    if !held {
      held = true
      return
    }
    await withCheckedContinuation { waiters.append($0) }
  }

  func release() {
    if waiters.isEmpty {
      held = false
    } else {
      waiters.removeFirst().resume()
    }
  }
}
