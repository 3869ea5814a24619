#if Server
  import Foundation
  import NIOCore
  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Darwin)
    import Darwin
  #endif
  import Testing
  import Understudy
  import UnderstudyServer

  /// What the server does on its event loops, which every server of the process shares: nothing
  /// whose cost grows with a request's body, and no client left waiting for `100 Continue`.
  @Suite struct ServerEventLoopTests {
    /// Sends `request` on a connection of its own and reads the answer's head.
    static func answerHead(of request: String, port: Int) async throws -> String {
      try await PreEncodedAnswerTests.exchange(on: port) { answers, out in
        try await out.write(ByteBuffer(string: request))
        return try await answers.next(bodiless: false).head
      }
    }

    /// A 2 MB request that matches nothing is matched and reported off the event loops: another
    /// registry's server, whose connections share those loops, answers as fast meanwhile. Each
    /// probe opens a connection of its own, so the probes land on every loop.
    @Test func aLargeUnmatchedRequestDoesNotDelayAnotherServersAnswer() async throws {
      let large = StubRegistry()
      // Each stub is explained against the whole body in the report: a second or more of work.
      for kind in 0..<20 {
        large.stub(
          .post("/upload") && .body(containing: "\"kind\":\"photo-\(kind)\""), .text("stored"))
      }
      let other = StubRegistry()
      other.stub(.get("/ping"), .text("pong"))
      let largeServer = try await large.startServer()
      let otherServer = try await other.startServer()
      defer {
        large.reportsNothing()
        other.reportsNothing()
      }
      let body = String(repeating: "{\"kind\":\"text\",\"note\":\"token=abc123 \"},", count: 50_000)
      let uploadStarted = ContinuousClock.now
      let upload = Task {
        try await Self.answerHead(
          of: "POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)",
          port: largeServer.port)
      }
      // Probes from a thread of their own with blocking sockets, so what they measure is the
      // server's event loops, not Swift's cooperative threads, which the rest of the suite keeps
      // busy.
      let latencies = try await BlockingProbe.latencies(
        of: otherServer.port,
        until: {
          large.journal.first?.response != nil
        })
      let uploaded = try await upload.value
      let handled = ContinuousClock.now - uploadStarted
      #expect(uploaded.hasPrefix("HTTP/1.1 404"))
      #expect(latencies.count >= 20)
      // On a loop the report holds, some probe waits for most of it. Off the loops, the probes
      // wait only for a busy machine's threads, whatever the report takes: a bound relative to
      // the report's time holds on a loaded machine, where the suite's other tests make a
      // fixed one of a few milliseconds meaningless.
      let slowest = latencies.max() ?? .zero
      #expect(
        slowest < handled / 3,
        "another server's answer took \(slowest) while the upload took \(handled)")
      await largeServer.stop()
      await otherServer.stop()
    }

    /// curl sends `Expect: 100-continue` with a body over 1 MB and waits a second for the
    /// interim answer before it sends the body anyway.
    @Test(.servedStubs { $0.stub(.post("/upload"), .text("stored", status: 201)) })
    func curlUploadsWithoutWaitingForContinue() async throws {
      let server = try #require(LoopbackServer.current)
      let file = FileManager.default.temporaryDirectory
        .appending(path: "understudy-upload-\(UUID().uuidString)")
      try Data(repeating: 65, count: 2 << 20).write(to: file)
      defer { try? FileManager.default.removeItem(at: file) }
      let curl = try await Subprocess.curl(
        "--verbose", "--data-binary", "@\(file.path)", "--output", "/dev/null", "--write-out",
        "%{http_code}", server.baseURL.appending(path: "upload").absoluteString)
      #expect(curl.output == "201", "\(curl.errors)")
      // curl says which answer it got; without one, it waits its second and sends the body.
      #expect(curl.errors.contains("< HTTP/1.1 100 Continue"), "\(curl.errors)")
      #expect(curl.errors.contains("> Expect: 100-continue"))
      #expect(server.registry.journal.first?.request.body?.count == 2 << 20)
    }

    /// A client that waits for `100 Continue` before it sends the body gets it at once, then
    /// the answer.
    @Test(
      .servedStubs { $0.stub(.post("/upload") && .body("hello"), .text("stored", status: 201)) })
    func aClientWaitingForContinueGetsIt() async throws {
      let server = try #require(LoopbackServer.current)
      let heads = try await PreEncodedAnswerTests.exchange(on: server.port) { answers, out in
        try await out.write(
          ByteBuffer(
            string: "POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\n"
              + "Content-Length: 5\r\n\r\n"))
        // A server that never sends it would keep the client waiting: after 2 s the client
        // gives up and hangs up, and the server's own hang-up ends the read.
        let patience = Task {
          try await Task.sleep(for: .seconds(2))
          out.finish()
        }
        let interim = try await answers.next(bodiless: true).head
        patience.cancel()
        try await out.write(ByteBuffer(string: "hello"))
        return [interim, try await answers.next(bodiless: false).head]
      }
      #expect(heads.first == "HTTP/1.1 100 Continue")
      #expect(heads.last?.hasPrefix("HTTP/1.1 201") == true)
    }
  }

  /// Times `GET /ping` over fresh connections (each `Connection: close`, so consecutive probes
  /// land on different event loops), sent with blocking sockets from a thread of its own.
  enum BlockingProbe {
    static func latencies(of port: Int, until done: @escaping @Sendable () -> Bool) async throws
      -> [Duration]
    {
      try await withCheckedThrowingContinuation { continuation in
        Thread {
          continuation.resume(
            with: Result {
              var latencies: [Duration] = []
              // At least twenty, so that some meet the upload on its loop; at most a minute.
              while (latencies.count < 20 || !done()) && latencies.count < 6_000 {
                let sent = ContinuousClock.now
                let answer = try ping(port)
                latencies.append(ContinuousClock.now - sent)
                guard answer.hasPrefix("HTTP/1.1 200") else {
                  throw ProbeError(description: "the probe got \(answer.debugDescription)")
                }
              }
              return latencies
            })
        }.start()
      }
    }

    struct ProbeError: Error, CustomStringConvertible {
      let description: String
    }

    /// One request on a new connection; the answer's bytes until the server closes.
    private static func ping(_ port: Int) throws -> String {
      #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
      #endif
      guard descriptor >= 0 else { throw ProbeError(description: "socket() failed") }
      defer { close(descriptor) }
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = in_port_t(UInt16(port).bigEndian)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard connected == 0 else { throw ProbeError(description: "connect() failed") }
      let request = Array("GET /ping HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
      guard send(descriptor, request, request.count, 0) == request.count else {
        throw ProbeError(description: "send() failed")
      }
      var answer: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = recv(descriptor, &chunk, chunk.count, 0)
        if count <= 0 { break }
        answer += chunk[..<count]
      }
      return String(decoding: answer, as: UTF8.self)
    }
  }

  extension StubRegistry {
    /// Ends a registry's life as a scope that checks nothing: its unmatched requests are what
    /// the test sent on purpose.
    fileprivate func reportsNothing() {
      _ = endScope(
        testName: "a test", verifying: [],
        location: location)
    }
  }
#endif
