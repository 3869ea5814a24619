import Foundation
import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(Testing)
  import Testing
#endif
#if canImport(XCTest) && os(Linux)
  import XCTest
#endif

/// What a test pays for its scope: a registry made, one stub declared, a session made, one
/// request answered, the session invalidated and the scope ended and verified (issue 17). The
/// floor does what a test without Understudy would: a session with the trivial protocol, one
/// request, the session invalidated.
///
/// The rows count scopes, not requests: one timed run is a fifth of `--requests` scopes (1,000 by
/// default), so the columns read microseconds per scope.
enum ScopeScenarios {
  static let group = "test scopes"

  static var all: [Scenario] {
    var scenarios: [Scenario] = []
    #if canImport(Testing)
      scenarios.append(
        Scenario(group: group, name: "1,000 test scopes, .stubs trait") { context in
          [try await compare("1,000 test scopes, .stubs trait", traitScopes(), context)]
        })
    #endif
    #if canImport(XCTest) && os(Linux)
      scenarios.append(
        Scenario(group: group, name: "1,000 test scopes, withStubs") { context in
          [try await compare("1,000 test scopes, withStubs", withStubsScopes(), context)]
        })
      scenarios.append(
        Scenario(group: group, name: ephemeralScopes) { context in
          [
            try await compare(
              ephemeralScopes, withStubsScopes(configuration: { .ephemeral }), context, bar: nil,
              note: "µs per scope; both sessions from .ephemeral: what the scope's machinery adds")
          ]
        })
    #endif
    return scenarios + parts
  }

  /// What each part of a scope adds to the floor's session and request, step by step: a
  /// registry made and released beside the floor's session, then one stub declared in it, then
  /// its protocol class minted, then the request sent through the registry's own session instead
  /// of the floor's, made from `.ephemeral` as the floor's is (no scope end; the `withStubs` row
  /// with a session from `.ephemeral` adds that). Each row's difference from the one before is
  /// what that step costs; they explain what the machinery of a scope costs and have no bar.
  private static var parts: [Scenario] {
    let steps: [(String, @Sendable (Int) async throws -> Void)] = [
      (
        "1. a registry made and released",
        { count in
          for _ in 0..<count { try await floorScope(beside: StubRegistry()) }
        }
      ),
      (
        "2. + one stub declared",
        { count in
          for _ in 0..<count { try await floorScope(beside: stubbedRegistry()) }
        }
      ),
      (
        "3. + its protocol class minted",
        { count in
          for _ in 0..<count {
            let registry = stubbedRegistry()
            _ = registry.protocolClass
            try await floorScope(beside: registry)
          }
        }
      ),
      (
        "4. + the request through its session",
        { count in
          for _ in 0..<count {
            try await oneRequest(stubbedRegistry(), configuration: { .ephemeral })
          }
        }
      ),
    ]
    return steps.map { step, workload in
      Scenario(group: partsGroup, name: step, fullRunOnly: true) { context in
        [
          try await compare(
            step, workload, context, group: partsGroup, bar: nil,
            note: "µs per scope; the step is the difference from the row above")
        ]
      }
    }
  }

  static let partsGroup = "test scope parts"

  private static func stubbedRegistry() -> StubRegistry {
    let registry = StubRegistry()
    declareStub(in: registry)
    return registry
  }

  /// The one stub every scope declares, in every row alike.
  private static func declareStub(in registry: StubRegistry) {
    registry.stub(.get(url), StubScenarios.json(CannedResponse.floorBody))
  }

  /// One floor scope, with `registry` alive beside it until the session is invalidated.
  private static func floorScope(beside registry: StubRegistry) async throws {
    try await floorScopes(1)
    withExtendedLifetime(registry) {}
  }

  private static let url = CannedResponse.origin + "/items/1"
  private static let request = URLRequest(url: URL(string: url)!)

  private static func compare(
    _ scenario: String, _ scopes: @escaping Workload, _ context: BenchmarkContext,
    group: String = group, bar: Bar? = .scopes,
    note: String = "µs per scope: registry, stub, session, one request, invalidate, verify"
  )
    async throws -> Row
  {
    var plan = context.plan
    plan.requestsPerRun = max(1, plan.requestsPerRun / 5)
    plan.warmUp = max(1, plan.warmUp / 5)
    let comparison = try await PairedRuns.compare(floor: floorScopes, subject: scopes, plan: plan)
    return .compared(
      group, scenario, comparison, bar: bar, note: note)
  }

  /// A session with the trivial protocol per scope, one request, then invalidated.
  private static func floorScopes(_ count: Int) async throws {
    for _ in 0..<count {
      let session = FloorProtocol.makeSession()
      let (data, response) = try await session.data(for: request)
      try Workloads.check(data, response, CannedResponse.floorBody)
      session.invalidateAndCancel()
    }
  }

  /// The `withStubs` row with the session made from `.ephemeral`, as the floor's is: Understudy's
  /// own sessions start from a configuration that skips what `.ephemeral` builds on Linux and the
  /// registry drops (its `URLCache`), which saves more than the rest of a scope costs. This row
  /// keeps the cost of the rest in view, against the same session on both sides.
  static let ephemeralScopes = "1,000 test scopes on .ephemeral sessions (withStubs)"

  /// The body every Understudy scope runs with its registry current; `configuration` makes the
  /// session's starting configuration (`nil`: the registry's default).
  private static func oneRequest(
    _ registry: StubRegistry, configuration: () -> URLSessionConfiguration? = { nil }
  ) async throws {
    let session = registry.makeSession(configuration: configuration())
    let (data, response) = try await session.data(for: request)
    try Workloads.check(data, response, CannedResponse.floorBody)
    session.invalidateAndCancel()
  }

  #if canImport(Testing)
    /// Each scope is what Swift Testing runs for a test with `.stubs { … }`: the trait's
    /// `provideScope`, which makes the registry, runs the trait's closure, makes the registry
    /// current for the body, then ends and verifies it. Swift Testing's own cost per test, which
    /// a test pays with or without the trait, is not in it. The `Test` is built the way the
    /// `@Test` macro builds one (`Test.__function`, the macro's entry point).
    private static func traitScopes() -> Workload {
      let trait: StubsTrait = .stubs {
        declareStub(in: $0)
      }
      let test = Test.__function(
        named: "oneRequest()", in: nil as Never.Type?, xcTestCompatibleSelector: nil,
        traits: [trait],
        sourceLocation: Testing.SourceLocation(
          fileID: #fileID, filePath: #filePath, line: #line, column: #column)
      ) {}
      return { count in
        for _ in 0..<count {
          try await trait.provideScope(for: test, testCase: nil) {
            try await oneRequest(StubRegistry.current!)
          }
        }
      }
    }
  #endif

  #if canImport(XCTest) && os(Linux)
    /// An XCTest case to call `withStubs` on; it never runs as a test. Linux only: this
    /// initialiser is swift-corelibs-xctest's, and on Darwin XCTest is not meant to be linked
    /// into an executable (not tried there).
    private final class ScopeCase: XCTestCase {}

    /// Each scope is `withStubs { … }` in an XCTest case, declaring the stub in its body.
    private static func withStubsScopes(
      configuration: @escaping @Sendable () -> URLSessionConfiguration? = { nil }
    ) -> Workload {
      let testCase = ScopeCase(name: "testOneRequest", testClosure: { _ in })
      return { count in
        for _ in 0..<count {
          try await testCase.withStubs { registry in
            declareStub(in: registry)
            try await oneRequest(registry, configuration: configuration)
          }
        }
      }
    }
  #endif
}
