import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `verify(_:_:)` counts what was sent, whoever answered it.
@Suite struct RequestVerificationTests {
  private func send(_ registry: StubRegistry, _ requests: [(String, String)]) async {
    let session = registry.makeSession()
    for (method, url) in requests {
      var request = URLRequest(url: URL(string: url)!)
      request.httpMethod = method
      _ = try? await session.data(for: request)
    }
  }

  @Test func countsEveryMatchingRequestWhoeverAnsweredIt() async throws {
    let registry = StubRegistry()
    registry.stub(.post("https://api.test/events"), .ok, limit: .times(1))
    await send(
      registry,
      [
        ("POST", "https://api.test/events"), ("POST", "https://api.test/events"),
        ("GET", "https://api.test/other"),
      ])
    // One answered by the stub, one unmatched (the stub was used up): both were sent.
    #expect(registry.verify(.post("https://api.test/events"), .exactly(2)))
    #expect(registry.verify(.post("https://api.test/events")))
    #expect(registry.verify(.post("https://api.test/events"), .atLeast(2)))
    #expect(registry.verify(.post("https://api.test/events"), .atMost(2)))
    #expect(registry.verify(.post("https://api.test/events"), .between(1...3)))
    #expect(registry.verify(.delete("https://api.test/events"), .never))
    _ = registry.endScope(testName: "t", verifying: [], location: SourceLocation())
  }

  @Test(arguments: [
    (RequestCount.exactly(3), "exactly 3"), (.atLeast(3), "at least 3"), (.atMost(1), "at most 1"),
    (.never, "never"), (.once, "exactly 1"), (.between(3...4), "between 3 and 4"),
  ])
  func aFailedCountIsReportedAtTheCallersLine(count: RequestCount, words: String) async throws {
    let registry = StubRegistry(unmatchedRequests: .fail)
    registry.stub(.post("https://api.test/events"), .ok)
    await send(
      registry, [("POST", "https://api.test/events"), ("POST", "https://api.test/events")])
    let line = #line + 2
    withKnownIssue {
      #expect(!registry.verify(.post("https://api.test/events"), count))
    } matching: { issue in
      issue.sourceLocation?.line == line
        && "\(issue)".contains("Expected \(words) request(s) matching method == POST")
        && "\(issue)".contains("but 2 were sent")
    }
  }

  @Test func tooFewListsTheClosestRequestsWithTheirDifferences() async throws {
    let registry = StubRegistry()
    registry.stub(.any, .ok)
    await send(
      registry,
      [
        ("GET", "https://api.test/events"), ("POST", "https://api.test/event"),
        ("GET", "https://elsewhere.test/x"), ("PUT", "https://api.test/a/b/c"),
      ])
    withKnownIssue {
      registry.verify(.post("https://api.test/events"), .once)
    } matching: { issue in
      let text = "\(issue)"
      return text.contains("but 0 were sent")
        && text.contains("Closest requests (3 of 4), best first:")
        && text.contains("1. GET https://api.test/events")
        && text.contains("✗ method: expected == POST, got GET")
    }
  }

  @Test func tooManyListsTheMatchingRequests() async throws {
    let registry = StubRegistry()
    registry.stub(.any, .ok)
    await send(registry, [("GET", "https://api.test/a?n=1"), ("GET", "https://api.test/a?n=2")])
    withKnownIssue {
      registry.verify(.get("https://api.test/a"), .atMost(1))
    } matching: { issue in
      "\(issue)".contains("- GET https://api.test/a?n=1")
        && "\(issue)".contains("- GET https://api.test/a?n=2")
    }
  }

  @Test func anEmptyJournalSaysSo() {
    let registry = StubRegistry()
    withKnownIssue {
      registry.verify(.get("https://api.test/a"))
    } matching: { issue in
      "\(issue)".contains("Expected at least 1 request(s)")
        && "\(issue)".contains("The journal holds no requests at all.")
    }
  }

  @Test func aBoundedJournalSaysOlderRequestsWereNotCounted() async throws {
    let registry = StubRegistry(journalCapacity: 1)
    registry.stub(.any, .ok)
    await send(registry, [("GET", "https://api.test/a"), ("GET", "https://api.test/b")])
    withKnownIssue {
      registry.verify(.get("https://api.test/a"))
    } matching: { issue in
      "\(issue)".contains("keeps only the last 1 request(s)")
    }
  }

  @Test func negativeBoundsMeanNone() {
    #expect(RequestCount.atMost(-1) == .never)
    #expect(RequestCount.exactly(0).contains(0))
    #expect(!RequestCount.atLeastOnce.contains(0))
  }
}

/// `request(matching:timeout:)` and `journalEntries()`.
@Suite struct RequestWaitTests {
  @Test func returnsARequestAlreadyInTheJournal() async throws {
    let registry = StubRegistry()
    registry.stub(.any, .ok)
    _ = try await registry.makeSession().data(from: URL(string: "https://api.test/early?n=1")!)
    let request = try await registry.request(matching: .get("https://api.test/early"))
    #expect(request.url.query == "n=1")
  }

