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

/// Sessions made without a configuration start as `.ephemeral` ones do: cookies and credentials
/// in memory, kept for that session alone. On Linux the cookie storages are lent again
/// (``CookieStoragePool``), so these check that a storage never reaches a second holder and never
/// carries a cookie across.
@Suite struct EphemeralConfigurationTests {
  @Test func sessionsAliveTogetherNeverShareCookiesOrCredentials() throws {
    let registry = StubRegistry()
    let sessions = (0..<4).map { _ in registry.makeSession() }
    defer {
      for session in sessions { session.invalidateAndCancel() }
    }
    let cookieStorages = try sessions.map { try #require($0.configuration.httpCookieStorage) }
    let credentialStorages = try sessions.map {
      try #require($0.configuration.urlCredentialStorage)
    }
    #expect(Set(cookieStorages.map(ObjectIdentifier.init)).count == 4)
    #expect(Set(credentialStorages.map(ObjectIdentifier.init)).count == 4)
    #expect(cookieStorages.allSatisfy { ($0.cookies ?? []).isEmpty })
    #if canImport(FoundationNetworking)
      // What `.ephemeral`'s storage starts with there; Darwin's default is not checked here.
      #expect(cookieStorages.allSatisfy { $0.cookieAcceptPolicy == .always })
    #endif
    #expect(credentialStorages.allSatisfy { $0.allCredentials.isEmpty })
    #expect(cookieStorages.allSatisfy { $0 !== HTTPCookieStorage.shared })
    #expect(credentialStorages.allSatisfy { $0 !== URLCredentialStorage.shared })
  }

  @Test func aCookieSetInOneTestsSessionNeverReachesTheNext() async throws {
    let url = URL(string: "https://api.test/me")!
    for round in 0..<8 {
      let registry = StubRegistry()
      registry.stub(
        .get("https://api.test/login"),
        StubResponse.ok.header("Set-Cookie", "round=\(round); Path=/"))
      registry.stub(.get("https://api.test/me")) { .text($0.headers["Cookie"] ?? "none") }
      let session = registry.makeSession()
      #expect(try await session.text(from: url) == "none")
      _ = try await session.data(from: URL(string: "https://api.test/login")!)
      #expect(try await session.text(from: url) == "round=\(round)")
      session.invalidateAndCancel()
    }
  }

  #if canImport(FoundationNetworking)
    @Test func aCookieStorageIsLentAgainOnlyOnceNothingElseHoldsItAndEmptied() throws {
      let pool = CookieStoragePool(capacity: 2)
      var first: HTTPCookieStorage? = pool.take()
      let firstID = ObjectIdentifier(try #require(first))
      let cookie = try #require(
        HTTPCookie(properties: [
          .name: "token", .value: "abc", .domain: "api.test", .path: "/",
        ]))
      first?.setCookie(cookie)
      first?.cookieAcceptPolicy = .never

      let second = pool.take()
      #expect(ObjectIdentifier(second) != firstID)
      let third = pool.take()
      #expect(ObjectIdentifier(third) != firstID)
      #expect(pool.count == 2)  // the third is beyond capacity: made, not kept

      first = nil
      let again = pool.take()
      #expect(ObjectIdentifier(again) == firstID)
      #expect((again.cookies ?? []).isEmpty)
      #expect(again.cookieAcceptPolicy == .always)
      withExtendedLifetime((second, third)) {}
    }

    /// A session that is dropped, invalidated or not, lets its storage go, so a suite's sessions
    /// keep taking the storages already made instead of building `.ephemeral` each time. Nothing
    /// but the benchmark would notice if they did not.
    @Test(arguments: [true, false])
    func sessionsThatAreDroppedGiveTheirStorageBack(invalidating: Bool) async throws {
      let pool = CookieStoragePool(capacity: 64)
      let registry = StubRegistry()
      registry.stub(.get("https://api.test/one"), .text("one"))
      var lent: Set<ObjectIdentifier> = []
      for _ in 0..<20 {
        let session = registry.makeSession(
          configuration: EphemeralConfiguration.make(lendingFrom: pool))
        lent.insert(ObjectIdentifier(try #require(session.configuration.httpCookieStorage)))
        #expect(try await session.text(from: URL(string: "https://api.test/one")!) == "one")
        if invalidating { session.invalidateAndCancel() }
      }
      // The pool keeps every storage it made (capacity 64), so no identifier is reused by a new
      // object. A few sessions may still be letting go when the next starts.
      #expect(lent.count < 10, "20 sessions were lent \(lent.count) storages")
    }

    @Test func aStorageATestStillHoldsIsNeverLent() throws {
      let pool = CookieStoragePool(capacity: 4)
      let configuration = URLSessionConfiguration.ephemeral
      configuration.httpCookieStorage = pool.take()
      let session = URLSession(configuration: configuration)
      let held = try #require(session.configuration.httpCookieStorage)
      session.invalidateAndCancel()
      for _ in 0..<3 { #expect(pool.take() !== held) }
    }
  #endif
}
