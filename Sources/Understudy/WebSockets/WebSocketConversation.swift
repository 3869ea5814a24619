/// What a WebSocket stub does once the loopback server has accepted the upgrade: a script of
/// steps, or a closure of your own, bounded by a timeout. Declared with
/// ``StubResponse/webSocket(_:timeout:fileID:filePath:line:column:)`` or
/// ``StubResponse/webSocket(timeout:fileID:filePath:line:column:_:)``.
package struct WebSocketConversation: Sendable {
  /// How long the conversation may run before the server closes the connection (1001) and the
  /// test gets an issue.
  package let timeout: TimeInterval
  /// Where the conversation was declared; issues about it point here.
  package let location: SourceLocation
  let body: @Sendable (WebSocketConnection) async throws -> Void
  let name: String
}

extension StubResponse {
  /// Accepts a WebSocket upgrade (on the loopback server) and runs `script`: each step waits for
  /// a message, sends one or closes. When the script ends without `.close`, the server closes
  /// with 1000. A message the script did not expect, or a client that closes while a step waits,
  /// fails the test at this line and closes the connection with 1008.
  ///
  /// ```swift
  /// registry.stub(.get("/chat"), .webSocket([
  ///   .receive(.text("hello")),
  ///   .send(.text("hi")),
  ///   .close(code: 4000, reason: "bye"),
  /// ]))
  /// ```
  ///
  /// A request that is not an upgrade (a plain `GET`, or any request through a `URLSession` from
  /// the registry) gets `426 Upgrade Required` saying so.
  ///
  /// - Parameters:
  ///   - script: The steps, in order.
  ///   - timeout: How long the whole conversation may take.
  ///   - fileID: The `#fileID` of the declaration; leave the default.
  ///   - filePath: The `#filePath` of the declaration; leave the default.
  ///   - line: The line of the declaration; leave the default.
  ///   - column: The column of the declaration; leave the default.
  public static func webSocket(
    _ script: [WebSocketStep], timeout: Duration = .seconds(60), fileID: String = #fileID,
    filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) -> StubResponse {
    webSocket(
      WebSocketConversation(
        timeout: timeout.seconds,
        location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column),
        body: { socket in
          for (index, step) in script.enumerated() {
            try await step.run(on: socket, number: index + 1)
            if case .close = step.action { return }
          }
        }, name: "scripted WebSocket conversation"))
  }

  /// Accepts a WebSocket upgrade (on the loopback server) and runs `conversation` with the
  /// server's end of the socket. Returning closes the connection with 1000 unless the closure
  /// closed it.
  ///
  /// ```swift
  /// registry.stub(.get("/echo"), .webSocket { socket in
  ///   let message = try await socket.receive()
  ///   try await socket.send(message)
  ///   try await socket.close(code: 4000, reason: "done")
  /// })
  /// ```
  ///
  /// The closure is your code and runs as responders do: in a task of its own, never on the
  /// server's event loop. It is cancelled when it runs past `timeout` (the connection closes
  /// with 1001 and the test gets an issue at this line) or when the server stops. A thrown
  /// ``WebSocketClosedError`` (the client closed) ends it quietly; any other error fails the
  /// test at this line and closes the connection with 1011.
  ///
  /// - Parameters:
  ///   - timeout: How long the conversation may take.
  ///   - fileID: The `#fileID` of the declaration; leave the default.
  ///   - filePath: The `#filePath` of the declaration; leave the default.
  ///   - line: The line of the declaration; leave the default.
  ///   - column: The column of the declaration; leave the default.
  ///   - conversation: Receives, sends and closes on the socket.
  public static func webSocket(
    timeout: Duration = .seconds(60), fileID: String = #fileID, filePath: String = #filePath,
    line: Int = #line, column: Int = #column,
    _ conversation: @escaping @Sendable (WebSocketConnection) async throws -> Void
  ) -> StubResponse {
    webSocket(
      WebSocketConversation(
        timeout: timeout.seconds,
        location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column),
        body: conversation, name: "WebSocket conversation"))
  }

  private static func webSocket(_ conversation: WebSocketConversation) -> StubResponse {
    // What a real WebSocket server answers a request that does not ask to upgrade; the
    // loopback server upgrades the ones that do.
    var response = StubResponse.text(
      "Understudy: this stub answers WebSocket upgrades only (\(conversation.name) declared at "
        + "\(conversation.location)). Connect a WebSocket client to the registry's loopback "
        + "server (UnderstudyServer); a URLSession from the registry cannot open one.\n",
      status: 426, headers: ["Upgrade": "websocket", "Connection": "Upgrade"])
    response.webSocket = conversation
    return response
  }
}
