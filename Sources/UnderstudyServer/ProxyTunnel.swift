#if Server
  import NIOCore
  import NIOHTTP1
  import Understudy

  /// A `CONNECT` tunnel into the server itself: what a client configured with the server as its
  /// HTTP proxy opens (AsyncHTTPClient does for every URL, `curl --proxytunnel` when asked).
  ///
  /// The server answers `200 Connection Established` and reads what comes through the tunnel as
  /// HTTP/1.1 addressed to the tunnel's authority, so stubs for `http://api.example.com` answer
  /// a tunnel to `api.example.com:80`. A tunnel never reaches the network: a client that starts
  /// TLS in it (HTTPS through the proxy) gets a TLS alert and a closed connection, and the test
  /// an issue saying what to do instead.
  struct ProxyTunnel {
    /// The `CONNECT` target, `host:port`.
    let authority: String
    /// Where origin-form requests in the tunnel go: `http://host` (`:port` unless it is 80).
    let origin: URL

    /// The tunnel a `CONNECT` request asks for, or `nil` when its target is not `host:port`.
    init?(_ head: HTTPRequestHead) {
      let target = head.uri
      guard let url = URL(string: "http://" + target), url.host?.isEmpty == false,
        url.port != nil, url.path.isEmpty, url.user == nil, url.query == nil
      else { return nil }
      let origin = target.hasSuffix(":80") ? String(target.dropLast(3)) : target
      guard let origin = URL(string: "http://" + origin) else { return nil }
      self.authority = target
      self.origin = origin
    }

    /// Replaces the HTTP handlers of `context`'s pipeline (whose decoder stopped at the
    /// `CONNECT`) with an entrance that looks at the first tunnelled byte; call it once the `200`
    /// is written. The decoder hands the bytes it holds on to the entrance as it leaves.
    func open(
      from context: ChannelHandlerContext, registry: StubRegistry,
      connections: OpenConnections, serverOrigin: URL
    ) throws {
      let operations = context.pipeline.syncOperations
      try operations.addHandler(
        TunnelEntrance(
          tunnel: self, registry: registry, connections: connections, serverOrigin: serverOrigin
        ))
      operations.removeHandler(context: context, promise: nil)
      func remove<Handler: RemovableChannelHandler>(_: Handler.Type) {
        if let found = try? operations.context(handlerType: Handler.self) {
          operations.removeHandler(context: found, promise: nil)
        }
      }
      remove(HTTPServerProtocolErrorHandler.self)
      remove(NIOHTTPResponseHeadersValidator.self)
      remove(HTTPServerPipelineHandler.self)
      remove(HTTPResponseEncoder.self)
      remove(PreEncodedAnswers.self)
      remove(ByteToMessageHandler<HTTPRequestDecoder>.self)
    }
  }

  /// The first bytes through a tunnel: plain HTTP gets a fresh HTTP/1.1 pipeline answering from
  /// the registry; a TLS handshake (record type `0x16`) is refused.
  private final class TunnelEntrance: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let tunnel: ProxyTunnel
    private let registry: StubRegistry
    private let connections: OpenConnections
    private let serverOrigin: URL
    private var refused = false

    init(
      tunnel: ProxyTunnel, registry: StubRegistry, connections: OpenConnections, serverOrigin: URL
    ) {
      self.tunnel = tunnel
      self.registry = registry
      self.connections = connections
      self.serverOrigin = serverOrigin
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      let bytes = unwrapInboundIn(data)
      guard !refused, let first = bytes.getInteger(at: bytes.readerIndex, as: UInt8.self) else {
        return
      }
      guard first != 0x16 else { return refuseTLS(context) }
      do {
        try context.pipeline.syncOperations.configureHTTPServerPipeline()
        try context.pipeline.syncOperations.addHandler(
          ServerConnection(
            registry: registry, connections: connections, origin: serverOrigin,
            standingInFor: tunnel.origin, declined: DeclinedUpgrade()))
        context.fireChannelRead(data)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
      } catch {
        context.close(promise: nil)
      }
    }

    private func refuseTLS(_ context: ChannelHandlerContext) {
      refused = true
      registry.reportServerIssue(
        "Understudy: a client opened a CONNECT tunnel to \(tunnel.authority) through the "
          + "loopback server at \(serverOrigin.absoluteString) and started TLS in it: https "
          + "through the server as a proxy is not supported. The server answers plain http only "
          + "and never connects to the network, so it closed the connection. Send http:// URLs "
          + "through the proxy, point the client at the server's baseURL "
          + "(startServer(standingInFor:) keeps the real host's paths), or stub https with a "
          + "URLSession from the registry.")
      // A fatal handshake_failure alert: the client stops at once, naming a TLS failure.
      let alert = ByteBuffer(bytes: [0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28])
      let channel = context.channel
      context.writeAndFlush(wrapOutboundOut(alert)).whenComplete { _ in
        channel.close(promise: nil)
      }
    }
  }
#endif
