#if Server
  import NIOConcurrencyHelpers
  import Understudy

  extension StubRegistry {
    /// Starts this registry's loopback server, or returns the one already running; it answers
    /// every request from this registry and stops when the registry's test scope ends.
    ///
    /// ```swift
    /// final class ProfileUITests: StubbedTestCase {
    ///   func testShowsName() async throws {
    ///     stubs.stub(.get("/users/{id}"), .json(["name": "Ada"]))
    ///     let server = try await stubs.startServer()
    ///     app.launchEnvironment["API_BASE_URL"] = server.baseURL.absoluteString
    ///   }
    /// }
    /// ```
    ///
    /// Outside a test scope (a registry you created yourself), call ``LoopbackServer/stop()``
    /// when done.
    ///
    /// - Parameters:
    ///   - port: The port to listen on; `0` (the default) lets the system choose a free one, so
    ///     parallel tests never collide.
    ///   - origin: The origin (scheme, host, port and path prefix) that requests sent to the server
    ///     in origin form (`GET /users/7`) stand for, so stubs and cassettes written for
    ///     `https://api.example.com` answer a client pointed at the server; their `Host` field is
    ///     dropped. `nil` (the default) takes them as requests to the server itself.
    public func startServer(port: Int = 0, standingInFor origin: URL? = nil) async throws
      -> LoopbackServer
    {
      if let server { return server }
      let started = try await LoopbackServer.start(for: self, port: port, standingInFor: origin)
      let server = ServerDirectory.claim(started, for: self)
      if server !== started {
        // Another task started one first; a registry has one server.
        await started.stop()
      } else {
        onScopeEnd { server.stopAtScopeEnd() }
      }
      return server
    }

    /// The loopback server started for this registry, if it is running.
    public var server: LoopbackServer? { ServerDirectory.server(for: self) }
  }

  /// The running server of each registry.
  enum ServerDirectory {
    private static let servers = NIOLockedValueBox<[ObjectIdentifier: LoopbackServer]>([:])

    static func server(for registry: StubRegistry) -> LoopbackServer? {
      servers.withLockedValue { $0[ObjectIdentifier(registry)] }
    }

    /// Stores `server` unless the registry already has one; returns the one that is kept.
    static func claim(_ server: LoopbackServer, for registry: StubRegistry) -> LoopbackServer {
      servers.withLockedValue { servers in
        if let existing = servers[ObjectIdentifier(registry)] { return existing }
        servers[ObjectIdentifier(registry)] = server
        return server
      }
    }

    static func remove(_ server: LoopbackServer) {
      servers.withLockedValue { servers in
        let key = ObjectIdentifier(server.registry)
        if servers[key] === server { servers[key] = nil }
      }
    }
  }
#endif
