extension Duration {
  /// The duration in seconds: `Date` arithmetic and the engine's timers count in `TimeInterval`.
  var seconds: TimeInterval {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }

  /// The longest wait a delay is slept for: about 31 years, which no test outlives.
  private static let longestWait: TimeInterval = 1e9

  /// A wait of `seconds` for `Task.sleep`, however long: `.delayed(by: .infinity)` means an
  /// answer that never comes, and `Duration.seconds(_:)` traps on a value past its range
  /// (about 1.7e20 seconds), so the wait is held to ``longestWait``. Dispatch's timers clamp
  /// the same way by themselves.
  package static func wait(seconds: TimeInterval) -> Duration {
    .seconds(seconds < longestWait ? max(0, seconds) : longestWait)
  }
}
