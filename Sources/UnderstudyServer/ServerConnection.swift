#if Server
  import NIOCore
  import NIOHTTP1
  import Understudy

  /// One accepted HTTP/1.1 connection: answers each request once it has been read whole.
  ///
  /// What the registry decides at once (canned stubs, replayed entries, near-miss reports) is
  /// written straight from the event loop, as a bare SwiftNIO server would: a hop to a Swift task
  /// and back for each request cost a keep-alive connection four fifths of its throughput. What
  /// has to be waited for (user code, latency, the network, a paced or streamed body, a fixture
  /// file) is answered from a task. SwiftNIO's pipelining handler holds the next request until
  /// the answer's end is written, so answers keep their order either way.
  final class ServerConnection: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let registry: StubRegistry
    private let connections: OpenConnections
    /// The server's own base URL: the host of origin-form requests that name none.
    private let origin: URL
    /// The origin whose requests origin-form ones stand for (a reverse proxy, a server replaying
    /// a cassette), or `nil` to take them as requests to the server itself.
    private let standingInFor: URL?
    private let declined: DeclinedUpgrade
    private var head: HTTPRequestHead?
    private var body = Data()
    /// The answer a task is waiting for or writing; the connection's end cancels it.
    private var answering: Task<Void, Never>?
    private var cache = ConnectionCache()
    /// Writes answers encoded here past SwiftNIO's encoder; `nil` in a pipeline without it (the
    /// HTTP/1.1 inside a `CONNECT` tunnel).
    private var preEncoded: PreEncodedAnswers?

    /// Request bodies larger than this are matched from a task, and answers with larger bodies
    /// are written from one: matching, reporting and copying take time in proportion to the
    /// body, and the event loop serves other tests' connections meanwhile.
    static let largestBodyOnEventLoop = 64 * 1024

    init(
      registry: StubRegistry, connections: OpenConnections, origin: URL, standingInFor: URL?,
      declined: DeclinedUpgrade
    ) {
      self.registry = registry
      self.connections = connections
      self.origin = origin
      self.standingInFor = standingInFor
      self.declined = declined
    }

    func handlerAdded(context: ChannelHandlerContext) {
      preEncoded = try? context.pipeline.syncOperations.handler(type: PreEncodedAnswers.self)
      // An upgrade request SwiftNIO consumed without upgrading; it had no body.
      if let first = declined.take() {
        respond(to: first.head, body: Data(), first.answer, context: context)
      }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      switch unwrapInboundIn(data) {
      case .head(let received):
        head = received
        body = Data()
        if Self.expectsContinue(received) {
          // curl waits a second for it before sending a body over 1 MB, other clients longer.
          context.writeAndFlush(
            wrapOutboundOut(.head(HTTPResponseHead(version: received.version, status: .continue))),
            promise: nil)
        }
      case .body(let buffer):
        // One copy of the bytes, not one append per byte (which took a debug build 0.4 s for
        // a 2 MB body, on an event loop every server shares).
        buffer.withUnsafeReadableBytes { bytes in
          if let base = bytes.baseAddress {
            body.append(base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
          }
        }
      case .end:
        guard let request = head else { return }
        head = nil
        respond(to: request, body: body, nil, context: context)
      }
    }

    func channelInactive(context: ChannelHandlerContext) {
      // A client that hung up, or a server that stopped, cancels an async responder.
      answering?.cancel()
      context.fireChannelInactive()
    }

    /// Answers one request (with `answer` when the registry gave it already).
    private func respond(
      to head: HTTPRequestHead, body: Data, _ answer: ServedExchange?,
      context: ChannelHandlerContext
    ) {
      if head.method == .CONNECT {
        return openTunnel(for: head, context: context)
      }
      let request =
        body.count > Self.largestBodyOnEventLoop
        ? Self.request(head, body: body, origin, standingInFor: standingInFor)
        : cache.request(head, body: body, origin: origin, standingInFor: standingInFor)
      guard let request else {
        let refusal = ResponseParts.text(
          .badRequest,
          "Understudy's loopback server cannot tell the URL of \(head.method.rawValue) "
            + "\(LogRedaction.mask(url: head.uri)): send an origin-form path (/path) or an "
            + "absolute http:// URL.\n", head)
        return write(refusal.0, keepingConnection: false, context)
      }
      if answer == nil, body.count > Self.largestBodyOnEventLoop {
        let (registry, origin) = (registry, origin)
        answering = Self.write(
          { await ServedExchange.serve(request, by: registry, origin: origin) }, for: head,
          to: context.channel, connections)
        return
      }
      let answer =
        answer.map { ServedExchange.Answer.now($0) }
        ?? ServedExchange.answer(request, by: registry, origin: origin)
      switch answer {
      case .now(let exchange)
      where !exchange.waitsInBody && exchange.body == nil && exchange.dropsConnection == nil
        && exchange.webSocket == nil
        && exchange.cannedBody?.count ?? 0 <= Self.largestBodyOnEventLoop:
        // A canned answer, the common case: head, body and end in one flush, encoded once for
        // the connection's answers while they stay the same.
        exchange.start()
        let written = finishing(exchange, on: context.eventLoop)
        if let preEncoded, let encoded = cache.encoded(exchange, answering: head),
          preEncoded.write(
            encoded, from: context, keepingConnection: head.isKeepAlive, promise: written)
        {
          return
        }
        context.write(
          wrapOutboundOut(.head(cache.responseHead(for: exchange, answering: head))),
          promise: nil)
        if let body = exchange.cannedBody, !body.isEmpty {
          context.write(wrapOutboundOut(.body(.byteBuffer(cache.buffer(for: body)))), promise: nil)
        }
        end(with: .end(nil), keepingConnection: head.isKeepAlive, context, promise: written)
      case .now(let exchange)
      where !exchange.waitsInBody
        && exchange.cannedBody?.count ?? 0 <= Self.largestBodyOnEventLoop:
        var parts = ResponseParts(exchange: exchange, head: head)
        let (first, then) = parts.next()
        exchange.start()
        switch then {
        case .end(let keepingConnection):
          write(
            first, keepingConnection: keepingConnection, context,
            promise: finishing(exchange, on: context.eventLoop))
        case .wait(let seconds):
          // A body that waits after all: its first parts go now, the rest from a task.
          write(first, context)
          answering = Self.write(parts, to: context.channel, after: seconds, connections)
        }
      case .now(let exchange):
        answering = Self.write(
          ResponseParts(exchange: exchange, head: head), to: context.channel, after: 0,
          connections)
      case .later(let exchange):
        answering = Self.write(exchange, for: head, to: context.channel, connections)
      }
    }

    /// Whether the client waits for `100 Continue` before it sends the body.
    private static func expectsContinue(_ head: HTTPRequestHead) -> Bool {
      head.version == .http1_1
        && head.headers[canonicalForm: "expect"].contains {
          $0.lowercased() == "100-continue"
        }
    }

    /// A promise for the last write of `exchange`'s answer: once that is on the socket, the
    /// request is answered; a write that fails cut the answer short.
    private func finishing(_ exchange: ServedExchange, on eventLoop: any EventLoop)
      -> EventLoopPromise<Void>
    {
      Self.finishing(exchange, on: eventLoop, connections)
    }

    private static func finishing(
      _ exchange: ServedExchange, on eventLoop: any EventLoop, _ connections: OpenConnections
    ) -> EventLoopPromise<Void> {
      let promise = eventLoop.makePromise(of: Void.self)
      // Registered before the write is asked for, so it runs in the event loop's turn that
      // wrote the last byte, before a scope's end can look (it waits for those loops).
      promise.futureResult.whenComplete { written in
        if case .success = written {
          exchange.finish()
        } else {
          exchange.cut(leavingFlight: connections.isStopping)
        }
      }
      return promise
    }

    /// Answers a `CONNECT` to `host:port` with `200` and serves the tunnel (``ProxyTunnel``).
    private func openTunnel(for head: HTTPRequestHead, context: ChannelHandlerContext) {
      guard let tunnel = ProxyTunnel(head) else {
        // SwiftNIO sends no body with any answer to CONNECT, so a header carries the reason.
        let refusal = HTTPResponseHead(
          version: head.version, status: .badRequest,
          headers: [
            "Connection": "close",
            "X-Understudy-Refusal":
              "Understudy's loopback server tunnels CONNECT to host:port only, not to "
              + "\(LogRedaction.mask(authority: head.uri)).",
          ])
        return writeWithoutBody(refusal, keepingConnection: false, context)
      }
      let established = HTTPResponseHead(
        version: head.version, status: .custom(code: 200, reasonPhrase: "Connection Established"))
      writeWithoutBody(established, keepingConnection: true, context)
      do {
        try tunnel.open(
          from: context, registry: registry, connections: connections, serverOrigin: origin)
      } catch {
        context.close(promise: nil)
      }
    }

    /// Writes an answer to `CONNECT`: encoded here when it can be, as it is, where SwiftNIO's
    /// encoder (which does not know the request's method in this pipeline) would add framing
    /// fields that such an answer must not have.
    private func writeWithoutBody(
      _ head: HTTPResponseHead, keepingConnection: Bool, _ context: ChannelHandlerContext
    ) {
      if let preEncoded, let encoded = PreEncodedAnswers.encode(head, body: nil),
        preEncoded.write(encoded, from: context, keepingConnection: keepingConnection)
      {
        return
      }
      write([.head(head), .end(nil)], keepingConnection: keepingConnection, context)
    }

    // The tasks start in static functions that see only what they need: a closure in an
    // instance method of this (event-loop-bound, non-Sendable) handler trips Swift 6.3's
    // region-based isolation checker.

    private static func write(
      _ exchange: @escaping @Sendable () async -> ServedExchange, for head: HTTPRequestHead,
      to channel: any Channel, _ connections: OpenConnections
    ) -> Task<Void, Never> {
      Task {
        let exchange = await exchange()
        // Cut while it waited (its latency, a responder): nothing of it is written.
        if Task.isCancelled || connections.isStopping {
          exchange.cut(leavingFlight: connections.isStopping)
          return channel.close(promise: nil)
        }
        exchange.start()
        await write(ResponseParts(exchange: exchange, head: head), to: channel, connections)
      }
    }

    private static func write(
      _ parts: ResponseParts, to channel: any Channel, after seconds: TimeInterval,
      _ connections: OpenConnections
    ) -> Task<Void, Never> {
      Task {
        parts.exchange.start()
        if seconds > 0, (try? await Task.sleep(for: .wait(seconds: seconds))) == nil {
          parts.exchange.cut(leavingFlight: connections.isStopping)
          return channel.close(promise: nil)
        }
        await write(parts, to: channel, connections)
      }
    }

    /// Writes the last parts of an answer from the event loop, then closes the connection unless
    /// it is kept; `promise` completes once the last part is written.
    private func write(
      _ parts: [HTTPServerResponsePart], keepingConnection: Bool, _ context: ChannelHandlerContext,
      promise: EventLoopPromise<Void>? = nil
    ) {
      guard let last = parts.last else {
        // A stubbed error: the hang-up is the answer.
        promise?.succeed()
        return context.close(promise: nil)
      }
      for part in parts.dropLast() { context.write(wrapOutboundOut(part), promise: nil) }
      end(with: last, keepingConnection: keepingConnection, context, promise: promise)
    }

    /// Writes the last part of an answer and flushes, then closes the connection unless it is
    /// kept; `promise` completes once it is written.
    private func end(
      with last: HTTPServerResponsePart, keepingConnection: Bool, _ context: ChannelHandlerContext,
      promise: EventLoopPromise<Void>?
    ) {
      // Writing the end may hand this handler the next pipelined request at once: nothing of
      // this answer may come after it.
      if keepingConnection {
        context.writeAndFlush(wrapOutboundOut(last), promise: promise)
      } else {
        let channel = context.channel
        let written = context.eventLoop.makePromise(of: Void.self)
        promise.map { written.futureResult.cascade(to: $0) }
        written.futureResult.whenComplete { _ in channel.close(promise: nil) }
        context.writeAndFlush(wrapOutboundOut(last), promise: written)
      }
    }

    private func write(
      _ parts: some Collection<HTTPServerResponsePart>, _ context: ChannelHandlerContext
    ) {
      for part in parts { context.write(wrapOutboundOut(part), promise: nil) }
      if !parts.isEmpty { context.flush() }
    }

    /// Writes `parts` from a task, waiting as the stub says; any failure closes the connection.
    private static func write(
      _ response: ResponseParts, to channel: any Channel, _ connections: OpenConnections
    ) async {
      var response = response
      do {
        while true {
          let (parts, then) = response.next()
          guard case .wait(let seconds) = then else {
            // The answer's last parts: once they are on the socket, the request is answered.
            let written = finishing(response.exchange, on: channel.eventLoop, connections)
            for part in parts.dropLast() { channel.write(part, promise: nil) }
            if let last = parts.last {
              channel.writeAndFlush(last, promise: written)
            } else {
              written.succeed()
            }
            try await written.futureResult.get()
            if case .end(keepingConnection: false) = then { channel.close(promise: nil) }
            return
          }
          for part in parts.dropLast() { channel.write(part, promise: nil) }
          if let last = parts.last { try await channel.writeAndFlush(last).get() }
          try await Task.sleep(for: .wait(seconds: seconds))
        }
      } catch {
        response.exchange.cut(leavingFlight: connections.isStopping)
        channel.close(promise: nil)
      }
    }

    /// The request as the registry sees it, or `nil` when its URL cannot be told.
    static func request(
      _ head: HTTPRequestHead, body: Data, _ origin: URL, standingInFor: URL? = nil
    ) -> InterceptedRequest? {
      guard let url = url(of: head, origin: origin, standingInFor: standingInFor) else {
        return nil
      }
      return InterceptedRequest(
        method: HTTPMethod(rawValue: head.method.rawValue), url: url,
        headers: fields(of: head, standingInFor: standingInFor), body: body.isEmpty ? nil : body)
    }

    /// The request's header fields as the registry sees them.
    static func fields(of head: HTTPRequestHead, standingInFor: URL?) -> Understudy.HTTPHeaders {
      var fields = Understudy.HTTPHeaders()
      for (name, value) in head.headers { fields.add(name: name, value: value) }
      // Standing in for another origin, the client's `Host` names this server, not that origin;
      // left out, the request reads as one the code under test sent to the origin itself.
      if standingInFor != nil, head.uri.hasPrefix("/") { fields["Host"] = nil }
      return fields
    }

    /// The request's URL: its own in absolute form (a client using the server as its proxy),
    /// else its path on the origin the server stands in for, on the host it named (`Host`), or
    /// on the server.
    static func url(of head: HTTPRequestHead, origin: URL, standingInFor: URL? = nil) -> URL? {
      let target = head.uri
      if hasPrefix(target, "http://") || hasPrefix(target, "https://") {
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

    /// Whether `text` starts with the lower-case ASCII `prefix`, in any case; without the copy
    /// `lowercased()` makes on every request.
    private static func hasPrefix(_ text: String, _ prefix: StaticString) -> Bool {
      let expected = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
      var actual = text.utf8.makeIterator()
      for byte in expected {
        guard let next = actual.next() else { return false }
        let folded = next >= UInt8(ascii: "A") && next <= UInt8(ascii: "Z") ? next | 0x20 : next
        guard folded == byte else { return false }
      }
      return true
    }
  }
#endif
