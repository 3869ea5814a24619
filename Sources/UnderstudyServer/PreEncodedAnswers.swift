#if Server
  import NIOCore
  import NIOHTTP1
  import Understudy

  /// Writes answers the connection encoded itself (status line, header fields and body in one
  /// buffer, built once and reused) straight to the socket, past SwiftNIO's response encoder.
  ///
  /// Encoding the head again for every request, with the encoder's copy of the header fields to
  /// strip `Transfer-Encoding`, cost a canned answer more than the rest of its way through the
  /// pipeline. The answer still goes through the pipeline as a head and an end, so SwiftNIO's
  /// pipelining handler releases the next request only once it is written and its error handler
  /// sees the answer end; this handler, just before the encoder, takes the head out and writes
  /// the bytes in place of the end, from the encoder's context so they skip it.
  final class PreEncodedAnswers: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = IOData

    /// The head that stands for a pre-encoded answer on its way through the pipeline.
    private static let placeholder = HTTPResponseHead(version: .http1_1, status: .ok)

    /// The bytes of the answer whose placeholder head comes next.
    private var next: ByteBuffer?
    /// The bytes of the answer whose placeholder head went by, written at its end.
    private var current: ByteBuffer?
    private var encoder: ChannelHandlerContext?

    func handlerAdded(context: ChannelHandlerContext) {
      encoder = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
      encoder = nil
    }

    /// Writes `encoded`, a whole answer, from `context` (the connection's handler) and flushes it;
    /// then closes the connection unless it is kept. `promise` completes once it is written.
    /// Returns `false`, having written nothing, when the pipeline has no encoder to skip.
    func write(
      _ encoded: ByteBuffer, from context: ChannelHandlerContext, keepingConnection: Bool,
      promise: EventLoopPromise<Void>? = nil
    ) -> Bool {
      guard encoder != nil else { return false }
      next = encoded
      context.write(NIOAny(HTTPServerResponsePart.head(Self.placeholder)), promise: nil)
      // Writing the end may hand the connection the next pipelined request at once, which may be
      // answered the same way: this answer's bytes are out by then.
      let end = NIOAny(HTTPServerResponsePart.end(nil))
      let channel = context.channel
      if keepingConnection {
        context.writeAndFlush(end, promise: promise)
      } else {
        let written = context.eventLoop.makePromise(of: Void.self)
        promise.map { written.futureResult.cascade(to: $0) }
        written.futureResult.whenComplete { _ in channel.close(promise: nil) }
        context.writeAndFlush(end, promise: written)
      }
      if next != nil || current != nil {
        // A handler between the connection and this one held a part back (SwiftNIO's header
        // validator does after a bad head): no later answer may go out with these bytes.
        (next, current) = (nil, nil)
        channel.close(promise: nil)
      }
      return true
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
      switch unwrapOutboundIn(data) {
      case .head where next != nil:
        (current, next) = (next, nil)
        promise?.succeed()
      case .end where current != nil:
        let bytes = current!
        current = nil
        guard let encoder else { return promise?.fail(ChannelError.ioOnClosedChannel) ?? () }
        encoder.write(wrapOutboundOut(.byteBuffer(bytes)), promise: promise)
      default:
        context.write(data, promise: promise)
      }
    }

    /// `head` and `body` as they go on the wire, as SwiftNIO's encoder writes them when it leaves
    /// the header fields as they are; `nil` when its header validator would refuse them.
    static func encode(_ head: HTTPResponseHead, body: Data?) -> ByteBuffer? {
      let reason = head.status.reasonPhrase
      // A reason phrase may hold the bytes a field value may (RFC 9112's HTAB, SP, VCHAR and
      // obs-text).
      guard reason.utf8.allSatisfy(isValueByte),
        head.headers.allSatisfy({ field in
          !field.name.isEmpty && field.name.utf8.allSatisfy(ASCIIByte.isTokenCharacter)
            && field.value.utf8.allSatisfy(isValueByte)
        })
      else { return nil }
      let fieldBytes = head.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
      var bytes = ByteBufferAllocator().buffer(capacity: 48 + fieldBytes + (body?.count ?? 0))
      bytes.writeString(
        "HTTP/\(head.version.major).\(head.version.minor) \(head.status.code) \(reason)\r\n")
      for (name, value) in head.headers {
        bytes.writeString(name)
        bytes.writeStaticString(": ")
        bytes.writeString(value)
        bytes.writeStaticString("\r\n")
      }
      bytes.writeStaticString("\r\n")
      if let body { bytes.writeBytes(body) }
      return bytes
    }

    /// A byte of a header field's value: anything but control characters other than a tab.
    private static func isValueByte(_ byte: UInt8) -> Bool {
      byte == UInt8(ascii: "\t") || (byte >= 0x20 && byte != 0x7F)
    }
  }
#endif
