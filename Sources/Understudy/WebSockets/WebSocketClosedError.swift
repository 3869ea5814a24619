/// The WebSocket is closed: the client closed it, or the conversation already did.
///
/// ``WebSocketConnection/receive()`` throws it once the client has sent its close frame, so a
/// conversation that simply lets it propagate ends quietly; it is not reported as a failure.
public struct WebSocketClosedError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The close code the client sent (`1000` for a normal close), or `nil` when it sent none or
  /// the connection dropped without a close frame.
  public let code: Int?
  /// The reason the client gave, often empty.
  public let reason: String

  /// Creates the error for a close with `code` and `reason`.
  package init(code: Int?, reason: String = "") {
    self.code = code
    self.reason = reason
  }

  /// A sentence with the code and reason.
  public var description: String {
    let code = self.code.map { "code \($0)" } ?? "no close code"
    let reason = LogRedaction.mask(self.reason)
    return "the WebSocket is closed (\(code)\(reason.isEmpty ? "" : ", \"\(reason)\""))"
  }
}
