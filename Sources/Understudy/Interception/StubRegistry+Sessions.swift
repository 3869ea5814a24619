extension StubRegistry {
  /// A configuration whose sessions are answered by this registry.
  ///
  /// Understudy's protocol goes first in `protocolClasses` and `urlCache` is the registry's
  /// cache when ``cachesResponses`` is on, else `nil`: without a cache FoundationNetworking creates the
  /// protocol on the caller's thread, which is also faster. Every request a session could
  /// send over the network (http, https, ftp, ftps, ws, wss) is claimed, so nothing reaches it
  /// unless a stub or, for http(s), ``unmatchedRequests`` says so.
  ///
  /// - Parameter base: The configuration to start from; without one, an ephemeral configuration
  ///   (what `URLSessionConfiguration.ephemeral` gives: cookies and credentials in memory, kept
  ///   for this session alone). One you still hold is copied, never changed; one only this call
  ///   holds (a temporary) is used as it is. A configuration made by a registry before keeps
  ///   only this registry's protocol class, so passing one through twice adds nothing.
  public func makeSessionConfiguration(
    from base: consuming URLSessionConfiguration? = nil
  ) -> URLSessionConfiguration {
    var given = consume base
    let configuration: URLSessionConfiguration
    // URLSessionConfiguration is a class: one the caller still holds is copied, so theirs stays
    // untouched. One only this call holds is nobody else's to see change, and copying it was
    // most of what making a session cost a test's scope.
    if given == nil {
      configuration = EphemeralConfiguration.make()
    } else if isKnownUniquelyReferenced(&given) {
      configuration = given.take()!
    } else {
      configuration = given!.copy() as! URLSessionConfiguration
    }
    // A configuration that already went through a registry (this one or another) keeps only
    // this registry's class: one registry answers a session, and Mocker users pass the same
    // configuration through twice.
    let others = (configuration.protocolClasses ?? []).filter {
      !($0 is InterceptingProtocol.Type)
    }
    configuration.protocolClasses = [protocolClass] + others
    // A cache only when the test asked for one (``cachesResponses``).
    let cache = urlCache
    configuration.urlCache = cache
    configuration.requestCachePolicy =
      cache == nil ? .reloadIgnoringLocalCacheData : .useProtocolCachePolicy
    return configuration
  }

  /// A session answered by this registry.
  ///
  /// Without a `delegateQueue`, its delegate and completion handlers are called one at a time, as
  /// on the queue URLSession would make, but on a thread that other tests cannot hold back (see
  /// Reliability in the documentation).
  ///
  /// ```swift
  /// let session = registry.makeSession()
  /// let (data, response) = try await session.data(from: url)
  /// ```
  ///
  /// - Parameters:
  ///   - base: The configuration to start from, as in ``makeSessionConfiguration(from:)``;
  ///     without one, an ephemeral configuration whose cookies and credentials this session
  ///     alone keeps, in memory.
  ///   - delegate: The session's delegate, if any.
  ///   - delegateQueue: Where the delegate and completion handlers are called; without one, a
  ///     serial queue of Understudy's.
  public func makeSession(
    configuration base: consuming URLSessionConfiguration? = nil,
    delegate: (any URLSessionDelegate)? = nil, delegateQueue: OperationQueue? = nil
  ) -> URLSession {
    URLSession(
      configuration: makeSessionConfiguration(from: consume base), delegate: delegate,
      delegateQueue: delegateQueue ?? SessionDelegateQueue())
  }

  /// The `URLProtocol` subclass bound to this registry, for configurations you assemble yourself.
  public var protocolClass: AnyClass { ScopeTags.protocolClass(for: id) }
}
