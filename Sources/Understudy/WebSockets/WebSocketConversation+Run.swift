extension WebSocketConversation {
  /// How a conversation ended, and so how the server closes the connection.
  package struct Ending: Sendable, Equatable {
    /// The close code to send, unless the conversation or the client closed already.
    package let code: Int
    /// The close reason to send with it.
    package let reason: String
  }

  /// Runs the conversation on `transport` as user code runs: in a task of its own (never on the
  /// server's event loop), cancelled by the caller's cancellation, and abandoned after
  /// ``timeout``. What went wrong is reported to `registry`'s scope at ``location``. Returns how
  /// the server should close the connection.
  package func run(on transport: any WebSocketTransport, for registry: StubRegistry) async
    -> Ending
  {
    let run = UserCodeRun()
    let closure = UserCodeRun.Closure(
      name: "the \(name) declared at \(location)", location: location)
    // The first of the conversation's possible ends: the closure returned or threw, the timeout
    // fired (`nil`), or the server cancelled it.
    let first = FirstValue<Result<Void, any Error>?>()
    let socket = WebSocketConnection(transport)
    let timer = Task.detached {
      try? await Task.sleep(for: .seconds(timeout))
      first.settle(nil)
    }
    run.runAsync(closure) {
      let result: Result<Void, any Error>
      do {
        result = .success(try await body(socket))
      } catch {
        result = .failure(error)
      }
      run.end()
      first.settle(result)
    }
    let result = await withTaskCancellationHandler {
      await first.value
    } onCancel: {
      first.settle(.failure(CancellationError()))
    }
    timer.cancel()
    // A closure still running (timed out, or the server stopped) is cancelled and left behind.
    run.cancel()
    return ending(result, registry)
  }

  private func ending(_ result: Result<Void, any Error>?, _ registry: StubRegistry) -> Ending {
    switch result {
    case .success, .failure(is WebSocketClosedError):
      return Ending(code: 1000, reason: "")
    case .failure(is CancellationError):
      return Ending(code: 1001, reason: "Understudy: the server stopped")
    case .none:
      report(
        "the \(name) declared at \(location) was still running after its timeout of "
          + "\(timeout) s; the server cancelled it and closed the WebSocket with 1001. Make the "
          + "client send what the conversation waits for, or give .webSocket a longer timeout.",
        registry)
      return Ending(code: 1001, reason: "Understudy: the conversation timed out")
    case .failure(let mismatch as WebSocketScriptMismatch):
      report(
        "the \(name) declared at \(location): \(mismatch). The server closed the WebSocket "
          + "with 1008.", registry)
      return Ending(code: 1008, reason: "Understudy: unexpected message at step \(mismatch.step)")
    case .failure(let error):
      report(
        "the \(name) declared at \(location) threw: \(error). The server closed the WebSocket "
          + "with 1011.", registry)
      return Ending(code: 1011, reason: "Understudy: the conversation threw")
    }
  }

  private func report(_ message: String, _ registry: StubRegistry) {
    registry.reportUserCodeFailure(
      ScopeFailure(message: "Understudy: " + message, location: location))
  }
}
