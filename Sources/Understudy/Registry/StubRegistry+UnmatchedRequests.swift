extension StubRegistry {
  /// Declares that `count` requests matching `pattern` will match no stub, so the test scope does
  /// not fail for them; use it to test how code handles a request nothing answers.
  ///
  /// Those requests still fail with `URLError(.resourceUnavailable)`, and the scope checks,
  /// when it ends, that exactly `count` of them came: fewer is a failure at this line, and
  /// unmatched requests beyond `count` (or not matching `pattern`) are reported as usual.
  /// Swift Testing's `withKnownIssue` cannot serve here, because the check runs when the scope
  /// ends, after the test's body returned.
  ///
  /// ```swift
  /// stubs.expectUnmatchedRequests(.get("/legacy/profile"))
  /// await #expect(throws: URLError.self) { try await client.legacyProfile() }
  /// ```
  ///
  /// - Parameters:
  ///   - pattern: The requests expected to match no stub.
  ///   - count: How many such requests the test sends.
  ///   - fileID: The `#fileID` of the caller; leave the default.
  ///   - filePath: The `#filePath` of the caller; leave the default.
  ///   - line: The line of the caller; leave the default.
  ///   - column: The column of the caller; leave the default.
  public func expectUnmatchedRequests(
    _ pattern: RequestPattern, count: Int = 1, fileID: String = #fileID,
    filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    scopeState.withLock {
      $0.expectations.expectedUnmatched.append(
        .init(pattern: pattern, count: count, location: location))
    }
  }

  /// The unmatched requests the scope reports: those no expectation accounts for, and a failure
  /// for each expectation that fewer requests met.
  func unexpectedUnmatched(_ reports: [NearMissReport], scopeLocation: SourceLocation)
    -> [ScopeFailure]
  {
    var remaining = reports
    var failures: [ScopeFailure] = []
    for expected in scopeState.withLock({ $0.expectations.expectedUnmatched }) {
      var met = 0
      remaining.removeAll { report in
        guard met < expected.count, expected.pattern.explain(report.request).isMatch else {
          return false
        }
        met += 1
        return true
      }
      if met < expected.count {
        failures.append(
          ScopeFailure(
            message:
              "Expected \(expected.count) request(s) matching \(expected.pattern) to match no "
              + "stub, but \(met) did. Check that the code under test sends them, or remove the "
              + "expectation.",
            location: expected.location))
      }
    }
    // A cassette that cannot be used fails the test once, with its own problem; the requests it
    // could not answer would repeat it, one issue each.
    if let cassette, let problem = cassette.problem {
      remaining.removeAll { report in
        !report.candidates.contains { $0.score > 0 }
          && report.cassetteNote == Cassette.unusableMessage(for: report.request, problem)
      }
    }
    for report in remaining {
      // The stub that came close is where the developer has to look; with none, the scope.
      let closest = report.candidates.first { $0.score > 0 }?.stub.location
      failures.append(ScopeFailure(message: report.description, location: closest ?? scopeLocation))
    }
    return failures
  }
}

extension StubRegistry {
  /// The text of the error an unmatched request fails with: the whole report when nothing else
  /// shows it, one line when the test scope will record the report as an issue (so a failing
  /// test prints the report once, not again inside the error it caught).
  func errorMessage(for report: NearMissReport) -> String {
    guard scopeState.withLock({ $0.expectations.reportsUnmatchedRequests }) else {
      return report.description
    }
    if report.candidates.isEmpty, report.cassetteNote != nil {
      return "Understudy: \(report.request) was not "
        + "answered by the test's cassette (the test's failure says why)"
    }
    return report.headline + " (the test's failure for it lists the closest stubs)"
  }
}
