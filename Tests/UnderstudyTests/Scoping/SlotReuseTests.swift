import Testing

@testable import Understudy

/// When a registry's protocol class is lent to a newer registry: only once no request can reach
/// it. The directory tests use a directory of their own, so tests running at once cannot take
/// the slot they watch.
@Suite struct SlotReuseTests {
  private final class Box<Value: AnyObject> {
    weak var value: Value?
    init(_ value: Value) { self.value = value }
  }

  @Test func aSlotIsLentAgainOnlyAfterItsRegistryIsRetiredAndDeallocated() throws {
    let directory = RegistryDirectory()
    var registry: StubRegistry? = StubRegistry()
    let first = directory.allocate()
    directory.register(registry!, at: first)
    // Live, then retired but still referenced: someone could still ask it for a session.
    #expect(directory.allocate().slot != first.slot)
    directory.retire(first, reason: "its test t() ended")
    #expect(directory.allocate().slot != first.slot)
    registry = nil
    let again = directory.allocate()
    #expect(again == RegistryDirectory.Ticket(slot: first.slot, generation: 1))
  }

  @Test func aSlotWaitsForEverySessionItsRegistryMade() async throws {
    let directory = RegistryDirectory()
    let first = directory.allocate()
    var session: URLSession? = URLSession(configuration: .ephemeral)
    let watched = Box(session!)
    do {
      let registry = StubRegistry()
      directory.register(registry, at: first)
      directory.track(session!, at: first)
      directory.retire(first, reason: "its test t() ended")
    }
    #expect(directory.allocate().slot != first.slot)
    session!.invalidateAndCancel()
    session = nil
    // FoundationNetworking lets go of an invalidated session on its own queue, a little later.
    try await eventually { watched.value == nil }
    #expect(directory.allocate() == RegistryDirectory.Ticket(slot: first.slot, generation: 1))
  }

  @Test func aSlotWhoseClassLeftTheLibraryIsNeverLentAgain() throws {
    let directory = RegistryDirectory()
    let first = directory.allocate()
    do {
      let registry = StubRegistry()
      directory.register(registry, at: first)
      directory.markEscaped(first)
      directory.retire(first, reason: "its test t() ended")
    }
    for _ in 0..<8 { #expect(directory.allocate().slot != first.slot) }
    guard case .retired(let reason, _) = directory.lookup(first.slot) else {
      Issue.record("an escaped slot was bound again")
      return
    }
    #expect(reason == "its test t() ended")
  }

  @Test func aLateRetirementOfTheOldRegistryLeavesTheNewOneLive() throws {
    let directory = RegistryDirectory()
    let first = directory.allocate()
    do {
      let registry = StubRegistry()
      directory.register(registry, at: first)
      directory.retire(first, reason: "its test t() ended")
    }
    let second = directory.allocate()
    #expect(second.slot == first.slot)
    var newer: StubRegistry? = StubRegistry()
    directory.register(newer!, at: second)
    // What the predecessor's ticket says now must not reach the newer registry's binding.
    let stray = URLSession(configuration: .ephemeral)
    directory.retire(first, reason: "its StubRegistry was deallocated")
    directory.markEscaped(first)
    directory.track(stray, at: first)
    #expect(isLive(newer!, in: directory, at: second.slot))
    directory.retire(second, reason: "done")
    newer = nil
    withExtendedLifetime(stray) {
      #expect(directory.allocate() == RegistryDirectory.Ticket(slot: first.slot, generation: 2))
    }
  }

  private func isLive(_ registry: StubRegistry, in directory: RegistryDirectory, at slot: Int)
    -> Bool
  {
    guard case .live(let found) = directory.lookup(slot) else { return false }
    return found === registry
  }

  /// End to end, in the shared directory: registries come and go after the old one (so slots
  /// are lent again), and the session the old one made still hears that its registry is gone.
  @Test func aKeptSessionIsNeverAnsweredByARegistryThatReusesItsSlot() async throws {
    var old: StubRegistry? = StubRegistry()
    old!.stub(.get("/x"), .text("old"))
    let kept = old!.makeSession()
    let oldSlot = old!.id
    old = nil
    var slots: Set<Int> = []
    for _ in 0..<12 {
      let registry = StubRegistry()
      registry.stub(.get("/x"), .text("new"))
      slots.insert(registry.id)
      let session = registry.makeSession()
      #expect(try await session.text(from: URL(string: "https://api.test/x")!) == "new")
      session.invalidateAndCancel()
    }
    #expect(!slots.contains(oldSlot))
    let error = try await #require(throws: URLError.self) {
      try await kept.data(from: URL(string: "https://api.test/x")!)
    }
    #expect(error.localizedDescription.contains("arrived after its StubRegistry"))
  }

  @Test func aSessionMadeFromAnEscapedConfigurationKeepsItsSlotRetired() async throws {
    var old: StubRegistry? = StubRegistry()
    old!.stub(.get("/x"), .text("old"))
    let configuration = old!.makeSessionConfiguration()
    let oldSlot = old!.id
    old = nil
    for _ in 0..<12 {
      let registry = StubRegistry()
      #expect(registry.id != oldSlot)
    }
    let error = try await #require(throws: URLError.self) {
      try await URLSession(configuration: configuration).data(
        from: URL(string: "https://api.test/x")!)
    }
    #expect(error.localizedDescription.contains("arrived after its StubRegistry"))
  }
}
