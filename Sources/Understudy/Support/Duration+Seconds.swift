extension Duration {
  /// The duration in seconds: `Date` arithmetic and the engine's timers count in `TimeInterval`.
  var seconds: TimeInterval {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
