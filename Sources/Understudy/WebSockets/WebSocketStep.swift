/// One step of a scripted WebSocket conversation: wait for a message, send one, or close.
///
/// ```swift
/// registry.stub(.get("/chat"), .webSocket([
///   .receive(.text("hello")),
///   .send(.text("hi")),
///   .send(.binary(Data([1, 2, 3]))),
///   .close(code: 4000, reason: "bye"),
/// ]))
/// ```
public struct WebSocketStep: Sendable, CustomStringConvertible {
  enum Action: Sendable {
    case receive(WebSocketMessage?)
    case send(WebSocketMessage)
    case close(code: Int, reason: String)
  }

  let action: Action

  /// Waits for the client's next message; with `expected`, the message must be exactly that,
  /// or the test gets an issue naming the step and the server closes with 1008 (policy
  /// violation).
  public static func receive(_ expected: WebSocketMessage? = nil) -> WebSocketStep {
    WebSocketStep(action: .receive(expected))
  }

  /// Sends `message` to the client.
  public static func send(_ message: WebSocketMessage) -> WebSocketStep {
    WebSocketStep(action: .send(message))
  }

  /// Closes the connection with `code` and `reason`; steps after it do not run.
  public static func close(code: Int = 1000, reason: String = "") -> WebSocketStep {
    WebSocketStep(action: .close(code: code, reason: reason))
  }

  /// `receive text "hello"`, `send binary 3 bytes`, `close 1000`, as reports name a step.
  public var description: String {
    switch action {
    case .receive(let expected): return "receive " + (expected.map { "\($0)" } ?? "any message")
    case .send(let message): return "send \(message)"
    case .close(let code, let reason):
      return "close \(code)" + (reason.isEmpty ? "" : " \"\(reason)\"")
    }
  }

  /// Runs the step on `socket`; throws a ``WebSocketScriptMismatch`` when the client sent
  /// something else or closed first.
  func run(on socket: WebSocketConnection, number: Int) async throws {
    switch action {
    case .send(let message):
      try await socket.send(message)
    case .close(let code, let reason):
      try await socket.close(code: code, reason: reason)
    case .receive(let expected):
      let received: WebSocketMessage
      do {
        received = try await socket.receive()
      } catch let closed as WebSocketClosedError {
        throw WebSocketScriptMismatch(step: number, expected: self, received: "\(closed)")
      }
      if let expected, received != expected {
        throw WebSocketScriptMismatch(step: number, expected: self, received: "\(received)")
      }
    }
  }
}

/// A scripted conversation met a message (or a close) its script did not expect.
struct WebSocketScriptMismatch: Error, CustomStringConvertible {
  let step: Int
  let expected: WebSocketStep
  let received: String

  var description: String {
    "step \(step) (\(expected)) got \(received) instead"
  }
}
