#if Server
  import NIOConcurrencyHelpers
  import NIOCore
  import NIOHTTP1
  import NIOPosix
  import Understudy

  /// A real HTTP/1.1 server on `127.0.0.1` that answers from one ``Understudy/StubRegistry``, for
  /// clients a `URLSession` stub cannot reach: SwiftNIO clients, subprocesses (`curl`, Python), an
  /// app under UI test, Linux download tasks.
  ///
  /// Every request goes through the registry exactly as an intercepted one does: matching,
  /// responders, sequences, scenarios, latency, throttling, dropped connections (a real hang-up
  /// mid-body), streamed bodies (chunked), cassettes, the journal and verification. A request no
  /// stub matches gets a `404` whose body is the near-miss report (credentials masked), and the
  /// test's scope records it as an issue. A stubbed error closes the connection without an answer.
  ///
  /// ```swift
  /// @Test(.servedStubs { $0.stub(.get("/users/{id}"), .json(["name": "Ada"])) })
  /// func readsAUser() async throws {
  ///   let baseURL = try #require(LoopbackServer.current).baseURL
  ///   let (data, _) = try await URLSession.shared.data(from: baseURL.appending(path: "users/7"))
  ///   #expect(String(decoding: data, as: UTF8.self) == #"{"name":"Ada"}"#)
  /// }
  /// ```
  ///
  /// Absolute-form requests (`GET http://api.example.com/x HTTP/1.1`, what a client configured
  /// with this server as its HTTP proxy sends) are matched with their own URL, so stubs written
  /// for the real host answer them. A `CONNECT host:port` tunnel (what AsyncHTTPClient opens
  /// through any proxy) leads back into the server: the requests in it are matched as
  /// `http://host:port/...`. HTTPS in a tunnel (a TLS handshake) is refused at once, with an
  /// issue for the test: the server never opens a connection of its own.
  ///
  /// Each server listens on a port of its own, chosen by the system, so parallel tests never
  /// collide; it stops when its registry's test scope ends, or at ``stop()``.
  public final class LoopbackServer: Sendable {
    /// `http://127.0.0.1:PORT`: where to send requests, and the proxy to configure for
    /// absolute-form ones.
    public let baseURL: URL
    /// The port the system chose.
    public let port: Int
    /// The registry that answers.
    public let registry: StubRegistry

    private let channel: any Channel
    private let connections: OpenConnections
    /// Completes when the task serving the accepted connections has ended.
    private let served: EventLoopFuture<Void>
    private let serving: NIOLockedValueBox<Task<Void, Never>?>

    private init(
      registry: StubRegistry, channel: any Channel, port: Int, connections: OpenConnections,
      served: EventLoopFuture<Void>
    ) {
      self.registry = registry
      self.channel = channel
      self.port = port
      self.baseURL = URL(string: "http://127.0.0.1:\(port)")!
      self.connections = connections
      self.served = served
      self.serving = NIOLockedValueBox(nil)
    }

    /// The server of the current test's registry (``Understudy/StubRegistry/current``), if one was
    /// started.
    public static var current: LoopbackServer? { StubRegistry.current?.server }

    /// Binds a listener on `127.0.0.1`, on `port` (`0`: a free one), and returns once it accepts
    /// connections; origin-form requests are addressed to `origin` when one is given.
    static func start(for registry: StubRegistry, port: Int = 0, standingInFor origin: URL? = nil)
      async throws -> LoopbackServer
    {
      let connections = OpenConnections()
      let listener = try await ServerBootstrap(group: NIOSingletons.posixEventLoopGroup)
        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
        .bind(host: "127.0.0.1", port: port) {
          channel -> EventLoopFuture<EventLoopFuture<AcceptedConnection>> in
          guard connections.admit(channel) else {
            return channel.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel)
          }
          return AcceptedConnection.configure(
            channel, registry: registry, connections: connections, standingInFor: origin)
        }
      guard let port = listener.channel.localAddress?.port else {
        try? await listener.channel.close()
        throw LoopbackServerError(
          "Understudy: the loopback listener has no local port; nothing was served.")
      }
      let served = listener.channel.eventLoop.makePromise(of: Void.self)
      let server = LoopbackServer(
        registry: registry, channel: listener.channel, port: port, connections: connections,
        served: served.futureResult)
      let task = Task {
        await withTaskGroup(of: Void.self) { group in
          try? await listener.executeThenClose { inbound in
            for try await connection in inbound {
              group.addTask { await serve(connection, registry: registry) }
            }
          }
          // Connections still open (keep-alive, a paced body) end with the listener.
          group.cancelAll()
        }
        served.succeed()
      }
      server.serving.withLockedValue { $0 = task }
      return server
    }

    /// Serves one accepted connection until it closes, or closes it when the server stops.
    private static func serve(
      _ accepted: EventLoopFuture<AcceptedConnection>, registry: StubRegistry
    ) async {
      switch try? await accepted.get() {
      case .http(let channel):
        // Its ServerConnection answers from the event loop; this task only ends it.
        await withTaskCancellationHandler {
          try? await channel.closeFuture.get()
        } onCancel: {
          channel.close(promise: nil)
        }
      case .webSocket(let webSocket, let exchange):
        await WebSocketSession(registry: registry, exchange: exchange).serve(webSocket)
      case nil: return
      }
    }

    /// Stops listening and closes every connection, idle or busy, including one accepted while
    /// it stops; returns once they are closed (within seconds, whatever the clients do). A
    /// request whose answer was cut short stays in flight, so its test's scope reports it.
    /// Calling it again does nothing.
    public func stop() async {
      let closes = shutDown()
      if await !OpenConnections.wait(for: closes + [served], atMost: OpenConnections.stopBound) {
        reportSlowStop()
      }
    }

    /// What the scope's end does: ``stop()``, waiting from the calling thread, so that nothing
    /// listens on the port and no connection is open once the scope has ended (a close left to
    /// the event loop let a request sent just after the scope's end connect and then be reset),
    /// and every answer a client has is out of flight before the scope counts what is in it.
    /// On an event loop, which the closes need, it only starts them. It waits for the closes
    /// alone, which the event loops carry out: the tasks that served the connections need
    /// Swift's cooperative threads, one of which may be the very thread waiting here.
    func stopAtScopeEnd() {
      let closes = shutDown()
      guard MultiThreadedEventLoopGroup.currentEventLoop == nil else { return }
      if !OpenConnections.wait(for: closes, atMost: OpenConnections.stopBound) {
        reportSlowStop()
      }
    }

    /// Forgets the server, closes the listener and every connection, and ends the task that
    /// serves them; returns what to wait for.
    private func shutDown() -> [EventLoopFuture<Void>] {
      let task = serving.withLockedValue { $0 }
      ServerDirectory.remove(self)
      let closes = connections.closeAll()
      channel.close(promise: nil)
      task?.cancel()
      return closes + [channel.closeFuture]
    }

    private func reportSlowStop() {
      registry.reportServerIssue(
        "Understudy: the loopback server at \(baseURL.absoluteString) closed its listener and "
          + "its connections, but one of them, or a WebSocket conversation, had not ended "
          + "\(OpenConnections.stopBound.nanoseconds / 1_000_000_000) s later, and the stop "
          + "returned without it. A WebSocket conversation must end when its task is cancelled; "
          + "anything else is a fault in Understudy: please report it with this test.")
    }
  }

  /// Why a loopback server could not start.
  public struct LoopbackServerError: Error, CustomStringConvertible, Sendable {
    /// What went wrong and what to do.
    public let description: String

    init(_ description: String) {
      self.description = description
    }
  }
#endif
