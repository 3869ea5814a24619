#if Server
  import Foundation
  import NIOCore
  import NIOHTTP1
  import NIOPosix
  import Testing
  import Understudy
  import UnderstudyServer

  /// A SwiftNIO client (what AsyncHTTPClient is built on) talking to the server over one
  /// keep-alive connection, in origin form and then in proxy form.
  @Suite struct SwiftNIOClientTests {
    @Test(
      .servedStubs {
        $0.stub(.get("/origin"), .text("origin form"))
        $0.stub(.get("http://api.example.com/proxied"), .text("proxy form"))
      })
    func bothFormsAreAnsweredOnOneConnection() async throws {
      let server = try #require(LoopbackServer.current)
      let answers = try await Self.send(
        [
          HTTPRequestHead(
            version: .http1_1, method: .GET, uri: "/origin",
            headers: ["Host": "127.0.0.1:\(server.port)"]),
          HTTPRequestHead(
            version: .http1_1, method: .GET, uri: "http://api.example.com/proxied",
            headers: ["Host": "api.example.com"]),
        ].map { ($0, nil) }, to: server.port)
      #expect(answers.map(\.status) == [.ok, .ok])
      #expect(answers.map(\.text) == ["origin form", "proxy form"])
      #expect(
        server.registry.journal.map(\.request.url.absoluteString) == [
          "http://127.0.0.1:\(server.port)/origin", "http://api.example.com/proxied",
        ])
    }

    /// A connection reuses what it built for the last request and answer when the next is the
    /// same (the whole request snapshot when every part is): requests to one URL that differ in
    /// method, headers or body, and answers that differ in status, headers or body, must each
    /// come out as their own, and an identical request is still matched and journaled anew.
    @Test(
      .servedStubs {
        $0.stub(.get("/item"), sequence: [.text("first"), .text("again"), .json(["n": 2])])
        // Declared later, so it wins over the stub above for the requests it matches.
        $0.stub(.get("/item") && .header("X-Variant", "b"), .text("variant b"))
        $0.stub(.post("/item"), .text("posted", status: 201))
      })
    func repeatedRequestsOnOneConnectionKeepTheirOwnPartsAndAnswers() async throws {
      let server = try #require(LoopbackServer.current)
      func item(_ method: NIOHTTP1.HTTPMethod, variant: String) -> HTTPRequestHead {
        HTTPRequestHead(
          version: .http1_1, method: method, uri: "/item",
          headers: ["Host": "127.0.0.1", "X-Variant": variant])
      }
      let answers = try await Self.send(
        [
          (item(.GET, variant: "a"), nil), (item(.GET, variant: "a"), nil),
          (item(.GET, variant: "b"), nil), (item(.POST, variant: "a"), "sent"),
          (item(.GET, variant: "a"), nil),
        ], to: server.port)
      #expect(answers.map(\.status) == [.ok, .ok, .ok, .created, .ok])
      #expect(
        answers.map(\.text) == ["first", "again", "variant b", "posted", #"{"n":2}"#])
      #expect(answers.last?.headers["Content-Type"].first == "application/json")
      #expect(answers.first?.headers["Content-Type"].first?.hasPrefix("text/plain") == true)
      let journal = server.registry.journal
      #expect(journal.map { $0.request.headers["X-Variant"] } == ["a", "a", "b", "a", "a"])
      #expect(journal.map(\.request.method) == ["GET", "GET", "GET", "POST", "GET"])
      #expect(journal.map(\.request.body) == [nil, nil, nil, Data("sent".utf8), nil])
      #expect(
        journal.map { $0.response?.body.map { String(decoding: $0, as: UTF8.self) } }
          == ["first", "again", "variant b", "posted", #"{"n":2}"#])
    }

    /// Sends `requests` one after another on one keep-alive connection and reads each answer.
    private static func send(_ requests: [(HTTPRequestHead, String?)], to port: Int) async throws
      -> [(status: HTTPResponseStatus, headers: NIOHTTP1.HTTPHeaders, text: String)]
    {
      let client = try await ClientBootstrap(group: NIOSingletons.posixEventLoopGroup)
        .connect(host: "127.0.0.1", port: port) { channel in
          channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHTTPClientHandlers()
            return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
              wrappingChannelSynchronously: channel)
          }
        }
      return try await client.executeThenClose { inbound, outbound in
        var responses = inbound.makeAsyncIterator()
        var answers: [(status: HTTPResponseStatus, headers: NIOHTTP1.HTTPHeaders, text: String)] =
          []
        for (head, body) in requests {
          var head = head
          if let body { head.headers.add(name: "Content-Length", value: String(body.utf8.count)) }
          try await outbound.write(.head(head))
          if let body { try await outbound.write(.body(.byteBuffer(ByteBuffer(string: body)))) }
          try await outbound.write(.end(nil))
          var answer = (
            status: HTTPResponseStatus.imATeapot, headers: NIOHTTP1.HTTPHeaders(), text: ""
          )
          reading: while let part = try await responses.next() {
            switch part {
            case .head(let head): (answer.status, answer.headers) = (head.status, head.headers)
            case .body(let buffer): answer.text += String(buffer: buffer)
            case .end: break reading
            }
          }
          answers.append(answer)
        }
        return answers
      }
    }
  }
#endif
