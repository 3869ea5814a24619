#if Server
  import NIOConcurrencyHelpers
  import NIOCore
  import NIOHTTP1
  import NIOWebSocket
  import Understudy

  /// What an accepted connection became: plain HTTP/1.1, or a WebSocket after an upgrade a
  /// WebSocket stub accepted.
  enum AcceptedConnection: Sendable {
    typealias WebSocketChannel = NIOAsyncChannel<WebSocketFrame, WebSocketFrame>

    /// Plain HTTP/1.1: a ``ServerConnection`` in the channel's pipeline answers its requests,
    /// starting with the one that asked to upgrade and was not upgraded, if any.
    case http(any Channel)
    /// The WebSocket a stub's conversation holds; `exchange` journals the `101`.
    case webSocket(WebSocketChannel, ServedExchange)

    /// Sets up an accepted connection's pipeline: HTTP/1.1 whose first request may upgrade to a
    /// WebSocket. Whether it does is the registry's answer to that request, found off the event
    /// loop (matchers and responders are user code) and answered only once.
    static func configure(
      _ channel: any Channel, registry: StubRegistry, connections: OpenConnections,
      standingInFor: URL? = nil
    ) -> EventLoopFuture<
      EventLoopFuture<AcceptedConnection>
    > {
      guard let origin = channel.localAddress?.port.map({ URL(string: "http://127.0.0.1:\($0)")! })
      else {
        return channel.eventLoop.makeFailedFuture(ChannelError.inappropriateOperationForState)
      }
      let declined = DeclinedUpgrade()
      let upgrader = NIOTypedWebSocketServerUpgrader<AcceptedConnection>(
        maxFrameSize: 1 << 24,
        shouldUpgrade: { channel, head in
          let promise = channel.eventLoop.makePromise(of: Optional<NIOHTTP1.HTTPHeaders>.self)
          promise.completeWithTask {
            guard
              let request = ServerConnection.request(
                head, body: Data(), origin, standingInFor: standingInFor)
            else { return nil }
            let exchange = await ServedExchange.serve(request, by: registry, origin: origin)
            declined.answer(exchange)
            return exchange.webSocket == nil ? nil : [:]
          }
          return promise.futureResult
        },
        upgradePipelineHandler: { channel, _ in
          channel.eventLoop.makeCompletedFuture {
            guard let exchange = declined.take()?.answer else {
              throw ChannelError.inappropriateOperationForState
            }
            return .webSocket(try WebSocketChannel(wrappingChannelSynchronously: channel), exchange)
          }
        })
      return channel.eventLoop.makeCompletedFuture {
        let accepted = try ServerPipeline.configure(
          channel,
          upgrade: NIOTypedHTTPServerUpgradeConfiguration(
            upgraders: [upgrader],
            notUpgradingCompletionHandler: { channel in
              channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(
                  ServerConnection(
                    registry: registry, connections: connections, origin: origin,
                    standingInFor: standingInFor, declined: declined))
                return .http(channel)
              }
            }))
        let upgrading = try channel.pipeline.syncOperations.handler(
          type: NIOTypedHTTPServerUpgradeHandler<AcceptedConnection>.self)
        try channel.pipeline.syncOperations.addHandler(
          FirstRequestHead(declined), position: .before(upgrading))
        // A connection whose upgrade went wrong has no one to serve it: close it.
        accepted.whenFailure { _ in channel.close(promise: nil) }
        return accepted
      }
    }
  }

  /// The first request of a connection when it asked to upgrade (any `Upgrade` header). SwiftNIO's
  /// upgrade handler consumes such a request even when it does not upgrade, so the server
  /// answers it from here: with the registry's answer found while deciding, or a fresh one when
  /// no decision was asked for (an `Upgrade: h2c`, a handshake without `Sec-WebSocket-Key`).
  final class DeclinedUpgrade: Sendable {
    private let first = NIOLockedValueBox<(head: HTTPRequestHead, answer: ServedExchange?)?>(nil)

    fileprivate func record(_ head: HTTPRequestHead) {
      first.withLockedValue { $0 = (head, nil) }
    }

    fileprivate func answer(_ exchange: ServedExchange) {
      first.withLockedValue { $0?.answer = exchange }
    }

    /// The request and the registry's answer, if it got one; once.
    func take() -> (head: HTTPRequestHead, answer: ServedExchange?)? {
      first.withLockedValue { first in
        defer { first = nil }
        return first
      }
    }
  }

  /// Notes the head of a connection's first request if it asks to upgrade, then steps aside.
  private final class FirstRequestHead: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    private let declined: DeclinedUpgrade

    init(_ declined: DeclinedUpgrade) {
      self.declined = declined
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      guard case .head(let head) = unwrapInboundIn(data) else {
        return context.fireChannelRead(data)
      }
      if head.headers.contains(name: "Upgrade") { declined.record(head) }
      context.fireChannelRead(data)
      context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
  }
#endif
