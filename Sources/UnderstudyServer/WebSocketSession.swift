#if Server
  import NIOConcurrencyHelpers
  import NIOCore
  import NIOWebSocket
  import Understudy

  /// One upgraded connection: reads the client's frames while the stub's conversation runs,
  /// then closes with the code the conversation ended with.
  struct WebSocketSession: Sendable {
    let registry: StubRegistry
    /// The upgrade request's exchange: it holds the conversation and journals the `101`.
    let exchange: ServedExchange

    /// How long to wait for the client's close frame after the server sent its own.
    static let closingGrace: Duration = .seconds(2)

    func serve(_ channel: AcceptedConnection.WebSocketChannel) async {
      // The handshake is out: the journal gets its `101` now, while the conversation goes on.
      exchange.finish()
      guard let conversation = exchange.webSocket else { return }
      try? await channel.executeThenClose { inbound, outbound in
        let transport = FrameTransport(outbound)
        await withTaskGroup(of: Void.self) { group in
          group.addTask { await transport.read(inbound) }
          let ending = await conversation.run(on: transport, for: registry)
          try? await transport.close(code: ending.code, reason: ending.reason)
          // The client answers a close with its own; the connection ends then, or after a grace.
          group.addTask { try? await Task.sleep(for: Self.closingGrace) }
          await group.next()
          group.cancelAll()
        }
      }
    }
  }

  /// The conversation's side of the socket: whole messages in, frames out. Pings are answered
  /// and fragmented messages joined before the conversation sees them.
  final class FrameTransport: WebSocketTransport {
    private struct State {
      var sentClose: WebSocketClosedError?
      var receivedClose: WebSocketClosedError?
    }

    private let outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>
    private let messages: AsyncStream<WebSocketMessage>
    private let delivered: AsyncStream<WebSocketMessage>.Continuation
    private let state = NIOLockedValueBox(State())

    init(_ outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>) {
      self.outbound = outbound
      (messages, delivered) = AsyncStream.makeStream()
    }

    /// Reads frames until the client closes or the connection ends.
    func read(_ inbound: NIOAsyncChannelInboundStream<WebSocketFrame>) async {
      defer { delivered.finish() }
      var partial: (opcode: WebSocketOpcode, data: ByteBuffer)?
      do {
        for try await frame in inbound {
          switch frame.opcode {
          case .text, .binary:
            partial = (frame.opcode, frame.unmaskedData)
          case .continuation:
            var data = frame.unmaskedData
            partial?.data.writeBuffer(&data)
          case .ping:
            try await outbound.write(
              WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData))
            continue
          case .connectionClose:
            var data = frame.unmaskedData
            let code = data.readInteger(as: UInt16.self).map(Int.init)
            let reason = data.readString(length: data.readableBytes) ?? ""
            let closed = WebSocketClosedError(code: code, reason: reason)
            state.withLockedValue { $0.receivedClose = closed }
            // RFC 6455: answer a close with a close, echoing the code.
            try? await close(code: code ?? 1000, reason: "")
            return
          default:
            continue
          }
          guard frame.fin, let message = partial else { continue }
          partial = nil
          delivered.yield(
            message.opcode == .text
              ? .text(String(buffer: message.data)) : .binary(Data(message.data.readableBytesView)))
        }
      } catch {
        // A dropped connection ends the conversation's receiving as a close without a code.
      }
    }

    func receive() async throws -> WebSocketMessage {
      var next = messages.makeAsyncIterator()
      if let message = await next.next() { return message }
      try Task.checkCancellation()
      throw state.withLockedValue { $0.receivedClose ?? $0.sentClose }
        ?? WebSocketClosedError(code: nil)
    }

    func send(_ message: WebSocketMessage) async throws {
      if let closed = state.withLockedValue({ $0.sentClose }) { throw closed }
      switch message {
      case .text(let text):
        try await outbound.write(
          WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: text)))
      case .binary(let data):
        try await outbound.write(
          WebSocketFrame(fin: true, opcode: .binary, data: ByteBuffer(bytes: data)))
      }
    }

    func close(code: Int, reason: String) async throws {
      let first = state.withLockedValue { state -> Bool in
        guard state.sentClose == nil else { return false }
        state.sentClose = WebSocketClosedError(code: code, reason: reason)
        return true
      }
      guard first else { return }
      var data = ByteBuffer()
      data.writeInteger(UInt16(clamping: code))
      // A control frame's payload is at most 125 bytes.
      data.writeString(String(decoding: Array(reason.utf8.prefix(123)), as: UTF8.self))
      try await outbound.write(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))
    }
  }
#endif
