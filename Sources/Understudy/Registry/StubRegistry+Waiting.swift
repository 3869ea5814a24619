extension StubRegistry {
  /// The journal's entries as they are appended, for a test that watches traffic as it happens.
  ///
  /// The sequence starts with the entries appended after the call (read ``journal`` for the
  /// earlier ones) and ends when the registry's test scope ends or the registry is released.
  /// An entry arrives as soon as its request is intercepted, before it is answered, so its
  /// ``JournalEntry/response`` is still `nil`. Entries arrive even when `journalCapacity` keeps
  /// none.
  ///
  /// ```swift
  /// for await entry in registry.journalEntries() {
  ///   if entry.request.path == "/v1/sync" { break }
  /// }
  /// ```
  public func journalEntries() -> AsyncStream<JournalEntry> {
    watchJournal().stream
  }

  /// Waits for a request matching `pattern`, for code that sends requests the test cannot
  /// await (analytics, a background sync, a retry after a delay).
  ///
  /// Returns the earliest matching request already in the journal, if any; otherwise the first
  /// one to arrive. When none arrives within `timeout` (or the registry's test scope ends first)
  /// it throws ``RequestWaitTimeout``, whose text lists the requests that came closest with the
  /// fields that differed. A pattern with ``RequestPattern/problems`` can match no request, so
  /// the call throws ``RequestWaitTimeout`` naming them at once rather than wait out `timeout`.
  ///
  /// ```swift
  /// model.refreshInBackground()
  /// let sent = try await registry.request(matching: .post("https://api.example.com/sync"))
  /// #expect(sent.headers["Content-Type"] == "application/json")
  /// ```
  ///
  /// - Parameters:
  ///   - pattern: The request to wait for.
  ///   - timeout: How long to wait; two seconds when omitted.
  ///   - fileID: The `#fileID` of the caller; leave the default.
  ///   - filePath: The `#filePath` of the caller; leave the default.
  ///   - line: The line of the caller; leave the default.
  ///   - column: The column of the caller; leave the default.
  /// - Returns: The request, body included.
  public func request(
    matching pattern: RequestPattern, timeout: Duration = .seconds(2), fileID: String = #fileID,
    filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) async throws -> InterceptedRequest {
    let problems = pattern.problems
    guard problems.isEmpty else {
      throw RequestWaitTimeout(
        pattern: pattern, timeout: .zero, scopeEnded: false,
        location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column),
        closest: [], problems: problems)
    }
    let (stream, earlier) = watchJournal()
    if let found = earlier.first(where: { pattern.match($0.request) != nil }) {
      return found.request
    }
    let arrived = try await withThrowingTaskGroup(of: InterceptedRequest?.self) { group in
      group.addTask {
        for await entry in stream where pattern.match(entry.request) != nil {
          return entry.request
        }
        return nil
      }
      group.addTask {
        try await Task.sleep(for: timeout)
        return nil
      }
      let first = try await group.next() ?? nil
      group.cancelAll()
      return first
    }
    if let arrived { return arrived }
    try Task.checkCancellation()
    // The timer may win the race against a watcher not yet scheduled on a busy machine while
    // the request already sits in the journal: it arrived in time, so it counts.
    if let late = journalStorage.withLock({ $0.entries }).first(where: {
      pattern.match($0.request) != nil
    }) {
      return late.request
    }
    throw RequestWaitTimeout(
      pattern: pattern, timeout: timeout, scopeEnded: scopeState.withLock { $0.ended },
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column),
      closest: ClosestRequests(to: pattern, among: requests).lines)
  }

  /// A stream of the entries appended from now on, and the entries already kept, taken under one
  /// lock so no entry falls between the two.
  private func watchJournal() -> (stream: AsyncStream<JournalEntry>, earlier: [JournalEntry]) {
    let (stream, continuation) = AsyncStream.makeStream(of: JournalEntry.self)
    let (watcher, earlier) = journalStorage.withLock { journal in
      (journal.watch(continuation), journal.entries)
    }
    continuation.onTermination = { [weak self] _ in
      _ = self?.journalStorage.withLock { $0.stopWatching(watcher) }
    }
    // A scope that ended before the watch began will not finish it: finish it now.
    if scopeState.withLock({ $0.ended }) {
      journalStorage.withLock { $0.stopWatching(watcher) }?.finish()
    }
    return (stream, earlier)
  }

  /// Ends every stream watching the journal: the registry's scope is over, so no entry will come.
  func finishJournalWatchers() {
    for watcher in journalStorage.withLock({ $0.removeWatchers() }) { watcher.finish() }
  }
}
