import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The configuration a registry's sessions start from when the caller passes none: what
/// `URLSessionConfiguration.ephemeral` gives, without what it builds and the registry drops.
///
/// On Linux, every `.ephemeral` builds a `URLCache` whose disk path comes from an XDG lookup
/// that parses the whole process environment and creates a directory on disk (or checks it is
/// there): about 900,000 instructions, most of what a test's session costs, for a cache a
/// registry's configuration sets to `nil`. So a registry's session starts from a copy of one
/// ephemeral configuration made once, given a credential storage of its own
/// (`URLCredentialStorage()` is in memory only there, as `.ephemeral`'s is) and an empty cookie
/// storage no other session holds (``CookieStoragePool``). On Darwin, `.ephemeral` is used as it
/// is.
enum EphemeralConfiguration {
  #if canImport(FoundationNetworking)
    /// - Parameter pool: Where the cookie storage comes from; tests pass one of their own.
    static func make(lendingFrom pool: CookieStoragePool = .shared) -> URLSessionConfiguration {
      let configuration = prototype.copy() as! URLSessionConfiguration
      configuration.httpCookieStorage = pool.take()
      configuration.urlCredentialStorage = URLCredentialStorage()
      return configuration
    }

    /// Only ever copied; its storages are replaced in every copy.
    private static let prototype: URLSessionConfiguration = {
      let configuration = URLSessionConfiguration.ephemeral
      configuration.urlCache = nil
      configuration.httpCookieStorage = nil
      configuration.urlCredentialStorage = nil
      return configuration
    }()
  #else
    static func make() -> URLSessionConfiguration { .ephemeral }
  #endif
}

#if canImport(FoundationNetworking)
  /// Ephemeral cookie storages, each lent to one session at a time.
  ///
  /// FoundationNetworking makes an in-memory cookie storage only inside `.ephemeral`
  /// (`HTTPCookieStorage` has no public initialiser there), so the storages one call makes are
  /// kept and lent again. A storage is lent only while this pool is its only holder: no session,
  /// configuration or test still reaches it, so a session that outlives its test can never set
  /// or read a cookie in the next test's. It is emptied, and its policy reset, before it is lent.
  final class CookieStoragePool: Sendable {
    static let shared = CookieStoragePool()

    /// How many storages are kept; a process with more sessions alive at once makes the rest
    /// as `.ephemeral` does, each time.
    let capacity: Int

    private let storages = Locked<[HTTPCookieStorage]>([])

    init(capacity: Int = 64) {
      self.capacity = capacity
    }

    /// An empty ephemeral cookie storage that nothing else holds.
    func take() -> HTTPCookieStorage {
      let free = storages.withLock { storages -> HTTPCookieStorage? in
        for index in storages.indices where isKnownUniquelyReferenced(&storages[index]) {
          return storages[index]
        }
        return nil
      }
      if let free {
        for cookie in free.cookies ?? [] { free.deleteCookie(cookie) }
        free.cookieAcceptPolicy = .always
        return free
      }
      let fresh = URLSessionConfiguration.ephemeral.httpCookieStorage!
      storages.withLock { storages in
        if storages.count < capacity { storages.append(fresh) }
      }
      return fresh
    }

    /// How many storages the pool keeps, lent or not.
    var count: Int { storages.withLock { $0.count } }
  }
#endif
