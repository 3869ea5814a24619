#if Server
  import Foundation
  import Testing
  import Understudy
  import UnderstudyServer
  #if canImport(FoundationNetworking)
    import FoundationNetworking
  #endif

  /// WebSocket stubs served over a real HTTP/1.1 upgrade, talked to by a SwiftNIO client.
  @Suite struct WebSocketStubTests {
    private typealias Event = WebSocketClient.Socket.Event

    @Test(
      .servedStubs {
        $0.stub(
          .get("/chat"),
          .webSocket([
            .receive(.text("hello")),
            .send(.text("hi")),
            .receive(.binary(Data([1, 2, 3]))),
            .send(.binary(Data([4, 5]))),
            .close(code: 4000, reason: "bye"),
          ]))
      })
    func aScriptedConversationGoesBothWaysAndClosesWithItsCode() async throws {
      let server = try #require(LoopbackServer.current)
      let events = try await WebSocketClient.connect(port: server.port, path: "/chat") { socket in
        try await socket.send(.text("hello"))
        var events = try await socket.events(1)
        try await socket.send(.binary(Data([1, 2, 3])))
        events += try await socket.events(2)
        return events
      }.get()
      #expect(
        events == [
          .message(.text("hi")), .message(.binary(Data([4, 5]))), .close(code: 4000, reason: "bye"),
        ])
      let journal = server.registry.journal
      #expect(journal.map(\.request.url.path) == ["/chat"])
      #expect(journal.first?.request.headers["Upgrade"] == "websocket")
      #expect(journal.first?.response?.status == 101)
      #expect(server.registry.verify(.get("/chat"), .exactly(1)))
    }

    @Test(
      .servedStubs {
        $0.stub(.get("/rooms/{room}")) { request in
          let room = request.pathParameters["room"] ?? "?"
          return .webSocket { socket in
            for _ in 0..<2 {
              switch try await socket.receive() {
              case .text(let text): try await socket.send(.text("\(room): \(text)"))
              case .binary(let data): try await socket.send(.binary(data + data))
              }
            }
            try await socket.close(code: 4001, reason: room)
          }
        }
      })
    func aClosureDrivenConversationEchoesAndCloses() async throws {
      let server = try #require(LoopbackServer.current)
      let events = try await WebSocketClient.connect(port: server.port, path: "/rooms/42") {
        socket in
        try await socket.send(.text("ping"))
        try await socket.send(.binary(Data([7])))
        return try await socket.events(3)
      }.get()
      #expect(
        events == [
          .message(.text("42: ping")), .message(.binary(Data([7, 7]))),
          .close(code: 4001, reason: "42"),
        ])
    }

    @Test(
      .servedStubs {
        $0.stub(.get("/listen")) { _ in
          .webSocket { socket in
            // Runs until the client closes: receive() then throws WebSocketClosedError.
            while true { _ = try await socket.receive() }
          }
        }
      })
    func theClientsCloseEndsTheConversationQuietly() async throws {
      let server = try #require(LoopbackServer.current)
      let events = try await WebSocketClient.connect(port: server.port, path: "/listen") {
        socket in
        try await socket.send(.text("one"))
        try await socket.close(code: 1000)
        return try await socket.events(1)
      }.get()
      // The server answers a close with a close that echoes the code.
      #expect(events == [.close(code: 1000, reason: "")])
    }

    @Test func anUnmatchedUpgradeGetsTheMaskedReportAndTheTestGetsTheIssue() async throws {
      let registry = StubRegistry()
      registry.stub(.get("/chat"), .webSocket([.send(.text("hi"))]))
      let server = try await registry.startServer()
      let answer = try await WebSocketClient.connect(
        port: server.port, path: "/chat-room?token=s3cr3t-query"
      ) {
        _ in
      }
      await server.stop()
      guard case .failure(let refusal) = answer else {
        Issue.record("the server upgraded a request no stub matched")
        return
      }
      #expect(refusal.status == .notFound)
      #expect(refusal.body.contains("no stub matched GET"))
      #expect(refusal.body.contains("/chat"))
      #expect(!refusal.body.contains("s3cr3t"))
      #expect(registry.journal.first?.request.headers["Upgrade"] == "websocket")
      #expect(registry.unmatchedReports.count == 1)
      #expect(registry.endScope(testName: "t", verifying: .noUnmatchedRequests).count == 1)
    }

    @Test func aScriptThatMeetsAnotherMessageFailsTheTestAndClosesWith1008() async throws {
      let registry = StubRegistry()
      registry.stub(.get("/chat"), .webSocket([.receive(.text("hello")), .send(.text("hi"))]))
      try await withKnownIssue {
        // Started inside, so the server's report is recorded as this test's known issue.
        let server = try await registry.startServer()
        let events = try await WebSocketClient.connect(port: server.port, path: "/chat") {
          socket in
          try await socket.send(.text("goodbye"))
          return try await socket.events(1)
        }.get()
        #expect(
          events == [.close(code: 1008, reason: "Understudy: unexpected message at step 1")])
        await server.stop()
      } matching: { issue in
        issue.comments.contains {
          $0.rawValue.contains(#"step 1 (receive text "hello") got text "goodbye" instead"#)
        }
      }
    }

    @Test func aConversationThatThrowsOrOverrunsFailsTheTest() async throws {
      struct Broken: Error {}
      let registry = StubRegistry()
      registry.stub(.get("/throws"), .webSocket { _ in throw Broken() })
      registry.stub(
        .get("/waits"),
        .webSocket(timeout: .milliseconds(200)) { socket in _ = try await socket.receive() })
      try await withKnownIssue {
        let server = try await registry.startServer()
        for (path, code) in [("/throws", 1011), ("/waits", 1001)] {
          let events = try await WebSocketClient.connect(port: server.port, path: path) {
            socket in try await socket.events(1)
          }.get()
          #expect(
            events.first.map { if case .close(code, _) = $0 { true } else { false } } == true,
            "\(path): \(events)")
        }
        await server.stop()
      } matching: { issue in
        issue.comments.contains { $0.rawValue.contains("threw: Broken()") }
          || issue.comments.contains {
            $0.rawValue.contains("still running after its timeout of 0.2 s")
          }
      }
    }

    @Test(.servedStubs { $0.stub(.get("/chat"), .webSocket([.send(.text("hi"))])) })
    func aRequestThatDoesNotUpgradeGets426() async throws {
      let server = try #require(LoopbackServer.current)
      let (data, response) = try await URLSession(configuration: .ephemeral).data(
        from: server.baseURL.appending(path: "chat"))
      #expect((response as? HTTPURLResponse)?.statusCode == 426)
      #expect(String(decoding: data, as: UTF8.self).contains("answers WebSocket upgrades only"))
      // A session from the registry (the URLProtocol path) gets the same answer.
      let (_, intercepted) = try await server.registry.makeSession().data(
        from: URL(string: "https://api.example.com/chat")!)
      #expect((intercepted as? HTTPURLResponse)?.statusCode == 426)
    }

    @Test(
      .servedStubs {
        $0.stub(.get("/chat"), .webSocket([.send(.text("hi"))]))
        $0.stub(.get("/plain"), .text("plain"))
      })
    func upgradesTheServerDoesNotPerformAreStillAnswered() async throws {
      let base = try #require(LoopbackServer.current).baseURL
      // No Sec-WebSocket-Key: the handshake cannot complete, and the client is told why.
      let handshake = try await Subprocess.curl(
        "--write-out", "%{http_code}", "--header", "Upgrade: websocket", "--header",
        "Connection: Upgrade", "\(base)/chat")
      #expect(handshake.output.hasSuffix("400"), "\(handshake.output)")
      #expect(handshake.output.contains("Sec-WebSocket-Key"))
      // An upgrade to another protocol (curl asks for h2c) is answered as plain HTTP/1.1.
      let h2c = try await Subprocess.curl("--http2", "\(base)/plain")
      #expect(h2c.output == "plain", "\(h2c.errors)")
    }

    @Test func parallelRegistriesEachHoldTheirOwnConversations() async throws {
      try await withThrowingTaskGroup(of: Void.self) { group in
        for name in ["left", "right"] {
          group.addTask {
            let registry = StubRegistry()
            registry.stub(.get("/who"), .webSocket([.receive(), .send(.text(name))]))
            let server = try await registry.startServer()
            let events = try await WebSocketClient.connect(port: server.port, path: "/who") {
              socket in
              try await socket.send(.text("?"))
              return try await socket.events(2)
            }.get()
            await server.stop()
            #expect(events == [.message(.text(name)), .close(code: 1000, reason: "")])
            #expect(registry.journal.count == 1)
          }
        }
        try await group.waitForAll()
      }
    }
  }
#endif
