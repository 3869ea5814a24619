extension StubRegistry {
  /// Checks that `stub` answered exactly `expected` requests; a failure is reported at the
  /// caller's line, with the requests it did answer.
  @discardableResult
  public func verify(
    _ stub: Stub, calledTimes expected: Int, fileID: String = #fileID,
    filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) -> Bool {
    let actual = stub.callCount
    guard actual != expected else { return true }
    let answered = stub.requests.map { "  - \($0)" }.joined(separator: "\n")
    IssueReporter.report(
      "Stub \(stub) was expected to answer \(expected) request(s) but answered \(actual)"
        + (answered.isEmpty ? "." : ":\n\(answered)"),
      at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    return false
  }

  /// Starts the registry's life as a test's scope, which will check `verification` when it ends.
  func beginScope(verifying verification: ScopeVerification) {
    scopeState.withLock { $0.expectations.verification = verification }
  }

  /// Ends the registry's life as a test's scope and returns what `verification` finds wrong.
  ///
  /// Sessions made from the registry stop being answered: a request that arrives later fails
  /// with an error naming `testName`, and is reported, so it can never be answered by the stubs
  /// of a test that runs afterwards.
  ///
  /// - Parameters:
  ///   - testName: The test the scope served, named in reports about late requests.
  ///   - verification: What to check: ``ScopeVerification/default`` checks for unmatched
  ///     requests and requests still in flight.
  ///   - fileID: The `#fileID` of the caller; leave the default.
  ///   - filePath: The `#filePath` of the caller; leave the default.
  ///   - line: The line of the caller; leave the default.
  ///   - column: The column of the caller; leave the default.
  /// - Returns: The failures, each a message naming what went wrong and the fix.
  public func endScope(
    testName: String, verifying verification: ScopeVerification = .default,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
    column: Int = #column
  ) -> [ScopeFailure] {
    endScope(
      testName: testName, verifying: verification,
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// ``endScope(testName:verifying:fileID:filePath:line:column:)`` reporting failures that
  /// belong to no stub at `location`: the test's or the trait's, for the scopes the library runs.
  package func endScope(
    testName: String, verifying verification: ScopeVerification = .default,
    location: SourceLocation
  ) -> [ScopeFailure] {
    scopeState.withLock { $0.ended = true }
    runScopeEndActions()
    finishJournalWatchers()
    let reason = RetirementReason.scopeEnded(testName: testName, location: location)
    let reportAt = reportsStragglersToSwiftTesting ? location : nil
    // The first retirement stands, as in the directory.
    scopeState.withLock { $0.retirement = $0.retirement ?? (reason, reportAt) }
    RegistryDirectory.shared.retire(id, reason: reason, reportAt: reportAt)
    var failures: [ScopeFailure] = []
    if verification.contains(.noRequestsInFlight) {
      for (request, receivingBody) in inFlightNow {
        let message =
          receivingBody
          ? "\(request) was still receiving its response body when \(testName) ended. Await "
            + "the whole body of every request the test starts (or cancel it) before the test "
            + "returns."
          : "\(request) was still waiting for its answer when \(testName) ended. Await every "
            + "request the test starts (or cancel it) before the test returns; answers that "
            + "arrive now are not delivered to a later test."
        failures.append(ScopeFailure(message: message, location: location))
      }
    }
    if verification.contains(.noUnmatchedRequests) {
      failures += unexpectedUnmatched(unmatchedReports, scopeLocation: location)
    }
    if verification.contains(.allStubsUsed) {
      failures += unusedStubFailures()
    }
    failures += scopeState.withLock { state in
      defer { state.userCodeFailures = nil }
      return state.userCodeFailures ?? []
    }
    return maskingTraffic(failures)
  }

  /// `failures` with every value redaction takes from the scope's requests masked wherever a
  /// message repeats it: an unused stub's URL can hold the token a request sent in a header.
  /// Read from the last ``trafficMaskedAtScopeEnd`` requests, and only when something failed.
  private func maskingTraffic(_ failures: [ScopeFailure]) -> [ScopeFailure] {
    guard !failures.isEmpty else { return failures }
    var secrets = Set<String>()
    let rules = cassette.map { CompiledRedaction($0.redaction) }
    for entry in journal.suffix(Self.trafficMaskedAtScopeEnd) {
      secrets.formUnion(RequestSecrets.values(of: entry.request, rules: rules))
    }
    guard !secrets.isEmpty else { return failures }
    return failures.map { failure in
      ScopeFailure(
        message: LogRedaction.mask(failure.message, hiding: secrets), location: failure.location)
    }
  }

  /// How many of a scope's last requests its end-of-scope messages are masked with.
  static let trafficMaskedAtScopeEnd = 256

  private func unusedStubFailures() -> [ScopeFailure] {
    stubs.compactMap { stub in
      let calls = stub.callCount
      if calls == 0 {
        return ScopeFailure(
          message:
            "Stub \(stub.pattern) was never used. Remove it, or check why no request matched it.",
          location: stub.location)
      }
      if let maximum = stub.limit.maximumCalls, calls < maximum {
        return ScopeFailure(
          message: "Stub \(stub.pattern) answered \(calls) of the \(maximum) requests it expected.",
          location: stub.location)
      }
      return nil
    }
  }
}
