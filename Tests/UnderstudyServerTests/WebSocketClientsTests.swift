#if Server
  import Foundation
  import Testing
  import Understudy
  import UnderstudyServer
  import UnderstudyTestSupport
  #if canImport(FoundationNetworking)
    import FoundationNetworking
  #endif

  /// Whether Python's `websockets` package is installed (`.ci/server.sh` installs it).
  private let pythonHasWebSockets: Bool = {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", "import websockets.sync.client"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? ChildProcesses.run(process)) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }()

  /// WebSocket clients other than SwiftNIO's: Python's `websockets` as a subprocess, and
  /// Foundation's `URLSessionWebSocketTask`.
  @Suite struct WebSocketClientsTests {
    @Test(
      .enabled(
        if: pythonHasWebSockets,
        "Python's websockets package is not installed: python3 -m pip install websockets"),
      .servedStubs {
        $0.stub(
          .get("/chat"),
          .webSocket([
            .receive(.text("hello")),
            .send(.text("hi")),
            .receive(.binary(Data([1, 2]))),
            .send(.binary(Data([3, 4]))),
            .close(code: 4000, reason: "bye"),
          ]))
      })
    func pythonsWebsocketsClientHoldsTheConversation() async throws {
      let server = try #require(LoopbackServer.current)
      let script = """
        import sys
        from websockets.exceptions import ConnectionClosed
        from websockets.sync.client import connect
        with connect(sys.argv[1], open_timeout=10, close_timeout=5) as ws:
            ws.send("hello")
            print(ws.recv(timeout=10))
            ws.send(bytes([1, 2]))
            print(ws.recv(timeout=10).hex())
            try:
                ws.recv(timeout=10)
            except ConnectionClosed as closed:
                print(closed.rcvd.code, closed.rcvd.reason)
        """
      let python = try await Subprocess.run(
        ["python3", "-c", script, "ws://127.0.0.1:\(server.port)/chat"])
      #expect(python.status == 0, "\(python.errors)")
      #expect(python.output == "hi\n0304\n4000 bye\n")
      #expect(server.registry.journal.first?.response?.status == 101)
    }

    @Test(
      .servedStubs {
        $0.stub(.get("/echo"), .webSocket { socket in try await socket.send(socket.receive()) })
      })
    func urlSessionWebSocketTask() async throws {
      let server = try #require(LoopbackServer.current)
      let task = URLSession(configuration: .ephemeral).webSocketTask(
        with: URL(string: "ws://127.0.0.1:\(server.port)/echo")!)
      task.resume()
      defer { task.cancel() }
      do {
        try await task.send(.string("hi"))
        guard case .string(let echoed) = try await task.receive() else {
          Issue.record("the echo was not a text message")
          return
        }
        #expect(echoed == "hi")
      } catch {
        #if canImport(FoundationNetworking)
          // Measured with Debian 12's libcurl 7.88: FoundationNetworking gives up before it
          // connects, so the server never sees the upgrade. Documented in LoopbackServer.md.
          #expect("\(error)".contains("WebSockets not supported by libcurl"), "\(error)")
          #expect(server.registry.journal.isEmpty)
        #else
          throw error
        #endif
      }
    }
  }
#endif
