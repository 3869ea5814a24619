#if Server
  import Foundation
  import NIOCore
  import NIOPosix
  import Testing
  import Understudy
  import UnderstudyServer

  /// `stop()` and the end of a scope close every connection, whatever its client is doing, and
  /// return within a bound.
  @Suite struct ServerStopTests {
    /// How long `operation` took, or `nil` when it had not returned after `limit` (it goes on in
    /// the background: the test then releases what holds it).
    static func duration(
      of operation: @escaping @Sendable () async -> Void, within limit: Duration
    ) async -> Duration? {
      let start = ContinuousClock.now
      let (outcomes, outcome) = AsyncStream<Bool>.makeStream()
      Task {
        await operation()
        outcome.yield(true)
      }
      Task {
        try? await Task.sleep(for: limit)
        outcome.yield(false)
      }
      for await returned in outcomes {
        return returned ? ContinuousClock.now - start : nil
      }
      return nil
    }

    /// A raw TCP connection to `port` that reads only when `reading`.
    static func connect(to port: Int, reading: Bool = true) async throws -> any Channel {
      try await ClientBootstrap(group: NIOSingletons.posixEventLoopGroup)
        .channelOption(.autoRead, value: reading)
        .connect(host: "127.0.0.1", port: port).get()
    }

    static func send(_ text: String, on channel: any Channel) async throws {
      try await channel.writeAndFlush(ByteBuffer(string: text)).get()
    }

    /// A connection its client opened and never sent on (AsyncHTTPClient's pool keeps such
    /// spare connections) kept `stop()` waiting for as long as the client kept it open; beside
    /// it, one idle after a keep-alive answer, one half-closed, one whose client reads nothing
    /// of a large answer, and one with a request whose answer is 30 s away.
    @Test func stopReturnsPromptlyWhateverItsClientsDo() async throws {
      let registry = StubRegistry()
      registry.stub(.get("/small"), .text("ok"))
      registry.stub(.get("/large"), .data(Data(count: 16 << 20)))
      registry.stub(.get("/late"), StubResponse.text("late").delayed(by: 30))
      let server = try await registry.startServer()
      let request = { (path: String) in
        "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n"
      }
      let silent = try await Self.connect(to: server.port)
      let idle = try await Self.connect(to: server.port)
      try await Self.send(request("/small"), on: idle)
      let halfClosed = try await Self.connect(to: server.port)
      try await Self.send(request("/small"), on: halfClosed)
      try await halfClosed.close(mode: .output)
      let slowReader = try await Self.connect(to: server.port, reading: false)
      try await Self.send(request("/large"), on: slowReader)
      let waiting = try await Self.connect(to: server.port)
      try await Self.send(request("/late"), on: waiting)
      // Every request is in the journal once the server has read it; the silent connection,
      // opened first, has been accepted by then.
      let deadline = ContinuousClock.now + .seconds(10)
      while registry.journal.count < 4, ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(10))
      }
      #expect(registry.journal.count == 4)

      let took = await Self.duration(of: { await server.stop() }, within: .seconds(5))
      for client in [silent, idle, halfClosed, slowReader, waiting] {
        try? await client.close()
      }
      let stopped = try #require(took, "stop() had not returned 5 s later")
      #expect(stopped < .seconds(1))
      // The connections are closed by the server, not left to their clients.
      #expect(throws: (any Error).self) {
        try ClientBootstrap(group: NIOSingletons.posixEventLoopGroup)
          .connect(host: "127.0.0.1", port: server.port).wait()
      }
    }

    /// A scope's end stops its server the same way: a connection that never sent a request is
    /// closed with it, and the end of the scope does not wait for its client.
    @Test func scopeEndClosesAConnectionThatNeverSentARequest() async throws {
      let registry = StubRegistry()
      let server = try await registry.startServer()
      let silent = try await Self.connect(to: server.port)
      try await Task.sleep(for: .milliseconds(100))
      let took = await Self.duration(
        of: {
          _ = registry.endScope(
            testName: "scopeEndClosesAConnectionThatNeverSentARequest()",
            location: registry.location)
        }, within: .seconds(5))
      // The server closed it: the client sees the end of the stream.
      let closed = await Self.duration(
        of: { try? await silent.closeFuture.get() }, within: .seconds(5))
      try? await silent.close()
      #expect(try #require(took) < .seconds(1))
      #expect(closed != nil, "the connection stayed open after the scope ended")
    }
  }
#endif
