import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension MockerPortTests {
  /// Mocker's `ignore(_:)` and its `.optout`/`.optin` modes: which requests no stub answers
  /// reach the network. Mocker asks `MockingURLProtocol.canInit(with:)`; here each request is
  /// sent, and "reaches the network" means the suite's loopback server saw it.
  @Suite struct Unmocked {
    /// A path on the loopback server no other test sends.
    static func uniquePath(_ name: String) -> String {
      "/echo/\(name)-\(UUID().uuidString)"
    }

    /// Whether the loopback server answered `url` itself: its echo names the path it received.
    static func reachedServer(_ session: URLSession, _ url: URL) async throws -> Bool {
      let (data, _) = try await session.data(from: url)
      let echoed = try? JSONDecoder().decode(EchoedRequest.self, from: data)
      return echoed?.path == url.path
    }

    /// Mocker's `testIgnoreURLs`: before the URL is let through it fails unmatched; after, it
    /// reaches the server.
    @Test func aURLLetThroughReachesTheServer() async throws {
      let server = try await LoopbackServer.shared()
      let url = server.url(Self.uniquePath("ignored"))
      let registry = StubRegistry()
      let session = registry.makeSession()
      let before = try await errorOf { try await session.data(from: url) }
      #expect(before?.code == .resourceUnavailable)
      registry.stub(.url(url), .passThrough())
      #expect(try await Self.reachedServer(session, url))
    }

    /// Mocker's `testIgnoreURLsIgnoreQueries`: a URL let through without a query lets its
    /// queried forms through too.
    @Test func aURLLetThroughWithoutAQueryLetsQueriesThrough() async throws {
      let server = try await LoopbackServer.shared()
      let path = Self.uniquePath("sample-image.png")
      let queried = server.url(path + "?width=200&height=200")
      let registry = StubRegistry()
      let session = registry.makeSession()
      #expect(
        try await errorOf { try await session.data(from: queried) }?.code == .resourceUnavailable)
      registry.stub(.get(server.url(path).absoluteString), .passThrough())
      #expect(try await Self.reachedServer(session, queried))
    }

    /// Mocker's `testIgnoreURLsIgnorePrefixes`: a prefix let through lets through what is below
    /// it and itself.
    @Test func aPrefixLetThroughLetsItsSubpathsAndItselfThrough() async throws {
      let server = try await LoopbackServer.shared()
      let prefix = Self.uniquePath("private")
      let below = server.url(prefix + "/sample-image.png")
      let registry = StubRegistry()
      let session = registry.makeSession()
      #expect(
        try await errorOf { try await session.data(from: below) }?.code == .resourceUnavailable)
      registry.stub(.path(prefix: prefix), .passThrough())
      #expect(try await Self.reachedServer(session, below))
      #expect(try await Self.reachedServer(session, server.url(prefix)))
    }

    /// Mocker's `testMockerOptoutMode`: stubbed requests are answered, let-through ones reach
    /// the server, and any other fails without reaching it.
    @Test func byDefaultAnUnknownRequestFailsWithoutReachingTheServer() async throws {
      let server = try await LoopbackServer.shared()
      let mocked = server.url(Self.uniquePath("mocked"))
      let ignored = server.url(Self.uniquePath("ignored"))
      let unknown = server.url(Self.uniquePath("unknown"))
      let registry = StubRegistry()
      registry.stub(.get(mocked.absoluteString), .text("stubbed"))
      registry.stub(.url(ignored), .passThrough())
      let session = registry.makeSession()
      #expect(try await session.data(from: mocked).0 == Data("stubbed".utf8))
      #expect(try await Self.reachedServer(session, ignored))
      #expect(
        try await errorOf { try await session.data(from: unknown) }?.code == .resourceUnavailable)
      #expect(registry.unmatchedReports.count == 1)
      #expect(try await !server.log().contains { $0.path == unknown.path })
      #expect(try await !server.log().contains { $0.path == mocked.path })
    }

    /// Mocker's `testMockerOptinMode`: with pass-through as the policy, an unknown request
    /// reaches the server, and stubbed ones are still answered by their stubs.
    @Test func aPassThroughRegistryLetsUnknownRequestsReachTheServer() async throws {
      let server = try await LoopbackServer.shared()
      let mocked = server.url(Self.uniquePath("mocked"))
      let ignored = server.url(Self.uniquePath("ignored"))
      let unknown = server.url(Self.uniquePath("unknown"))
      let registry = StubRegistry(unmatchedRequests: .passThrough)
      registry.stub(.get(mocked.absoluteString), .text("stubbed"))
      registry.stub(.url(ignored), .passThrough())
      let session = registry.makeSession()
      #expect(try await session.data(from: mocked).0 == Data("stubbed".utf8))
      #expect(try await Self.reachedServer(session, ignored))
      #expect(try await Self.reachedServer(session, unknown))
    }

    /// Mocker's `testDefaultMode`: the default is to fail what no stub answers (`.optout`).
    @Test func theDefaultPolicyFailsUnmatchedRequests() {
      guard case .fail = StubRegistry().unmatchedRequests else {
        Issue.record("A new registry should fail unmatched requests")
        return
      }
    }
  }
}
