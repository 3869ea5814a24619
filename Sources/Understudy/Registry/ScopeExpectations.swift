/// What the test scope a registry serves will check when it ends, known while requests arrive.
struct ScopeExpectations: Sendable {
  /// Unmatched requests the test said would come, each with where it said so.
  struct ExpectedUnmatched: Sendable {
    let pattern: RequestPattern
    let count: Int
    let location: SourceLocation
  }

  /// What the scope verifies; `nil` while no scope owns the registry.
  var verification: ScopeVerification?
  var expectedUnmatched: [ExpectedUnmatched] = []

  /// Whether an unmatched request becomes a test issue when the scope ends. Its error then says
  /// one line, so the report is printed once: in the issue.
  var reportsUnmatchedRequests: Bool {
    verification?.contains(.noUnmatchedRequests) ?? false
  }
}
