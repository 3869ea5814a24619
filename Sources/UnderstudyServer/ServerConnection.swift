#if Server
  import NIOCore
  import NIOHTTP1
  import Understudy

  /// One accepted connection: reads requests in turn and writes what the registry answers.
  struct ServerConnection: Sendable {
    typealias Channel = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>
    typealias Outbound = NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>

    let registry: StubRegistry
    /// The server's own base URL: the host of origin-form requests that name none.
    let origin: URL
    /// The origin whose requests origin-form ones stand for (a reverse proxy, a server replaying a
    /// cassette), or `nil` to take them as requests to the server itself.
    var standingInFor: URL? = nil

    func serve(_ accepted: EventLoopFuture<AcceptedConnection>) async {
      switch try? await accepted.get() {
      case .http(let connection, let declined): await serve(connection, declined: declined)
      case .webSocket(let webSocket, let exchange):
        await WebSocketSession(registry: registry, exchange: exchange).serve(webSocket)
      case nil: return
      }
    }

    private func serve(_ connection: Channel, declined: DeclinedUpgrade) async {
      try? await connection.executeThenClose { inbound, outbound in
        if let first = declined.take() {
          // An upgrade request SwiftNIO consumed without upgrading; it had no body.
          guard try await respond(to: first.head, body: Data(), first.answer, outbound) else {
            return
          }
        }
        var head: HTTPRequestHead?
        var body = Data()
        for try await part in inbound {
          switch part {
          case .head(let received):
            head = received
            body = Data()
          case .body(let buffer):
            body.append(contentsOf: buffer.readableBytesView)
          case .end:
            guard let request = head else { continue }
            head = nil
            // Whatever is left unsaid closes the connection: a refusal, a drop, `close`.
            guard try await respond(to: request, body: body, nil, outbound) else { return }
          }
        }
      }
    }

    /// Answers one request (with `answer` when the registry gave it already); returns whether
    /// the connection stays open for the next.
    private func respond(
      to head: HTTPRequestHead, body: Data, _ answer: ServedExchange?, _ outbound: Outbound
    ) async throws -> Bool {
      if head.method == .CONNECT {
        // SwiftNIO sends no body with any answer to CONNECT (RFC 9112 lets 2xx ones have none),
        // so the reason phrase and a header carry the explanation.
        try await outbound.write(
          .head(
            HTTPResponseHead(
              version: head.version,
              status: .custom(
                code: 501, reasonPhrase: "Understudy's loopback server does not tunnel CONNECT"),
              headers: [
                "Connection": "close",
                "X-Understudy-Refusal":
                  "Understudy's loopback server does not tunnel CONNECT \(head.uri): it answers "
                  + "plain http only and never opens a connection of its own. Send http:// URLs "
                  + "through it as a proxy (they are matched against stubs for the real host), or "
                  + "stub HTTPS with a URLSession from the registry.",
              ])))
        try await outbound.write(.end(nil))
        return false
      }
      guard let request = Self.request(head, body: body, origin, standingInFor: standingInFor)
      else {
        try await writeText(
          .badRequest,
          "Understudy's loopback server cannot tell the URL of \(head.method.rawValue) "
            + "\(head.uri): send an origin-form path (/path) or an absolute http:// URL.\n",
          head, outbound)
        return false
      }
      let exchange: ServedExchange
      if let answer {
        exchange = answer
      } else {
        exchange = await ServedExchange.serve(request, by: registry, origin: origin)
      }
      defer { exchange.finish() }
      if exchange.dropsConnection != nil { return false }
      if exchange.webSocket != nil {
        try await writeText(
          .badRequest,
          "Understudy: a WebSocket stub matched \(request), but the upgrade was not a valid "
            + "WebSocket handshake: send it as the first request of a connection, with "
            + "Sec-WebSocket-Key and Sec-WebSocket-Version: 13.\n", head, outbound)
        return false
      }
      var headers = NIOHTTP1.HTTPHeaders(exchange.headers.map { ($0.name, $0.value) })
      if !head.isKeepAlive { headers.replaceOrAdd(name: "Connection", value: "close") }
      // Parts that go out without a wait in between are written together: each write is a hop
      // to the event loop, and three of them per answer cost the server half its throughput.
      var pending: [HTTPServerResponsePart] = [
        .head(
          HTTPResponseHead(
            version: head.version, status: HTTPResponseStatus(statusCode: exchange.status),
            headers: headers))
      ]
      func flush() async throws {
        guard !pending.isEmpty else { return }
        try await outbound.write(contentsOf: pending)
        pending.removeAll(keepingCapacity: true)
      }
      func add(_ data: Data) {
        if !data.isEmpty { pending.append(.body(.byteBuffer(ByteBuffer(bytes: data)))) }
      }
      if let parts = exchange.body {
        let delay = exchange.bodyDelay + parts.initialDelay
        if delay > 0 {
          try await flush()
          try await pause(delay)
        }
        sending: while true {
          switch parts.next() {
          case .send(let data, let delay):
            add(data)
            if delay > 0 {
              try await flush()
              try await pause(delay)
            }
          case .finish(let data):
            add(data)
            break sending
          case .drop(let data, _):
            // A real hang-up mid-body: the client sees fewer bytes than announced.
            add(data)
            try await flush()
            return false
          }
        }
      }
      pending.append(.end(nil))
      try await flush()
      return head.isKeepAlive
    }

    private func pause(_ seconds: TimeInterval) async throws {
      if seconds > 0 { try await Task.sleep(for: .seconds(seconds)) }
    }

    private func writeText(
      _ status: HTTPResponseStatus, _ text: String, _ head: HTTPRequestHead, _ outbound: Outbound
    ) async throws {
      let bytes = ByteBuffer(string: text)
      try await outbound.write(
        .head(
          HTTPResponseHead(
            version: head.version, status: status,
            headers: [
              "Content-Type": "text/plain; charset=utf-8",
              "Content-Length": String(bytes.readableBytes), "Connection": "close",
            ])))
      try await outbound.write(.body(.byteBuffer(bytes)))
      try await outbound.write(.end(nil))
    }

    /// The request as the registry sees it, or `nil` when its URL cannot be told.
    static func request(
      _ head: HTTPRequestHead, body: Data, _ origin: URL, standingInFor: URL? = nil
    ) -> InterceptedRequest? {
      guard let url = url(of: head, origin: origin, standingInFor: standingInFor) else {
        return nil
      }
      var fields = Understudy.HTTPHeaders()
      for (name, value) in head.headers { fields.add(name: name, value: value) }
      // Standing in for another origin, the client's `Host` names this server, not that origin;
      // left out, the request reads as one the code under test sent to the origin itself.
      if standingInFor != nil, head.uri.hasPrefix("/") { fields["Host"] = nil }
      return InterceptedRequest(
        method: HTTPMethod(rawValue: head.method.rawValue), url: url, headers: fields,
        body: body.isEmpty ? nil : body)
    }

    /// The request's URL: its own in absolute form (a client using the server as its proxy),
    /// else its path on the origin the server stands in for, on the host it named (`Host`), or
    /// on the server.
    static func url(of head: HTTPRequestHead, origin: URL, standingInFor: URL? = nil) -> URL? {
      let target = head.uri
      if target.lowercased().hasPrefix("http://") || target.lowercased().hasPrefix("https://") {
        return URL(string: target)
      }
      guard target.hasPrefix("/") else { return nil }
      if let standingInFor {
        var base = standingInFor.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return URL(string: base + target)
      }
      let host = head.headers.first(name: "Host") ?? "\(origin.host!):\(origin.port!)"
      return URL(string: "http://\(host)\(target)")
    }
  }
#endif
