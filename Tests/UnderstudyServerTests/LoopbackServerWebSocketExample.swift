#if Server
  // The WebSocket example of Documentation/LoopbackServer.md: its client side needs this test
  // target's WebSocket client, so it is not among the examples `.ci/server-examples.sh` builds
  // in a package of its own.
  import Foundation
  import Testing
  import Understudy
  import UnderstudyServer

  @Suite struct LoopbackServerWebSocketExample {
    @Test func holdsWebSocketConversations() async throws {
      let registry = StubRegistry()
      registry.stub(
        .get("/chat"),
        .webSocket([
          .receive(.text("hello")),
          .send(.text("hi")),
          .send(.binary(Data([1, 2, 3]))),
          .close(code: 4000, reason: "bye"),
        ]))
      registry.stub(.get("/rooms/{room}")) { request in
        let room = request.pathParameters["room"] ?? ""
        return .webSocket(timeout: .seconds(10)) { socket in
          while true {
            let message = try await socket.receive()
            if message == .text("bye") { break }
            try await socket.send(message)
          }
          try await socket.close(code: 4001, reason: "left \(room)")
        }
      }
      let server = try await registry.startServer()
      // Any WebSocket client: ws://127.0.0.1:PORT/chat
      let events = try await WebSocketClient.connect(port: server.port, path: "/rooms/7") {
        socket in
        try await socket.send(.text("echo me"))
        try await socket.send(.text("bye"))
        return try await socket.events(2)
      }.get()
      #expect(events == [.message(.text("echo me")), .close(code: 4001, reason: "left 7")])
      #expect(registry.verify(.get("/rooms/7")))
      await server.stop()
    }
  }
#endif
