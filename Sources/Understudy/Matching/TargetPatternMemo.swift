/// The patterns `.get(_:)` and its siblings built lately, by method and target.
///
/// Every test declares its stubs afresh, and a suite's tests declare the same few again and
/// again (a `.stubs { … }` trait on a suite runs its closure for each test): parsing the target
/// was most of what a test scope cost beyond the session it makes, about 75,000 instructions
/// against a few thousand for finding the pattern here. A pattern is an immutable value, so
/// one built for an earlier test answers exactly as a new one would.
enum TargetPatternMemo {
  private struct Key: Hashable {
    let method: HTTPMethod
    let target: String
  }

  /// Enough for the targets of a large suite; when full it starts again, so memory stays bounded
  /// whatever the suite declares.
  private static let capacity = 1_024

  // Guards the patterns built so far.
  private static let patterns = Locked<[Key: RequestPattern]>([:])

  /// How many patterns are kept now.
  static var count: Int { patterns.withLock { $0.count } }

  /// The pattern for `method` and `target`, built by `build` unless it was built before.
  static func pattern(
    _ method: HTTPMethod, _ target: String, _ build: () -> RequestPattern
  ) -> RequestPattern {
    let key = Key(method: method, target: target)
    if let known = patterns.withLock({ $0[key] }) { return known }
    let built = build()
    patterns.withLock { patterns in
      if patterns.count >= capacity { patterns.removeAll(keepingCapacity: true) }
      patterns[key] = built
    }
    return built
  }
}
