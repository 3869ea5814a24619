#if ClientTests
  import AsyncHTTPClient
  import Foundation
  import NIOCore
  import NIOHTTP1
  import Testing
  import Understudy
  import UnderstudyServer

  /// AsyncHTTPClient, the usual HTTP client of server-side Swift, which no `URLProtocol` reaches:
  /// against the server's base URL, and with the server as its HTTP proxy (a `CONNECT` tunnel). Built only with the
  /// `ClientTests` trait, which brings AsyncHTTPClient and its twenty-odd packages.
  @Suite struct AsyncHTTPClientTests {
    /// Runs `body` with a client of its own, shut down afterwards whatever happens.
    private func withClient<Result>(_ body: (HTTPClient) async throws -> Result) async throws
      -> Result
    {
      let client = HTTPClient(eventLoopGroupProvider: .singleton)
      do {
        let result = try await body(client)
        try await client.shutdown()
        return result
      } catch {
        try? await client.shutdown()
        throw error
      }
    }

    /// Sends `request` and reads the whole answer.
    private func send(_ request: HTTPClientRequest, with client: HTTPClient) async throws
      -> (status: HTTPResponseStatus, headers: NIOHTTP1.HTTPHeaders, text: String)
    {
      let response = try await client.execute(request, timeout: .seconds(30))
      let body = try await response.body.collect(upTo: 1 << 20)
      return (response.status, response.headers, String(buffer: body))
    }

    // MigratingFromReplay.md shows this test as it is.
    @Test(
      .servedStubs {
        $0.stub(.get("/users/{id}")) { request in .json(["id": request.pathParameters["id"]!]) }
      })
    func readsAUserThroughAsyncHTTPClient() async throws {
      let server = try #require(LoopbackServer.current)
      let client = HTTPClient(eventLoopGroupProvider: .singleton)
      let response = try await client.execute(
        HTTPClientRequest(url: server.baseURL.appending(path: "users/42").absoluteString),
        timeout: .seconds(30))
      #expect(String(buffer: try await response.body.collect(upTo: 1 << 20)) == #"{"id":"42"}"#)
      try await client.shutdown()
    }

    @Test(
      .servedStubs {
        $0.stub(.get("/users/{id}")) { request in .json(["id": request.pathParameters["id"]!]) }
        $0.stub(.post("/users"), .text("created", status: 201))
      })
    func getAndPostInOriginForm() async throws {
      let server = try #require(LoopbackServer.current)
      let (get, post) = try await withClient { client in
        let get = try await send(
          HTTPClientRequest(url: server.baseURL.appending(path: "users/42").absoluteString),
          with: client)
        var post = HTTPClientRequest(url: server.baseURL.appending(path: "users").absoluteString)
        post.method = .POST
        post.headers.add(name: "Content-Type", value: "application/json")
        post.body = .bytes(ByteBuffer(string: #"{"name":"Ada"}"#))
        return (get, try await send(post, with: client))
      }
      #expect(get.status == .ok)
      #expect(get.text == #"{"id":"42"}"#)
      #expect(post.status == .created)
      #expect(post.text == "created")
      let journal = server.registry.journal
      #expect(journal.map(\.request.method) == ["GET", "POST"])
      #expect(journal.last?.request.body == Data(#"{"name":"Ada"}"#.utf8))
      #expect(journal.last?.response?.status == 201)
      #expect(
        server.registry.verify(
          .post("/users") && .header("Content-Type", "application/json"), .once))
    }

    /// AsyncHTTPClient 1.37 opens a `CONNECT` tunnel through any HTTP proxy, even for an
    /// `http://` URL; the server reads the tunnel as HTTP to the tunnel's host, so stubs for the
    /// real host answer.
    @Test(
      .servedStubs {
        $0.stub(.get("http://api.example.com/v1/status"), .text("up"))
        $0.stub(.post("http://api.example.com/v1/orders"), .text("created", status: 201))
      })
    func asAProxyItTunnelsPlainHTTPToStubsForTheRealHost() async throws {
      let server = try #require(LoopbackServer.current)
      let client = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: HTTPClient.Configuration(
          proxy: .server(host: "127.0.0.1", port: server.port)))
      let answers = try await {
        let status = try await send(
          HTTPClientRequest(url: "http://api.example.com/v1/status"), with: client)
        var post = HTTPClientRequest(url: "http://api.example.com/v1/orders")
        post.method = .POST
        post.body = .bytes(ByteBuffer(string: "one"))
        return (status, try await send(post, with: client))
      }()
      try await client.shutdown()
      #expect(answers.0.status == .ok)
      #expect(answers.0.text == "up")
      #expect(answers.1.status == .created)
      let journal = server.registry.journal
      #expect(
        journal.map(\.request.url.absoluteString) == [
          "http://api.example.com/v1/status", "http://api.example.com/v1/orders",
        ])
      #expect(journal.last?.request.body == Data("one".utf8))
    }

    /// HTTPS through the proxy: the client's TLS handshake in the tunnel is refused at once
    /// with a TLS alert, never a hang and never a connection to the network.
    @Test func httpsThroughTheProxyFailsFastWithATLSError() async throws {
      // Outside a test scope, the server's issue goes to standard error rather than this test.
      let registry = StubRegistry()
      let server = try await registry.startServer()
      var configuration = HTTPClient.Configuration(
        proxy: .server(host: "127.0.0.1", port: server.port))
      // The client retries a failed connection until this timeout, then throws the last error:
      // this test takes about a second for that reason.
      configuration.timeout.connect = .seconds(1)
      let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
      let failure = await #expect(throws: (any Error).self) {
        _ = try await client.execute(
          HTTPClientRequest(url: "https://api.example.com/secure"), timeout: .seconds(30))
      }
      try await client.shutdown()
      await server.stop()
      // A hang would end in the deadline; the alert ends the handshake first.
      #expect((failure as? HTTPClientError) != .deadlineExceeded, "\(String(describing: failure))")
      #expect(registry.journal.isEmpty)
    }

    @Test func anUnmatchedRequestGetsTheReportAndTheScopeTheIssue() async throws {
      let registry = StubRegistry()
      registry.stub(.get("/users/{id}"), .ok)
      let server = try await registry.startServer()
      let answer = try await withClient { client in
        var request = HTTPClientRequest(url: "\(server.baseURL)/orders/7")
        request.headers.add(name: "Authorization", value: "Bearer s3cr3t-header")
        return try await send(request, with: client)
      }
      #expect(answer.status == .notFound)
      #expect(answer.text.contains("no stub matched GET"))
      #expect(answer.text.contains("/users/{id}"))
      #expect(answer.text.contains("Authorization: Bearer ••••(13 chars)"))
      #expect(!answer.text.contains("s3cr3t"))
      let failures = registry.endScope(
        testName: "unmatched",
        location: SourceLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)
      )
      #expect(failures.contains { $0.message.contains("no stub matched GET") }, "\(failures)")
      #expect(registry.server == nil)
    }

    @Test(
      .servedStubs {
        $0.stub(.get("/slow"), StubResponse.text("late").delayed(by: 0.2))
        $0.stub(
          .get("/events"),
          .streaming(
            [(Data("data: 1\n\n".utf8), after: 0), (Data("data: 2\n\n".utf8), after: 0.2)],
            headers: ["Content-Type": "text/event-stream"]))
      })
    func delayedAndStreamedAnswersArrive() async throws {
      let server = try #require(LoopbackServer.current)
      let (late, parts, headers) = try await withClient { client in
        let late = try await send(
          HTTPClientRequest(url: server.baseURL.appending(path: "slow").absoluteString),
          with: client)
        let response = try await client.execute(
          HTTPClientRequest(url: server.baseURL.appending(path: "events").absoluteString),
          timeout: .seconds(30))
        var parts: [String] = []
        for try await buffer in response.body { parts.append(String(buffer: buffer)) }
        return (late, parts, response.headers)
      }
      #expect(late.status == .ok)
      #expect(late.text == "late")
      #expect(headers["Transfer-Encoding"].map { $0.lowercased() } == ["chunked"])
      #expect(headers["Content-Type"] == ["text/event-stream"])
      #expect(parts.joined() == "data: 1\n\ndata: 2\n\n")
      // The first event reaches the client before the second one is sent.
      #expect(parts.first == "data: 1\n\n", "\(parts)")
    }
  }
#endif
