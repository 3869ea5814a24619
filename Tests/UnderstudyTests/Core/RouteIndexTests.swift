import Testing

@testable import Understudy

/// The route index narrows the stubs tried for a request; it must never change which stub
/// answers. Every answer here is checked against trying every stub, newest first.
@Suite struct RouteIndexTests {
  @Test func templatesAtDifferentDepthsKeepRegistrationOrder() {
    let registry = StubRegistry()
    registry.stub(.get("/api/{version}/items"), .ok, name: "one literal")
    registry.stub(.get("/api/v1/{id}"), .ok, name: "two literals")
    #expect(winner(registry, "/api/v1/items") == "two literals")
    registry.stub(.get("/api/{version}/items"), .ok, name: "one literal, newer")
    #expect(winner(registry, "/api/v1/items") == "one literal, newer")
    #expect(winner(registry, "/api/v2/items") == "one literal, newer")
    #expect(winner(registry, "/api/v2/other") == nil)
  }

  @Test func exactTemplateAndUnindexedStubsInterleave() {
    let registry = StubRegistry()
    registry.stub(.get("/users/7"), .ok, name: "exact")
    registry.stub(.get("/users/{id}"), .ok, name: "template")
    #expect(winner(registry, "/users/7") == "template")
    registry.stub(.path(matching: "^/users/"), .ok, name: "regex")
    #expect(winner(registry, "/users/7") == "regex")
    let newest = registry.stub(.get("/users/7"), .ok, name: "exact, newest")
    #expect(winner(registry, "/users/7") == "exact, newest")
    registry.remove(newest)
    #expect(winner(registry, "/users/7") == "regex")
  }

  @Test func templatesThatCannotBeIndexedStillMatch() {
    let registry = StubRegistry()
    registry.stub(.get("/{tenant}/users"), .ok, name: "placeholder first")
    registry.stub(.get("/a%2520b/{id}"), .ok, name: "percent in a literal")
    registry.stub(.get("/a%2Fb/{id}"), .ok, name: "encoded slash")
    registry.stub(.get("/files/{path...}"), .ok, name: "remainder")
    #expect(winner(registry, "/acme/users") == "placeholder first")
    #expect(winner(registry, "/a%20b/7") == "percent in a literal")
    #expect(winner(registry, "/a%2Fb/7") == "encoded slash")
    #expect(winner(registry, "/a/b/7") == nil)
    #expect(winner(registry, "/files/x/y/z.txt") == "remainder")
    #expect(winner(registry, "/files/") == nil)
  }

  @Test func usedUpIndexedTemplatesStepAside() {
    let registry = StubRegistry()
    registry.stub(.get("/orders/{id}"), .ok, name: "fallback")
    registry.stub(.get("/orders/{id}"), .ok, limit: .once, name: "once")
    #expect(winner(registry, "/orders/1") == "once")
    #expect(winner(registry, "/orders/1") == "fallback")
  }

  /// Random registries of every kind of path pattern, random requests: the indexed answer is
  /// always the newest stub whose pattern matches.
  @Test(arguments: 0..<200) func indexedAnswersEqualTryingEveryStub(seed: UInt64) {
    var random = SplitMix(seed: seed)
    let words = ["a", "b", "users", "v1", "a%20b", "x%2Fy", ""]
    func segment() -> String { words[Int(random.next() % UInt64(words.count))] }
    func path(segments: Int) -> String {
      "/" + (0..<segments).map { _ in segment() }.joined(separator: "/")
    }
    let registry = StubRegistry(journalCapacity: 0)
    for index in 0..<30 {
      let depth = 1 + Int(random.next() % 3)
      var parts = path(segments: depth).dropFirst().split(
        separator: "/", omittingEmptySubsequences: false
      ).map(String.init)
      let pattern: RequestPattern
      switch random.next() % 5 {
      case 0:
        pattern = .path("/" + parts.joined(separator: "/"))
      case 1:
        parts[Int(random.next() % UInt64(parts.count))] = "{p}"
        pattern = .path("/" + parts.joined(separator: "/"))
      case 2:
        for index in parts.indices where random.next() % 2 == 0 { parts[index] = "{p\(index)}" }
        pattern = .path("/" + parts.joined(separator: "/"))
      case 3:
        parts[parts.count - 1] = "{rest...}"
        pattern = .path("/" + parts.joined(separator: "/"))
      default:
        pattern = .path(prefix: "/" + parts[0])
      }
      registry.stub(
        pattern, .ok, limit: random.next() % 4 == 0 ? .once : .unlimited, name: "\(index)")
    }
    for _ in 0..<60 {
      let target = path(segments: 1 + Int(random.next() % 4))
      let expected = bruteForceWinner(registry, target)
      #expect(winner(registry, target) == expected, "request \(target)")
    }
  }

  /// The stub that answers `path`, consuming a use of it as a real request would.
  private func winner(_ registry: StubRegistry, _ path: String) -> String? {
    let request = InterceptedRequest(url: URL(string: "https://api.test" + path)!)
    let before = registry.stubs.map(\.callCount)
    guard case .respond = registry.resolve(request, userCode: nil)?.resolution else { return nil }
    let used = zip(registry.stubs, before).filter { $0.0.callCount > $0.1 }.map(\.0)
    #expect(used.count == 1, "one stub answers \(path)")
    return used.first?.name
  }

  /// What trying every stub in turn, newest first, would answer (without consuming anything).
  private func bruteForceWinner(_ registry: StubRegistry, _ path: String) -> String? {
    let request = InterceptedRequest(url: URL(string: "https://api.test" + path)!)
    return registry.stubs.reversed().first { stub in
      !stub.isExhausted && stub.pattern.match(request) != nil
    }?.name
  }
}

/// A small deterministic generator, so a failing seed can be rerun.
struct SplitMix: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed &+ 0x9E37_79B9_7F4A_7C15
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
