#if Server
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
      let client = try await ClientBootstrap(group: NIOSingletons.posixEventLoopGroup)
        .connect(host: "127.0.0.1", port: server.port) { channel in
          channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHTTPClientHandlers()
            return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
              wrappingChannelSynchronously: channel)
          }
        }
      let answers = try await client.executeThenClose { inbound, outbound in
        var responses = inbound.makeAsyncIterator()
        var answers: [(HTTPResponseStatus, String)] = []
        for (target, host) in [
          ("/origin", "127.0.0.1:\(server.port)"),
          ("http://api.example.com/proxied", "api.example.com"),
        ] {
          try await outbound.write(
            .head(
              HTTPRequestHead(version: .http1_1, method: .GET, uri: target, headers: ["Host": host])
            ))
          try await outbound.write(.end(nil))
          var status = HTTPResponseStatus.imATeapot
          var text = ""
          reading: while let part = try await responses.next() {
            switch part {
            case .head(let head): status = head.status
            case .body(let buffer): text += String(buffer: buffer)
            case .end: break reading
            }
          }
          answers.append((status, text))
        }
        return answers
      }
      #expect(answers.map(\.0) == [.ok, .ok])
      #expect(answers.map(\.1) == ["origin form", "proxy form"])
      #expect(
        server.registry.journal.map(\.request.url.absoluteString) == [
          "http://127.0.0.1:\(server.port)/origin", "http://api.example.com/proxied",
        ])
    }
  }
#endif
