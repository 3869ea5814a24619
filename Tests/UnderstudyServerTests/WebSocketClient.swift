#if Server
  import NIOCore
  import NIOHTTP1
  import NIOPosix
  import NIOWebSocket
  import Understudy

  /// A SwiftNIO WebSocket client (NIOWebSocketClientUpgrader over a real HTTP/1.1 upgrade):
  /// connects, upgrades, and hands the test a conversation of whole messages.
  enum WebSocketClient {
    typealias Frames = NIOAsyncChannel<WebSocketFrame, WebSocketFrame>
    typealias Plain = NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>

    enum Upgrade: Sendable {
      case upgraded(Frames)
      case refused(Plain)
    }

    /// Upgrades a connection to `port` at `path` and runs `body` with the socket; or, when the
    /// server answers without upgrading, returns what it answered.
    static func connect<Result: Sendable>(
      port: Int, path: String, host: String = "127.0.0.1",
      _ body: @escaping @Sendable (Socket) async throws -> Result
    ) async throws -> Swift.Result<Result, RefusalError> {
      let upgrade = try await ClientBootstrap(group: NIOSingletons.posixEventLoopGroup)
        .connect(host: "127.0.0.1", port: port) { channel in
          channel.eventLoop.makeCompletedFuture {
            let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(
              maxFrameSize: 1 << 20,
              upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                  .upgraded(try Frames(wrappingChannelSynchronously: channel))
                }
              })
            let head = HTTPRequestHead(
              version: .http1_1, method: .GET, uri: path,
              headers: ["Host": host, "Content-Length": "0"])
            var configuration = NIOUpgradableHTTPClientPipelineConfiguration(
              upgradeConfiguration: NIOTypedHTTPClientUpgradeConfiguration(
                upgradeRequestHead: head, upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in
                  channel.eventLoop.makeCompletedFuture {
                    .refused(try Plain(wrappingChannelSynchronously: channel))
                  }
                }))
            // A server may send its first frames in the same packet as the 101.
            configuration.leftOverBytesStrategy = .forwardBytes
            return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
              configuration: configuration)
          }
        }
      switch try await upgrade.get() {
      case .upgraded(let frames):
        return .success(
          try await frames.executeThenClose { inbound, outbound in
            try await body(Socket(inbound: inbound, outbound: outbound))
          })
      case .refused(let plain):
        return .failure(
          try await plain.executeThenClose { inbound, _ in
            var status = HTTPResponseStatus.imATeapot
            var text = ""
            reading: for try await part in inbound {
              switch part {
              case .head(let head): status = head.status
              case .body(let buffer): text += String(buffer: buffer)
              case .end: break reading
              }
            }
            return RefusalError(status: status, body: text)
          })
      }
    }

    /// The server answered the upgrade request with a plain HTTP response.
    struct RefusalError: Error {
      let status: HTTPResponseStatus
      let body: String
    }

    /// The client's end of an upgraded connection; used by one task.
    final class Socket: @unchecked Sendable {
      private var frames: NIOAsyncChannelInboundStream<WebSocketFrame>.AsyncIterator
      private let outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>

      init(
        inbound: NIOAsyncChannelInboundStream<WebSocketFrame>,
        outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>
      ) {
        self.frames = inbound.makeAsyncIterator()
        self.outbound = outbound
      }

      /// What the client read next: a message, or the server's close.
      enum Event: Equatable, Sendable {
        case message(WebSocketMessage)
        case close(code: Int?, reason: String)
        case ended
      }

      func send(_ message: WebSocketMessage) async throws {
        switch message {
        case .text(let text):
          try await outbound.write(frame(.text, ByteBuffer(string: text)))
        case .binary(let data):
          try await outbound.write(frame(.binary, ByteBuffer(bytes: data)))
        }
      }

      /// Sends a close frame, as a client ending the conversation does.
      func close(code: Int) async throws {
        var data = ByteBuffer()
        data.writeInteger(UInt16(code))
        try await outbound.write(frame(.connectionClose, data))
      }

      /// Reads until `count` events (or the end); a close ends the reading.
      func events(_ count: Int) async throws -> [Event] {
        var events: [Event] = []
        while events.count < count {
          guard let frame = try await frames.next() else {
            events.append(.ended)
            break
          }
          var data = frame.unmaskedData
          switch frame.opcode {
          case .text: events.append(.message(.text(String(buffer: data))))
          case .binary: events.append(.message(.binary(Data(data.readableBytesView))))
          case .connectionClose:
            let code = data.readInteger(as: UInt16.self).map(Int.init)
            events.append(
              .close(code: code, reason: data.readString(length: data.readableBytes) ?? ""))
            return events
          default: continue
          }
        }
        return events
      }

      /// Client frames are masked (RFC 6455 section 5.3).
      private func frame(_ opcode: WebSocketOpcode, _ data: ByteBuffer) -> WebSocketFrame {
        WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(), data: data)
      }
    }
  }
#endif
