import NIOCore
import NIOHTTP1
import NIOPosix

/// The floor: a bare SwiftNIO HTTP/1.1 server that answers every request with the canned body,
/// with no routing, no registry and no Swift concurrency, on the same event loops Understudy's
/// server uses.
enum FloorServer {
  static func start() async throws -> (port: Int, channel: any Channel) {
    let channel = try await ServerBootstrap(group: NIOSingletons.posixEventLoopGroup)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.configureHTTPServerPipeline()
          try channel.pipeline.syncOperations.addHandler(CannedAnswer())
        }
      }
      .bind(host: "127.0.0.1", port: 0).get()
    return (channel.localAddress!.port!, channel)
  }

  /// Answers each request, once it has been read whole, with the canned body.
  final class CannedAnswer: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      guard case .end = unwrapInboundIn(data) else { return }
      let head = HTTPResponseHead(
        version: .http1_1, status: .ok,
        headers: ["Content-Type": "application/json", "Content-Length": String(Canned.size)])
      context.write(wrapOutboundOut(.head(head)), promise: nil)
      context.write(wrapOutboundOut(.body(.byteBuffer(Canned.buffer))), promise: nil)
      context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
  }
}

/// The answer every server gives: 1 KiB of JSON, 200, Content-Type and Content-Length.
enum Canned {
  static let size = 1024
  static let body: [UInt8] = {
    let head = #"{"tag":"canned","padding":""#
    let tail = #""}"#
    return Array(
      (head + String(repeating: "x", count: size - head.utf8.count - tail.utf8.count) + tail).utf8)
  }()
  static let buffer = ByteBuffer(bytes: body)
}