  @Test func waitsForARequestSentLaterByFireAndForgetCode() async throws {
    let registry = StubRegistry()
    registry.stub(.any, .ok)
    let session = registry.makeSession()
    Task.detached {
      try await Task.sleep(for: .milliseconds(150))
      _ = try await session.data(from: URL(string: "https://api.test/noise")!)
      var sync = URLRequest(url: URL(string: "https://api.test/sync")!)
      sync.httpMethod = "POST"
      sync.httpBody = Data(#"{"items":3}"#.utf8)
      _ = try await session.data(for: sync)
    }
    let request = try await registry.request(
      matching: .post("https://api.test/sync"), timeout: .seconds(20 * TestTiming.scale))
    #expect(request.body == Data(#"{"items":3}"#.utf8))
  }

  @Test func aTimeoutThrowsWithTheClosestRequestsAndTheCallersLine() async throws {
    let registry = StubRegistry()
    registry.stub(.any, .ok)
    _ = try await registry.makeSession().data(from: URL(string: "https://api.test/syncs")!)
    let started = ContinuousClock.now
    let sync = RequestPattern.post("https://api.test/sync")
    let line = #line + 1
    let error = await #expect(throws: RequestWaitTimeout.self) {
      try await registry.request(matching: sync, timeout: .milliseconds(200))
    }
    #expect(ContinuousClock.now - started >= .milliseconds(200))
    let text = try #require(error).description
    #expect(text.contains("No request matching method == POST"))
    #expect(text.contains("RequestVerificationTests.swift:\(line)"))
    #expect(text.contains("none arrived within"))
    #expect(text.contains("1. GET https://api.test/syncs"))
  }

  @Test func theEndOfTheScopeEndsTheWaitAtOnce() async throws {
    let registry = StubRegistry()
    let waiting = Task {
      try await registry.request(matching: .get("https://api.test/never"), timeout: .seconds(60))
    }
    try await Task.sleep(for: .milliseconds(100))
    _ = registry.endScope(testName: "t", verifying: [], location: SourceLocation())
    let result = await waiting.result
    let error = try #require(
      {
        if case .failure(let error) = result { return error as? RequestWaitTimeout }
        return nil
      }())
    #expect(error.scopeEnded)
    #expect(error.description.contains("the registry's test scope ended first"))
  }

  @Test func cancellingTheWaiterThrowsCancellation() async throws {
    let registry = StubRegistry()
    let waiting = Task {
      try await registry.request(matching: .get("https://api.test/never"), timeout: .seconds(60))
    }
    try await Task.sleep(for: .milliseconds(50))
    waiting.cancel()
    let result = await waiting.result
    guard case .failure(let error) = result else {
      Issue.record("the wait returned a request")
      return
    }
    #expect(error is CancellationError)
  }

  @Test func journalEntriesStreamsTrafficAsItHappensAndEndsWithTheScope() async throws {
    let registry = StubRegistry(journalCapacity: 0)
    registry.stub(.any, .ok)
    let entries = registry.journalEntries()
    let session = registry.makeSession()
    for path in ["a", "b", "c"] {
      _ = try await session.data(from: URL(string: "https://api.test/\(path)")!)
    }
    _ = registry.endScope(testName: "t", verifying: [], location: SourceLocation())
    var paths: [String] = []
    for await entry in entries { paths.append(entry.request.path) }
    #expect(paths == ["/a", "/b", "/c"])
    #expect(registry.journal.isEmpty)
  }

  @Test func manyConcurrentWaitersEachGetTheirRequest() async throws {
    let registry = StubRegistry()
    registry.stub(.any, .ok)
    let session = registry.makeSession()
    try await withThrowingTaskGroup(of: String.self) { group in
      for index in 0..<16 {
        group.addTask {
          try await registry.request(
            matching: .get("https://api.test/item/\(index)"),
            timeout: .seconds(30 * TestTiming.scale * TestTiming.loadFactor())
          ).path
        }
      }
      for index in (0..<16).reversed() {
        _ = try await session.data(from: URL(string: "https://api.test/item/\(index)")!)
      }
      var seen: Set<String> = []
      for try await path in group { seen.insert(path) }
      #expect(seen == Set((0..<16).map { "/item/\($0)" }))
    }
  }

  /// An invalid pattern matches nothing: `.never` and `.atMost` must not pass on a count of 0.
  @Test(arguments: [
    RequestPattern.get("https://a.example/users/{id"), .path(matching: "/users/(\\d+"),
    .get("https://a.example/users/{id}") && .header("X", matching: "("),
  ])
  func anInvalidPatternFailsVerificationWithItsProblem(pattern: RequestPattern) async throws {
    #expect(!pattern.problems.isEmpty)
    let registry = StubRegistry()
    registry.stub(.any, .ok)
    _ = try await registry.makeSession().data(from: URL(string: "https://a.example/users/1")!)
    for count in [RequestCount.never, .atMost(3), .atLeastOnce] {
      let line = #line + 2
      withKnownIssue {
        #expect(!registry.verify(pattern, count))
      } matching: { issue in
        issue.sourceLocation?.line == line
          && "\(issue)".contains("Cannot verify \(count) request(s) matching")
          && "\(issue)".contains("the pattern is invalid: ")
          && "\(issue)".contains(pattern.problems[0])
      }
    }
    _ = registry.endScope(testName: "t", verifying: [], location: SourceLocation())
  }

  @Test func waitingForAnInvalidPatternFailsAtOnceWithItsProblem() async throws {
    let registry = StubRegistry()
    let pattern = RequestPattern.post("https://api.test/users/{id")
    let started = ContinuousClock.now
    let line = #line + 1
    let error = await #expect(throws: (any Error).self) {
      try await registry.request(matching: pattern, timeout: .seconds(TestTiming.never))
    }
    // Failing at once, not after the hour it was given; half of that is room for a busy machine.
    #expect(ContinuousClock.now - started < .seconds(TestTiming.never / 2))
    let text = "\(try #require(error))"
    #expect(text.contains("Cannot wait for a request matching method == POST"))
    #expect(text.contains("RequestVerificationTests.swift:\(line)"))
    #expect(text.contains("the pattern is invalid: \(pattern.problems[0])"))
  }
}
