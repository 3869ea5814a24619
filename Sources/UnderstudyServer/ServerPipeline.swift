#if Server
  import NIOCore
  import NIOHTTP1

  /// The HTTP/1.1 handlers of an accepted connection: SwiftNIO's upgradable server pipeline as
  /// `configureUpgradableHTTPServerPipeline` builds it (pipelining, header validation, protocol
  /// errors, the upgrade), with ``PreEncodedAnswers`` just before the response encoder.
  ///
  /// Built here rather than by that call for one difference: its request decoder tells the
  /// encoder each request's method, and the encoder pairs them with the heads it encodes to leave
  /// the body out of answers to `HEAD` and `CONNECT`. Pre-encoded answers never reach the
  /// encoder, so it would pair every later head with an earlier request's method; the server
  /// writes no body for `HEAD` or `CONNECT` itself (``ServedExchange``, ``ResponseParts``), and
  /// its answers to `CONNECT` are pre-encoded, which keeps the encoder from framing them.
  enum ServerPipeline {
    static func configure<Result: Sendable>(
      _ channel: any Channel, upgrade: NIOTypedHTTPServerUpgradeConfiguration<Result>
    ) throws -> EventLoopFuture<Result> {
      let encoder = HTTPResponseEncoder()
      let http: [any RemovableChannelHandler] = [
        PreEncodedAnswers(),
        ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes)),
        HTTPServerPipelineHandler(), NIOHTTPResponseHeadersValidator(),
        HTTPServerProtocolErrorHandler(),
      ]
      let upgrader = NIOTypedHTTPServerUpgradeHandler(
        httpEncoder: encoder, extraHTTPHandlers: http, upgradeConfiguration: upgrade)
      try channel.pipeline.syncOperations.addHandlers([encoder] + http + [upgrader])
      return upgrader.upgradeResultFuture
    }
  }
#endif
