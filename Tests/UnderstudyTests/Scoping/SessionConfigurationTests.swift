import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A registry's sessions start from the caller's configuration without changing it: a
/// configuration the caller still holds is copied; only one nobody else holds is used in place.
@Suite struct SessionConfigurationTests {
  @Test func aConfigurationTheCallerHoldsIsNeverChanged() async throws {
    let registry = StubRegistry()
    registry.stub(.get("https://api.test/held"), .text("held"))
    let base = URLSessionConfiguration.ephemeral
    base.timeoutIntervalForRequest = 7
    let classesBefore = (base.protocolClasses ?? []).map(ObjectIdentifier.init)
    let cacheBefore = base.urlCache.map(ObjectIdentifier.init)
    let policyBefore = base.requestCachePolicy

    let configuration = registry.makeSessionConfiguration(from: base)
    let session = registry.makeSession(configuration: base)

    #expect(configuration !== base)
    #expect((base.protocolClasses ?? []).map(ObjectIdentifier.init) == classesBefore)
    #expect(base.urlCache.map(ObjectIdentifier.init) == cacheBefore)
    #expect(base.requestCachePolicy == policyBefore)
    #expect(configuration.timeoutIntervalForRequest == 7)
    #expect(
      configuration.protocolClasses?.first.map(ObjectIdentifier.init)
        == ObjectIdentifier(registry.protocolClass))
    let (data, _) = try await session.data(from: URL(string: "https://api.test/held")!)
    #expect(String(decoding: data, as: UTF8.self) == "held")
  }

  @Test func theDefaultConfigurationIsAnsweredByTheRegistry() async throws {
    let registry = StubRegistry()
    registry.stub(.get("https://api.test/default"), .text("default"))
    let configuration = registry.makeSessionConfiguration()
    #expect(configuration.urlCache == nil)
    #expect(configuration.requestCachePolicy == .reloadIgnoringLocalCacheData)
    #expect(
      configuration.protocolClasses?.first.map(ObjectIdentifier.init)
        == ObjectIdentifier(registry.protocolClass))
    let (data, _) = try await URLSession(configuration: configuration).data(
      from: URL(string: "https://api.test/default")!)
    #expect(String(decoding: data, as: UTF8.self) == "default")
  }
}
