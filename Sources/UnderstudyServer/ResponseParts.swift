#if Server
  import NIOCore
  import NIOHTTP1
  import Understudy

  /// The parts of one answer, in runs that go out together, each followed by the wait the stub
  /// asks for (`bodyDelayed(by:)`, throttling, a streamed body's delays) or by the answer's end.
  struct ResponseParts: Sendable {
    /// What follows a run of parts.
    enum Then: Sendable {
      /// Wait this long, then ask for the next run.
      case wait(TimeInterval)
      /// The answer is out (or cut short): keep the connection for the next request, or close it.
      case end(keepingConnection: Bool)
    }

    let exchange: ServedExchange
    let head: HTTPRequestHead
    private var started = false

    init(exchange: ServedExchange, head: HTTPRequestHead) {
      self.exchange = exchange
      self.head = head
    }

    /// The next run of parts to write, and what follows it.
    mutating func next() -> ([HTTPServerResponsePart], then: Then) {
      var parts: [HTTPServerResponsePart] = []
      if !started {
        started = true
        if exchange.dropsConnection != nil { return ([], .end(keepingConnection: false)) }
        if exchange.webSocket != nil {
          return Self.text(
            .badRequest,
            "Understudy: a WebSocket stub matched \(head.method.rawValue) "
              + "\(LogRedaction.mask(url: head.uri)), but the upgrade was not a valid WebSocket "
              + "handshake: send it as the first request of a connection, with "
              + "Sec-WebSocket-Key and Sec-WebSocket-Version: 13.\n", head)
        }
        parts.append(.head(Self.responseHead(for: exchange, answering: head)))
        let delay = exchange.bodyDelay + (exchange.body?.initialDelay ?? 0)
        if delay > 0 { return (parts, .wait(delay)) }
      }
      guard let body = exchange.body else {
        if let canned = exchange.cannedBody, !canned.isEmpty {
          parts.append(.body(.byteBuffer(ByteBuffer(bytes: canned))))
        }
        parts.append(.end(nil))
        return (parts, .end(keepingConnection: head.isKeepAlive))
      }
      func add(_ data: Data) {
        if !data.isEmpty { parts.append(.body(.byteBuffer(ByteBuffer(bytes: data)))) }
      }
      while true {
        switch body.next() {
        case .send(let data, let delay):
          add(data)
          if delay > 0 { return (parts, .wait(delay)) }
        case .finish(let data):
          add(data)
          parts.append(.end(nil))
          return (parts, .end(keepingConnection: head.isKeepAlive))
        case .drop(let data, _):
          // A real hang-up mid-body: the client sees fewer bytes than announced.
          add(data)
          return (parts, .end(keepingConnection: false))
        }
      }
    }

    /// The head of `exchange`'s answer to `request`, in SwiftNIO's form.
    static func responseHead(for exchange: ServedExchange, answering request: HTTPRequestHead)
      -> HTTPResponseHead
    {
      var headers = NIOHTTP1.HTTPHeaders()
      headers.reserveCapacity(exchange.headers.fields.count + 1)
      for field in exchange.headers { headers.add(name: field.name, value: field.value) }
      if !request.isKeepAlive { headers.replaceOrAdd(name: "Connection", value: "close") }
      return HTTPResponseHead(
        version: request.version, status: HTTPResponseStatus(statusCode: exchange.status),
        headers: headers)
    }

    /// A plain-text answer that closes the connection: the server's own refusals.
    static func text(_ status: HTTPResponseStatus, _ text: String, _ head: HTTPRequestHead)
      -> ([HTTPServerResponsePart], then: Then)
    {
      // Each such text quotes the request, and the client under test may log it.
      let bytes = ByteBuffer(string: LogRedaction.mask(text))
      let response = HTTPResponseHead(
        version: head.version, status: status,
        headers: [
          "Content-Type": "text/plain; charset=utf-8",
          "Content-Length": String(bytes.readableBytes), "Connection": "close",
        ])
      // An answer to HEAD has the length of the body it leaves out.
      let parts: [HTTPServerResponsePart] =
        head.method == .HEAD
        ? [.head(response), .end(nil)] : [.head(response), .body(.byteBuffer(bytes)), .end(nil)]
      return (parts, .end(keepingConnection: false))
    }
  }
#endif
