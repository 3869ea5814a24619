extension StubRegistry {
  /// Checks how many journaled requests match `pattern`, whoever answered them (a stub, a
  /// cassette, the network, or nobody), as WireMock's `verify` and nock's `isDone` do.
  ///
  /// ```swift
  /// registry.verify(.post("https://api.example.com/events"), .exactly(2))
  /// registry.verify(.get("https://api.example.com/admin"), .never)
  /// ```
  ///
  /// A failure is recorded at the caller's line (a Swift Testing issue or an XCTest failure).
  /// When too few requests matched it lists the requests that came closest, each with the
  /// fields that differed; when too many matched it lists them. A pattern with ``RequestPattern/problems``
  /// (an invalid template or regular expression) matches nothing, so no count could be trusted:
  /// the problems are recorded instead, and the check fails whatever `count` says.
  ///
  /// - Parameters:
  ///   - pattern: The requests to count.
  ///   - count: How many are expected; one or more when omitted.
  ///   - fileID: The `#fileID` of the caller; leave the default.
  ///   - filePath: The `#filePath` of the caller; leave the default.
  ///   - line: The line of the caller; leave the default.
  ///   - column: The column of the caller; leave the default.
  /// - Returns: Whether the count held.
  @discardableResult
  public func verify(
    _ pattern: RequestPattern, _ count: RequestCount = .atLeastOnce, fileID: String = #fileID,
    filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) -> Bool {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let problems = pattern.problems
    guard problems.isEmpty else {
      // An unsound pattern never matches: `.never` and `.atMost` would pass whatever was sent.
      IssueReporter.report(
        "Cannot verify \(count) request(s) matching \(pattern): the pattern is invalid: "
          + RequestWaitTimeout.clause(problems)
          + ". Correct the pattern; as written it matches no request, so this check could not fail.",
        at: location)
      return false
    }
    let sent = requests
    let matching = sent.filter { pattern.match($0) != nil }
    guard !count.contains(matching.count) else { return true }
    IssueReporter.report(
      verificationFailure(pattern, count, matching: matching, sent: sent), at: location)
    return false
  }

  private func verificationFailure(
    _ pattern: RequestPattern, _ count: RequestCount, matching: [InterceptedRequest],
    sent: [InterceptedRequest]
  ) -> String {
    var lines = [
      "Expected \(count) request(s) matching \(pattern), but \(matching.count) were sent."
    ]
    if matching.count < count.minimum {
      lines += ClosestRequests(to: pattern, among: sent).lines
    } else {
      lines.append("  Matching requests, in the order they were sent:")
      lines += matching.map { "  - \($0)" }
    }
    if let journalCapacity {
      lines.append(
        "  The journal keeps only the last \(journalCapacity) request(s); older ones were not counted."
      )
    }
    return lines.joined(separator: "\n")
  }
}
