extension RequestPattern {
  /// A condition that can never match because the factory was given something it cannot use (a
  /// malformed template, regex or URL); `problem` tells the developer what to fix.
  ///
  /// It still names its field and expectation, so a near-miss report shows which stub is broken
  /// rather than silently skipping it.
  static func invalid(field: String, expected: String, problem: String) -> RequestPattern {
    RequestPattern(
      Condition(field: field, expected: expected, problem: problem) { _ in
        .mismatched(actual: "not checked: the pattern is invalid")
      })
  }
}
