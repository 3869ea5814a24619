#if Server
  // The examples of Documentation/LoopbackServer.md, compiled and run with the Server trait.
  import Foundation
  import Testing
  import Understudy
  import UnderstudyServer
  import XCTest
  #if canImport(FoundationNetworking)
    import FoundationNetworking
  #endif

  @Suite struct LoopbackServerExamples {
    @Test(.servedStubs { $0.stub(.get("/users/{id}"), .text("Ada")) })
    func readsAUserOverLoopback() async throws {
      let server = try #require(LoopbackServer.current)
      let (data, _) = try await URLSession(configuration: .ephemeral).data(
        from: server.baseURL.appending(path: "users/7"))
      #expect(String(decoding: data, as: UTF8.self) == "Ada")
    }

    @Test(.servedStubs { $0.stub(.get("http://api.example.com/status"), .text("up")) })
    func answersAsAProxy() async throws {
      let proxy = try #require(LoopbackServer.current).baseURL.absoluteString
      // `curl -x`: Tests/UnderstudyServerTests/Subprocess.swift runs it.
      let curl = try await Subprocess.curl("--proxy", proxy, "http://api.example.com/status")
      #expect(curl.output == "up")
    }

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

    @Test func servesARegistryOfYourOwn() async throws {
      let registry = StubRegistry()
      registry.stub(.get("/health"), .text("ok"))
      let server = try await registry.startServer()
      let (data, _) = try await URLSession(configuration: .ephemeral).data(
        from: server.baseURL.appending(path: "health"))
      #expect(String(decoding: data, as: UTF8.self) == "ok")
      await server.stop()
    }
  }

  final class ProfileServerTests: StubbedTestCase {
    func testServesTheProfile() async throws {
      stubs.stub(.get("/profile"), .text("Ada"))
      let server = try await stubs.startServer()
      let (data, _) = try await URLSession(configuration: .ephemeral).data(
        from: server.baseURL.appending(path: "profile"))
      XCTAssertEqual(String(decoding: data, as: UTF8.self), "Ada")
    }
  }
#endif
