import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Mocker's `cacheStoragePolicy` tests: when a registry `cachesResponses`, an answer HTTP lets a
/// cache keep is kept, and answers again without asking the stub while fresh; without one,
/// nothing is cached, as before.
@Suite struct ResponseCachingTests {
  private let url = URL(string: "https://api.test/catalog")!

  private func cachingRegistry() -> StubRegistry {
    let registry = StubRegistry()
    registry.cachesResponses = true
    return registry
  }

  private func text(_ session: URLSession, _ request: URLRequest) async throws -> String {
    let (data, _) = try await session.data(for: request)
    return String(decoding: data, as: UTF8.self)
  }

  @Test func aFreshAnswerIsServedFromTheCacheWithoutAskingTheStub() async throws {
    let registry = cachingRegistry()
    let stub = registry.stub(.get("/catalog"), .text("v1").header("Cache-Control", "max-age=3600"))
    let session = registry.makeSession()
    #expect(try await text(session, URLRequest(url: url)) == "v1")
    #expect(try await text(session, URLRequest(url: url)) == "v1")
    // A session made later shares the registry's cache.
    #expect(try await text(registry.makeSession(), URLRequest(url: url)) == "v1")
    #expect(stub.callCount == 1)
    #expect(registry.journal.count == 1)
  }

  /// Each of these reaches the stub every time.
  enum Uncached: String, CaseIterable, Sendable {
    case noCacheOnTheRegistry, noFreshness, noStore, staleAtOnce, reloadPolicy, post

    var cacheControl: String? {
      switch self {
      case .noFreshness: nil
      case .noStore: "no-store, max-age=3600"
      case .staleAtOnce: "max-age=0"
      default: "max-age=3600"
      }
    }
  }

  @Test(arguments: Uncached.allCases)
  func anAnswerHTTPDoesNotLetACacheKeepIsAskedForEachTime(_ uncached: Uncached) async throws {
    let registry = uncached == .noCacheOnTheRegistry ? StubRegistry() : cachingRegistry()
    var response = StubResponse.text("live")
    if let cacheControl = uncached.cacheControl {
      response = response.header("Cache-Control", cacheControl)
    }
    let stub = registry.stub(uncached == .post ? .post("/catalog") : .get("/catalog"), response)
    var request = URLRequest(url: url)
    if uncached == .post { request.httpMethod = "POST" }
    if uncached == .reloadPolicy { request.cachePolicy = .reloadIgnoringLocalCacheData }
    let session = registry.makeSession()
    for _ in 0..<2 { #expect(try await text(session, request) == "live") }
    #expect(stub.callCount == 2)
  }

  @Test func aStaleAnswerStillServesARequestThatTakesCachedData() async throws {
    let registry = cachingRegistry()
    let stub = registry.stub(.get("/catalog"), .text("old").header("Cache-Control", "max-age=0"))
    let session = registry.makeSession()
    #expect(try await text(session, URLRequest(url: url)) == "old")
    var request = URLRequest(url: url)
    request.cachePolicy = .returnCacheDataElseLoad
    #expect(try await text(session, request) == "old")
    #expect(stub.callCount == 1)
  }

  @Test func aRequestThatMayOnlyUseTheCacheFailsWhenItHoldsNothing() async throws {
    let registry = cachingRegistry()
    let stub = registry.stub(.get("/catalog"), .text("never"))
    var request = URLRequest(url: url)
    request.cachePolicy = .returnCacheDataDontLoad
    let error = try await errorOf { try await registry.makeSession().data(for: request) }
    #expect(error?.code == .resourceUnavailable)
    #expect(stub.callCount == 0)
  }

  @Test func turnedOffAndOnAgainTheCacheStartsEmpty() async throws {
    let registry = cachingRegistry()
    let stub = registry.stub(.get("/catalog"), .text("v1").header("Cache-Control", "max-age=3600"))
    _ = try await text(registry.makeSession(), URLRequest(url: url))
    registry.cachesResponses = false
    #expect(!registry.cachesResponses)
    registry.cachesResponses = true
    _ = try await text(registry.makeSession(), URLRequest(url: url))
    #expect(stub.callCount == 2)
  }

  @Test func registriesDoNotShareACache() async throws {
    let first = cachingRegistry()
    first.stub(.get("/catalog"), .text("first").header("Cache-Control", "max-age=3600"))
    let second = cachingRegistry()
    second.stub(.get("/catalog"), .text("second").header("Cache-Control", "max-age=3600"))
    #expect(try await text(first.makeSession(), URLRequest(url: url)) == "first")
    #expect(try await text(second.makeSession(), URLRequest(url: url)) == "second")
  }
}
