/// A value that arrives once, from any thread, for one task to await: the first of several
/// possible ends, or a decision made on another thread. Later values are ignored.
final class FirstValue<Value: Sendable>: Sendable {
  private enum State {
    case waiting(CheckedContinuation<Value, Never>?)
    case settled(Value)
  }

  private let state = Locked(State.waiting(nil))

  /// Keeps `value` and resumes the task awaiting ``value``, unless a value came first.
  func settle(_ value: Value) {
    let waiting = state.withLock { state -> CheckedContinuation<Value, Never>? in
      guard case .waiting(let waiting) = state else { return nil }
      state = .settled(value)
      return waiting
    }
    waiting?.resume(returning: value)
  }

  /// The first value settled, once it is; one task may wait.
  var value: Value {
    get async {
      await withCheckedContinuation { continuation in
        let settled = state.withLock { state -> Value? in
          switch state {
          case .settled(let value): return value
          case .waiting: state = .waiting(continuation)
          }
          return nil
        }
        if let settled { continuation.resume(returning: settled) }
      }
    }
  }
}
