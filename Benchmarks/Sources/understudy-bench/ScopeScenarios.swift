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
    #endif
    return scenarios
  }

  private static let url = CannedResponse.origin + "/items/1"
  private static let request = URLRequest(url: URL(string: url)!)

  private static func compare(
    _ scenario: String, _ scopes: @escaping Workload, _ context: BenchmarkContext
  )
    async throws -> Row
  {
    var plan = context.plan
    plan.requestsPerRun = max(1, plan.requestsPerRun / 5)
    plan.warmUp = max(1, plan.warmUp / 5)
    let comparison = try await PairedRuns.compare(floor: floorScopes, subject: scopes, plan: plan)
    return .compared(
      group, scenario, comparison, bar: .scopes,
      note: "µs per scope: registry, stub, session, one request, invalidate, verify")
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

  /// The body every Understudy scope runs with its registry current.
  private static func oneRequest(_ registry: StubRegistry) async throws {
    let session = registry.makeSession()
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
        $0.stub(.get(url), StubScenarios.json(CannedResponse.floorBody))
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
    private static func withStubsScopes() -> Workload {
      let testCase = ScopeCase(name: "testOneRequest", testClosure: { _ in })
      return { count in
        for _ in 0..<count {
          try await testCase.withStubs { registry in
            registry.stub(.get(url), StubScenarios.json(CannedResponse.floorBody))
            try await oneRequest(registry)
          }
        }
      }
    }
  #endif
}
