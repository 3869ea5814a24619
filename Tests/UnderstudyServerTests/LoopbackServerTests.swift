#if Server
  import Foundation
  import Testing
  import Understudy
  import UnderstudyServer
  #if canImport(FoundationNetworking)
    import FoundationNetworking
  #endif

  /// A plain session: the server is reached over real sockets, never through a stub protocol.
  private let plainSession = URLSession(configuration: .ephemeral)

  private func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

  @Suite struct LoopbackServerTests {
    @Test(
      .servedStubs {
        $0.stub(.get("/users/{id}")) { request in .json(["id": request.pathParameters["id"]!]) }
      })
    func urlSessionIsAnsweredFromTheRegistry() async throws {
      let server = try #require(LoopbackServer.current)
      #expect(server.baseURL.host == "127.0.0.1")
      let (data, response) = try await plainSession.data(
        from: server.baseURL.appending(path: "users/42"))
      #expect((response as? HTTPURLResponse)?.statusCode == 200)
      #expect(text(data) == #"{"id":"42"}"#)
      let journal = server.registry.journal
      #expect(journal.count == 1)
      #expect(journal.first?.request.url.path == "/users/42")
      #expect(journal.first?.response?.status == 200)
    }

    @Test func anUnmatchedRequestGetsTheMaskedReportAndTheTestGetsTheIssue() async throws {
      let registry = StubRegistry()
      registry.stub(.get("/users/{id}"), .ok)
      let server = try await registry.startServer()
      var request = URLRequest(url: URL(string: "\(server.baseURL)/orders/7?token=s3cr3t-query")!)
      request.setValue("Bearer s3cr3t-header", forHTTPHeaderField: "Authorization")
      let (data, response) = try await plainSession.data(for: request)
      await server.stop()
      let body = text(data)
      #expect((response as? HTTPURLResponse)?.statusCode == 404)
      #expect(body.contains("no stub matched GET"))
      #expect(body.contains("/users/{id}"))
      #expect(body.contains("Authorization: Bearer ••••(13 chars)"))
      #expect(!body.contains("s3cr3t"))
      #expect(registry.unmatchedReports.count == 1)
      #expect(registry.endScope(testName: "t", verifying: .noUnmatchedRequests).count == 1)
    }

    @Test(
      .servedStubs {
        $0.stub(.get("/counter"), sequence: [.text("one"), .text("two")])
        $0.stub(.get("/slow"), StubResponse.text("late").delayed(by: 0.3))
        $0.stub(.get("/start"), .redirect(to: "/end"))
        $0.stub(.get("/end"), .text("arrived"))
        $0.stub(.post("/echo")) { .data($0.body ?? Data()) }
      })
    func sequencesLatencyRedirectsAndBodiesWork() async throws {
      let base = try #require(LoopbackServer.current).baseURL
      let first = try await plainSession.data(from: base.appending(path: "counter")).0
      let second = try await plainSession.data(from: base.appending(path: "counter")).0
      #expect(text(first) == "one")
      #expect(text(second) == "two")

      let started = Date()
      let late = try await plainSession.data(from: base.appending(path: "slow")).0
      #expect(text(late) == "late")
      #expect(Date().timeIntervalSince(started) >= 0.3)

      let (arrived, response) = try await plainSession.data(from: base.appending(path: "start"))
      #expect(text(arrived) == "arrived")
      #expect(response.url?.path == "/end")

      var post = URLRequest(url: base.appending(path: "echo"))
      post.httpMethod = "POST"
      post.httpBody = Data("payload".utf8)
      #expect(text(try await plainSession.data(for: post).0) == "payload")
      #expect(try #require(LoopbackServer.current).registry.requests.last?.body == post.httpBody)
    }

    @Test(
      .servedStubs {
        $0.stub(.get("/offline"), .failure(URLError(.notConnectedToInternet)))
        $0.stub(
          .get("/cut"),
          StubResponse.data(Data(repeating: 7, count: 1000)).droppingConnection(
            afterBytes: 100))
        $0.stub(
          .get("/events"),
          .streaming(
            [(Data("data: 1\n\n".utf8), after: 0), (Data("data: 2\n\n".utf8), after: 0.2)],
            headers: ["Content-Type": "text/event-stream"]))
      })
    func faultsAreRealHangUpsAndStreamsAreChunked() async throws {
      let base = try #require(LoopbackServer.current).baseURL
      await #expect(throws: (any Error).self) {
        _ = try await plainSession.data(from: base.appending(path: "offline"))
      }
      let cut = try await Subprocess.curl("\(base)/cut", "--output", "/dev/null")
      // 18: "Transferred a partial file" - fewer bytes than the Content-Length announced.
      #expect(cut.status == 18, "\(cut.errors)")

      let events = try await Subprocess.curl("--include", "--no-buffer", "\(base)/events")
      #expect(events.status == 0, "\(events.errors)")
      #expect(events.output.lowercased().contains("transfer-encoding: chunked"))
      #expect(events.output.hasSuffix("data: 1\n\ndata: 2\n\n"))
    }

    /// On Linux no custom protocol can serve a download task; a real server can.
    /// A delay no clock can count is an answer that never comes: the client's timeout ends the
    /// request, and the server goes on answering (it trapped converting the delay before).
    @Test(
      .servedStubs {
        $0.stub(.get("/never"), StubResponse.text("late").delayed(by: .infinity))
        $0.stub(.get("/huge"), StubResponse.text("late").delayed(by: 1e300))
        $0.stub(.get("/never-body"), StubResponse.text("late").bodyDelayed(by: .infinity))
        $0.stub(
          .get("/never-part"),
          .streaming([(Data("first".utf8), after: 0), (Data("never".utf8), after: .infinity)]))
        $0.stub(.get("/ok"), .text("still here"))
      })
    func aDelayNoClockCanCountNeverAnswersAndTheServerGoesOn() async throws {
      let base = try #require(LoopbackServer.current).baseURL
      // A whole second: FoundationNetworking's own timer fails a request with a shorter
      // timeout at once (0.3 s did), before the server has read it.
      let codes = await withTaskGroup(of: (String, URLError.Code?).self) { group in
        for path in ["never", "huge", "never-body", "never-part"] {
          var request = URLRequest(url: base.appending(path: path))
          request.timeoutInterval = 1
          group.addTask { [request] in
            do {
              _ = try await plainSession.data(for: request)
              return (path, nil)
            } catch {
              return (path, (error as? URLError)?.code)
            }
          }
        }
        return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
      }
      #expect(
        codes == [
          "never": .timedOut, "huge": .timedOut, "never-body": .timedOut, "never-part": .timedOut,
        ])
      #expect(text(try await plainSession.data(from: base.appending(path: "ok")).0) == "still here")
    }

    @Test(.servedStubs { $0.stub(.get("/report.csv"), .text("a,b\n1,2\n")) })
    func aDownloadTaskIsServed() async throws {
      let base = try #require(LoopbackServer.current).baseURL
      let (file, response) = try await plainSession.download(
        from: base.appending(path: "report.csv"))
      #expect((response as? HTTPURLResponse)?.statusCode == 200)
      #expect(try String(contentsOf: file, encoding: .utf8) == "a,b\n1,2\n")
    }

    @Test(.servedStubs { $0.stub(.get("/hello"), .text("hi from the registry")) })
    func curlIsAnsweredInOriginForm() async throws {
      let base = try #require(LoopbackServer.current).baseURL
      let curl = try await Subprocess.curl("\(base)/hello")
      #expect(curl.status == 0, "\(curl.errors)")
      #expect(curl.output == "hi from the registry")
    }

    @Test(
      .servedStubs {
        $0.stub(.get("http://api.example.com/v1/users/{id}")) { request in
          .text("user \(request.pathParameters["id"]!) at \(request.url.host ?? "no host")")
        }
      })
    func proxyFormRequestsMatchStubsForTheRealHost() async throws {
      let proxy = try #require(LoopbackServer.current).baseURL.absoluteString
      let curl = try await Subprocess.curl("--proxy", proxy, "http://api.example.com/v1/users/9")
      #expect(curl.status == 0, "\(curl.errors)")
      #expect(curl.output == "user 9 at api.example.com")

      let python = try await Subprocess.run([
        "python3", "-c",
        """
        import sys, urllib.request
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({"http": sys.argv[1]}))
        print(opener.open("http://api.example.com/v1/users/3", timeout=10).read().decode())
        """, proxy,
      ])
      #expect(python.status == 0, "\(python.errors)")
      #expect(python.output == "user 3 at api.example.com\n")
    }

    @Test func aCassetteReplaysThroughTheServer() async throws {
      // A cassette made from a registry's journal, replayed by another registry's server.
      let recorder = StubRegistry()
      recorder.stub(.get("http://api.example.com/feed"), .text("recorded feed"))
      _ = try await recorder.makeSession().data(from: URL(string: "http://api.example.com/feed")!)
      let file = FileManager.default.temporaryDirectory
        .appending(path: "understudy-served-\(UUID().uuidString).har")
      defer { try? FileManager.default.removeItem(at: file) }
      try HAR(journal: recorder.journal, name: "feed").write(to: file)

      let registry = StubRegistry()
      registry.use(Cassette(at: file))
      let server = try await registry.startServer()
      let curl = try await Subprocess.curl(
        "--proxy", server.baseURL.absoluteString, "http://api.example.com/feed")
      await server.stop()
      #expect(curl.output == "recorded feed", "\(curl.errors)")
      guard case .replayed(let replayedFrom) = registry.journal.first?.outcome else {
        Issue.record("the request was not replayed: \(registry.journal)")
        return
      }
      #expect(replayedFrom == file)
    }

    @Test(
      .servedStubs {
        $0.stub(.get("http://api.example.com/v1/users/{id}"), .text("through the tunnel"))
        $0.stub(.get("http://api.example.com:8080/health"), .text("up"))
      })
    func aConnectTunnelIsAnsweredByStubsForTheTunnelsHost() async throws {
      let server = try #require(LoopbackServer.current)
      // --proxytunnel: CONNECT api.example.com:80, then the request inside the tunnel.
      let curl = try await Subprocess.curl(
        "--proxy", server.baseURL.absoluteString, "--proxytunnel",
        "http://api.example.com/v1/users/9", "http://api.example.com:8080/health")
      #expect(curl.status == 0, "\(curl.errors)")
      #expect(curl.output == "through the tunnelup")
      #expect(
        server.registry.journal.map(\.request.url.absoluteString) == [
          "http://api.example.com/v1/users/9", "http://api.example.com:8080/health",
        ])
    }

    @Test(.servedStubs { $0.stub(.head("/report.pdf"), .data(Data(repeating: 7, count: 300))) })
    func aHeadRequestGetsTheLengthWithoutTheBody() async throws {
      let server = try #require(LoopbackServer.current)
      let curl = try await Subprocess.curl(
        "--head", server.baseURL.appending(path: "report.pdf").absoluteString)
      #expect(curl.status == 0, "\(curl.errors)")
      #expect(curl.output.hasPrefix("HTTP/1.1 200 OK"), "\(curl.output)")
      #expect(curl.output.lowercased().contains("content-length: 300"), "\(curl.output)")
      // A body after the head would be read as the start of a second answer and fail curl.
      #expect(curl.output.hasSuffix("\r\n\r\n"), "\(curl.output)")
    }

    @Test func httpsThroughAConnectTunnelIsRefusedAtOnceAndNeverReachesTheNetwork() async throws {
      // Outside a test scope, so the server's issue goes to standard error, not to this test;
      // StubbedTestCaseServerTests checks that a scope records it.
      let registry = StubRegistry()
      let server = try await registry.startServer()
      // A hang would end in curl's own time limit (exit 28), not in the TLS failure (exit 35).
      let curl = try await Subprocess.curl(
        "--proxy", server.baseURL.absoluteString, "https://api.example.com/secure")
      await server.stop()
      // 35: curl's "SSL connect error", here the server's handshake_failure alert.
      #expect(curl.status == 35, "\(curl.errors)")
      #expect(curl.errors.contains("handshake failure"), "\(curl.errors)")
      #expect(registry.journal.isEmpty)
    }

    @Test(.servedStubs)
    func aConnectToSomethingOtherThanHostAndPortIsRefused() async throws {
      let server = try #require(LoopbackServer.current)
      let raw = try await Subprocess.curl(
        "--include", "--request-target", "api.example.com", "--request", "CONNECT",
        server.baseURL.absoluteString)
      #expect(raw.output.hasPrefix("HTTP/1.1 400 Bad Request"), "\(raw.output)")
      #expect(raw.output.contains("tunnels CONNECT to host:port only, not to api.example.com."))
      #expect(server.registry.journal.isEmpty)
    }

    @Test(.servedStubs(unmatchedRequests: .passThrough(PassThrough())))
    func aPassThroughBackToTheServerItselfIsRefused() async throws {
      let server = try #require(LoopbackServer.current)
      let (data, response) = try await plainSession.data(
        from: URL(string: "http://localhost:\(server.port)/anything")!)
      #expect((response as? HTTPURLResponse)?.statusCode == 508)
      #expect(text(data).contains("this loopback server itself"))
    }

    @Test func parallelRegistriesNeverSeeEachOthersStubs() async throws {
      try await withThrowingTaskGroup(of: Void.self) { group in
        for index in 0..<8 {
          group.addTask {
            let registry = StubRegistry()
            registry.stub(.get("/whoami"), .text("registry \(index)"))
            registry.stub(.get("/only-\(index)"), .ok)
            let server = try await registry.startServer()
            let whoami = try await plainSession.data(from: server.baseURL.appending(path: "whoami"))
            #expect(text(whoami.0) == "registry \(index)")
            let other = (index + 1) % 8
            let (_, response) = try await plainSession.data(
              from: server.baseURL.appending(path: "only-\(other)"))
            #expect((response as? HTTPURLResponse)?.statusCode == 404)
            await server.stop()
          }
        }
        try await group.waitForAll()
      }
    }

    @Test func aRequestAfterItsScopeEndedIsRefusedWithTheReasonAndNotJournaled() async throws {
      let registry = StubRegistry()
      registry.stub(.get("/ping"), .text("pong"))
      _ = registry.endScope(
        testName: "over",
        location: SourceLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)
      )
      let origin = URL(string: "http://127.0.0.1:9")!
      // The listener is gone by now; this is the request that reached it just before.
      let exchange = await ServedExchange.serve(
        InterceptedRequest(URLRequest(url: origin.appending(path: "ping"))), by: registry,
        origin: origin)
      #expect(exchange.status == 503)
      guard case .finish(let body) = exchange.body?.next() else {
        Issue.record("no body")
        return
      }
      #expect(text(body).contains("arrived at the loopback server after its test over ended"))
      #expect(registry.journal.isEmpty)
    }

    @Test func theServerStopsWhenItsScopeEnds() async throws {
      let registry = StubRegistry()
      registry.stub(.get("/ping"), .text("pong"))
      let server = try await registry.startServer()
      #expect(try await registry.startServer() === server)
      #expect(
        text(try await plainSession.data(from: server.baseURL.appending(path: "ping")).0) == "pong")
      let failures = registry.endScope(
        testName: "scoped",
        location: SourceLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)
      )
      #expect(failures.isEmpty)
      #expect(registry.server == nil)
      let curl = try await Subprocess.curl("\(server.baseURL)/ping")
      // 7: "Failed to connect": nothing listens on the port any more. 56, a connection reset
      // before any answer, is the one other outcome: a child process another test started at
      // the moment this server bound its port inherits the listening socket (SwiftNIO makes it
      // without close-on-exec), and holds the port open, unanswered, until that child exits.
      #expect([7, 56].contains(curl.status), "\(curl.errors)")
      #expect(!curl.output.contains("pong"))
    }
  }
#endif
