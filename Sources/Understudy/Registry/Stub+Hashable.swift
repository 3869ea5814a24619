/// A stub is one registration: two calls to `stub(_:_:)` with the same pattern and response are
/// two stubs, each with its own limit, call count and requests, so stubs compare by identity.
/// That is what a set of stubs (Hippolyte's `Set<StubRequest>`) needs to hold the ones a test
/// registered, and what ``StubRegistry/remove(_:)`` removes.
extension Stub: Hashable {
  /// Whether `lhs` and `rhs` are the same registration.
  public static func == (lhs: Stub, rhs: Stub) -> Bool { lhs === rhs }

  /// Hashes the registration's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}
