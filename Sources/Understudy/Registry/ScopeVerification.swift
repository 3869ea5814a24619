/// What is checked when a test scope ends.
public struct ScopeVerification: OptionSet, Sendable, Hashable {
  /// The raw bits.
  public let rawValue: Int

  /// Creates a set from raw bits.
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// Every request matched a stub (on by default).
  public static let noUnmatchedRequests = ScopeVerification(rawValue: 1 << 0)
  /// Every stub answered at least once, and limited stubs were used up (opt in).
  public static let allStubsUsed = ScopeVerification(rawValue: 1 << 1)
  /// No request was still waiting for its answer, or still receiving its body, when the test
  /// ended (on by default).
  public static let noRequestsInFlight = ScopeVerification(rawValue: 1 << 2)

  /// What a scope checks unless told otherwise.
  public static let `default`: ScopeVerification = [.noUnmatchedRequests, .noRequestsInFlight]
}

/// A failure found when a scope ended or by an explicit verification.
public struct ScopeFailure: Sendable, CustomStringConvertible {
  /// What went wrong, as a sentence with the fix.
  public let message: String
  /// Where to report it: the stub's declaration, or the test's.
  package let location: SourceLocation

  init(message: String, location: SourceLocation) {
    // Failures end up in test logs, and callers of `finish()` or `endScope` print them too:
    // masking here covers every failure, whoever prints it.
    self.message = LogRedaction.mask(message, noting: true)
    self.location = location
  }

  /// The message.
  public var description: String { message }
}
