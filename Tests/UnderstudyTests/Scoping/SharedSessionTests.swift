import Testing

@testable import Understudy

/// `URLSession.shared`, for code that cannot be handed a session. These tests wait for each other
/// (only for each other) because the shared session is one per process.
@Suite struct SharedSessionTests {
  @Test(
    .stubs(interceptingSharedSession: true) { $0.stub(.get("https://legacy.test/a"), .text("A")) })
  func sharedSessionIsAnsweredByTheTestsRegistry() async throws {
    #expect(SharedSessionInterception.install() == .active)
    #expect(try await URLSession.shared.text(from: URL(string: "https://legacy.test/a")!) == "A")
  }

  @Test(
    .stubs(interceptingSharedSession: true) { $0.stub(.get("https://legacy.test/a"), .text("B")) })
  func anotherTestOwnsTheSharedSessionOnlyAfterTheFirstEnds() async throws {
    #expect(SharedSessionInterception.owner === StubRegistry.current)
    #expect(try await URLSession.shared.text(from: URL(string: "https://legacy.test/a")!) == "B")
  }
}
