/// How many requests a verification expects, as WireMock's `exactly`, `moreThanOrExactly` and
/// `lessThanOrExactly` count them.
///
/// ```swift
/// registry.verify(.post("https://api.example.com/events"), .exactly(3))
/// registry.verify(.get("https://api.example.com/admin"), .never)
/// ```
public struct RequestCount: Sendable, Hashable, CustomStringConvertible {
  /// The fewest requests that satisfy the count.
  package let minimum: Int
  /// The most requests that satisfy the count; `nil` for no upper bound.
  package let maximum: Int?

  private init(minimum: Int, maximum: Int?) {
    // A negative bound would make a count no request total can satisfy; clamp it, so `.atMost(-1)`
    // reads as "none", the only sensible meaning.
    self.minimum = max(0, minimum)
    self.maximum = maximum.map { max(0, $0) }
  }

  /// Exactly `count` requests.
  public static func exactly(_ count: Int) -> RequestCount {
    RequestCount(minimum: count, maximum: count)
  }

  /// `count` requests or more.
  public static func atLeast(_ count: Int) -> RequestCount {
    RequestCount(minimum: count, maximum: nil)
  }

  /// `count` requests or fewer, none included.
  public static func atMost(_ count: Int) -> RequestCount {
    RequestCount(minimum: 0, maximum: count)
  }

  /// Between `range.lowerBound` and `range.upperBound` requests, both included.
  public static func between(_ range: ClosedRange<Int>) -> RequestCount {
    RequestCount(minimum: range.lowerBound, maximum: range.upperBound)
  }

  /// No request at all.
  public static let never = RequestCount(minimum: 0, maximum: 0)

  /// Exactly one request.
  public static let once = RequestCount(minimum: 1, maximum: 1)

  /// One request or more: what "was it sent?" means.
  public static let atLeastOnce = RequestCount(minimum: 1, maximum: nil)

  /// Whether `count` requests satisfy this count; `verify` asks it.
  package func contains(_ count: Int) -> Bool {
    count >= minimum && maximum.map { count <= $0 } ?? true
  }

  /// The count in words, as failure messages print it: `exactly 3`, `at least 1`, `never`.
  public var description: String {
    switch (minimum, maximum) {
    case (0, 0?): "never"
    case (let low, let high?) where low == high: "exactly \(low)"
    case (0, let high?): "at most \(high)"
    case (let low, nil): "at least \(low)"
    case (let low, let high?): "between \(low) and \(high)"
    }
  }
}
