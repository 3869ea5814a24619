/// The server's end of one WebSocket a stub accepted: what a closure-driven conversation
/// receives, sends and closes.
///
/// ```swift
/// registry.stub(.get("/echo"), .webSocket { socket in
///   let message = try await socket.receive()
///   try await socket.send(message)
///   try await socket.close(code: 4000, reason: "done")
/// })
/// ```
public final class WebSocketConnection: Sendable {
  private let transport: any WebSocketTransport

  package init(_ transport: any WebSocketTransport) {
    self.transport = transport
  }

  /// Waits for the client's next message (fragmented messages arrive whole; pings are answered
  /// for you).
  ///
  /// - Throws: ``WebSocketClosedError`` once the client has closed the connection;
  ///   `CancellationError` when the conversation ran past its timeout or the server stopped.
  public func receive() async throws -> WebSocketMessage {
    try await transport.receive()
  }

  /// Sends `message` to the client.
  ///
  /// - Throws: ``WebSocketClosedError`` when the connection is already closed.
  public func send(_ message: WebSocketMessage) async throws {
    try await transport.send(message)
  }

  /// Closes the connection with `code` (1000 for normal closure, 4000–4999 for your own
  /// meanings) and `reason`; the client observes both. Later sends throw
  /// ``WebSocketClosedError``. A conversation that returns without closing is closed with 1000.
  public func close(code: Int = 1000, reason: String = "") async throws {
    try await transport.close(code: code, reason: reason)
  }
}

/// What carries a conversation's messages: the loopback server's WebSocket channel. Kept here,
/// free of SwiftNIO, so stubs can be declared in a package that does not enable the server.
package protocol WebSocketTransport: Sendable {
  /// The client's next whole message; throws ``WebSocketClosedError`` once it closed.
  func receive() async throws -> WebSocketMessage
  /// Sends a message; throws ``WebSocketClosedError`` once the connection is closed.
  func send(_ message: WebSocketMessage) async throws
  /// Sends a close frame with `code` and `reason`, if none was sent yet.
  func close(code: Int, reason: String) async throws
}
