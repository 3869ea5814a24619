extension StubRegistry {
  /// A configuration whose sessions are answered by this registry.
  ///
  /// Understudy's protocol goes first in `protocolClasses` and `urlCache` is `nil`: stubbed
  /// responses are never cached on Linux anyway, and without a cache FoundationNetworking creates
  /// the protocol on the caller's thread, which is also faster. Every request a session could
  /// send over the network (http, https, ftp, ftps, ws, wss) is claimed, so nothing reaches it
  /// unless a stub or, for http(s), ``unmatchedRequests`` says so.
  ///
  /// - Parameter base: The configuration to start from; it is copied, not changed.
  public func makeSessionConfiguration(
    from base: URLSessionConfiguration = .ephemeral
  ) -> URLSessionConfiguration {
    // URLSessionConfiguration is a class; copy so the caller's base stays untouched.
    let configuration = base.copy() as! URLSessionConfiguration
    configuration.protocolClasses = [protocolClass] + (configuration.protocolClasses ?? [])
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    return configuration
  }

  /// A session answered by this registry.
  ///
  /// ```swift
  /// let session = registry.makeSession()
  /// let (data, response) = try await session.data(from: url)
  /// ```
  public func makeSession(
    configuration base: URLSessionConfiguration = .ephemeral,
    delegate: (any URLSessionDelegate)? = nil, delegateQueue: OperationQueue? = nil
  ) -> URLSession {
    URLSession(
      configuration: makeSessionConfiguration(from: base), delegate: delegate,
      delegateQueue: delegateQueue)
  }

  /// The `URLProtocol` subclass bound to this registry, for configurations you assemble yourself.
  public var protocolClass: AnyClass { ScopeTags.protocolClass(for: id) }
}
