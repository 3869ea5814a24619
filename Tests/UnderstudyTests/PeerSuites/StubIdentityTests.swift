import Testing

@testable import Understudy

/// Hippolyte's `StubRequestTests` keep stubs in sets and compare them: a stub is a registration,
/// equal only to itself, so two registrations of one pattern stay two members.
@Suite struct StubIdentityTests {
  @Test func stubsCompareAndHashByRegistration() {
    let registry = StubRegistry()
    let first = registry.stub(.get("/users"), .ok)
    let second = registry.stub(.get("/users"), .ok)
    #expect(first == first)
    #expect(first != second)
    let set: Set<Stub> = [first, second, first]
    #expect(set.count == 2)
    #expect(Set(registry.stubs) == set)
    registry.remove(first)
    #expect(Set(registry.stubs) == [second])
  }
}
