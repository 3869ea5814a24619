#if Server
  import Dispatch
  import NIOConcurrencyHelpers
  import NIOCore

  /// Every connection a server has accepted and not yet seen close, and whether the server is
  /// stopping: what lets a stop close them all, whatever each one is doing.
  ///
  /// A connection is noted the moment it is accepted, before its first request. A client may
  /// open one and never send on it (AsyncHTTPClient's pool keeps such spare connections): no
  /// task serving it was ever cancellable, and a stop that only cancelled tasks waited for as
  /// long as the client kept it open.
  final class OpenConnections: Sendable {
    private struct State {
      var open: [ObjectIdentifier: any Channel] = [:]
      var stopping = false
    }

    private let state = NIOLockedValueBox(State())

    /// How long a stop waits for connections and their serving tasks to end: a close is local
    /// and takes microseconds, so only a fault in the server itself ever reaches it.
    static let stopBound: TimeAmount = .seconds(5)

    /// Notes `channel`, just accepted. Returns `false`, and closes it, when the server is
    /// stopping: a connection accepted during a stop is never served.
    func admit(_ channel: any Channel) -> Bool {
      let key = ObjectIdentifier(channel)
      let admitted = state.withLockedValue { state in
        guard !state.stopping else { return false }
        state.open[key] = channel
        return true
      }
      guard admitted else {
        channel.close(promise: nil)
        return false
      }
      channel.closeFuture.whenComplete { [state] _ in
        state.withLockedValue { _ = $0.open.removeValue(forKey: key) }
      }
      return true
    }

    /// Whether the server is stopping: an answer it cuts short leaves its request in flight, for
    /// the scope's end to report.
    var isStopping: Bool { state.withLockedValue { $0.stopping } }

    /// Marks the server stopping and closes every connection, idle or busy; returns the futures
    /// of their closes. Each completes on the connection's event loop after whatever that loop
    /// was doing, so once they have, every answer whose last byte a client could have read has
    /// ended its request's flight.
    func closeAll() -> [EventLoopFuture<Void>] {
      let open = state.withLockedValue { state in
        state.stopping = true
        return Array(state.open.values)
      }
      return open.map { channel in
        channel.close(promise: nil)
        return channel.closeFuture
      }
    }

    /// Waits until every future in `futures` has completed, or `bound` has passed; returns
    /// whether they all completed. Blocks the calling thread, which must not be an event loop.
    static func wait(for futures: [EventLoopFuture<Void>], atMost bound: TimeAmount) -> Bool {
      let group = DispatchGroup()
      for future in futures {
        group.enter()
        future.whenComplete { _ in group.leave() }
      }
      return group.wait(timeout: .now() + .nanoseconds(Int(bound.nanoseconds))) == .success
    }

    /// Waits until every future in `futures` has completed, or `bound` has passed; returns
    /// whether they all completed.
    static func wait(for futures: [EventLoopFuture<Void>], atMost bound: TimeAmount) async -> Bool {
      let group = DispatchGroup()
      for future in futures {
        group.enter()
        future.whenComplete { _ in group.leave() }
      }
      return await withCheckedContinuation { continuation in
        let resumed = NIOLockedValueBox(false)
        @Sendable func resume(_ completed: Bool) {
          let first = resumed.withLockedValue { resumed in
            defer { resumed = true }
            return !resumed
          }
          if first { continuation.resume(returning: completed) }
        }
        group.notify(queue: .global()) { resume(true) }
        DispatchQueue.global().asyncAfter(
          deadline: .now() + .nanoseconds(Int(bound.nanoseconds))
        ) { resume(false) }
      }
    }
  }
#endif
