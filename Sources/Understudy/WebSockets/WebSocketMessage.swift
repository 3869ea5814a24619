/// One message on a WebSocket: text or bytes.
///
/// ```swift
/// registry.stub(.get("/chat"), .webSocket([.receive(.text("hello")), .send(.text("hi"))]))
/// ```
public enum WebSocketMessage: Sendable, Hashable, CustomStringConvertible {
  /// A text message (a WebSocket text frame, UTF-8 on the wire).
  case text(String)
  /// A binary message (a WebSocket binary frame).
  case binary(Data)

  /// `text "hello"` or `binary 3 bytes`, as reports name a message.
  public var description: String {
    switch self {
    // Masked as every text the library prints is: a message may carry a token.
    case .text(let text): return "text \(LogRedaction.mask(String(reflecting: text)))"
    case .binary(let data): return "binary \(data.count) bytes"
    }
  }
}
