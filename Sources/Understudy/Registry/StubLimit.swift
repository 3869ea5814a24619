/// How many requests a stub answers before it steps aside.
///
/// A used-up stub no longer matches: the request goes to the next matching stub (by precedence)
/// or is unmatched, and the near-miss report says the stub matched but was used up.
public struct StubLimit: Sendable, Hashable, CustomStringConvertible {
  /// The most requests answered, or `nil` for no limit.
  package let maximumCalls: Int?

  /// Answers every matching request.
  public static let unlimited = StubLimit(maximumCalls: nil)
  /// Answers the first matching request only.
  public static let once = StubLimit(maximumCalls: 1)

  /// Answers the first `count` matching requests.
  public static func times(_ count: Int) -> StubLimit {
    StubLimit(maximumCalls: max(0, count))
  }

  /// `unlimited`, `once` or `n times`.
  public var description: String {
    switch maximumCalls {
    case nil: return "unlimited"
    case 1: return "once"
    case let count?: return "\(count) times"
    }
  }
}
