import Testing

@testable import Understudy

/// Tests running at once, sending identical requests, each answered by its own stubs.
@Suite struct ParallelIsolationTests {
  static let sharedURL = URL(string: "https://api.test/same/resource")!

  /// Sixteen cases run in parallel (Swift Testing's default), each with its own scope, 500
  /// requests each, through several APIs and from a detached task: not one crossed answer.
  @Test(.stubs, arguments: 0..<16)
  func identicalRequestsGetTheirOwnTestsAnswer(caseNumber: Int) async throws {
    let registry = try #require(StubRegistry.current)
    // A session made before the stub exists still answers from this test's registry.
    let session = registry.makeSession()
    registry.stub(.get("/same/resource"), .text("case \(caseNumber)"))

    let answers = try await withThrowingTaskGroup(of: String.self) { group in
      for index in 0..<500 {
        group.addTask {
          if index % 50 == 0 {
            // Detached tasks do not inherit task-locals; the session still knows its registry.
            return try await Task.detached { try await session.text(from: Self.sharedURL) }.value
          }
          return try await session.text(from: Self.sharedURL)
        }
      }
      var answers: [String] = []
      for try await answer in group { answers.append(answer) }
      return answers
    }
    #expect(answers.count == 500)
    #expect(answers.allSatisfy { $0 == "case \(caseNumber)" })
    #expect(registry.journal.count == 500)
  }

  @Test(.stubs { $0.stub(.get("/same/resource"), .text("declared in the trait")) })
  func stubsDeclaredInTheTraitAnswer() async throws {
    let session = try #require(StubRegistry.current).makeSession()
    #expect(try await session.text(from: Self.sharedURL) == "declared in the trait")
  }

  @Test(.stubs { $0.stub(.get("/same/resource"), .text("trait")) })
  func stubsDeclaredInTheTestOverrideTheTrait() async throws {
    let registry = try #require(StubRegistry.current)
    registry.stub(.get("/same/resource"), .text("test"))
    #expect(try await registry.makeSession().text(from: Self.sharedURL) == "test")
  }
}

@Suite(.stubs { $0.stub(.get("/config"), .text("suite config")) })
struct NestedTraitTests {
  @Test(.stubs { $0.stub(.get("/profile"), .text("test profile")) })
  func suiteAndTestStubsShareOneRegistry() async throws {
    let session = try #require(StubRegistry.current).makeSession()
    #expect(try await session.text(from: URL(string: "https://api.test/config")!) == "suite config")
    #expect(
      try await session.text(from: URL(string: "https://api.test/profile")!) == "test profile")
  }

  @Test func eachTestOfTheSuiteGetsAFreshRegistry() async throws {
    let registry = try #require(StubRegistry.current)
    #expect(registry.stubs.count == 1)
    #expect(registry.journal.isEmpty)
  }

  @Test(arguments: ["a", "b", "c"])
  func eachParameterizedCaseGetsItsOwnRegistry(name: String) async throws {
    let registry = try #require(StubRegistry.current)
    #expect(registry.stubs.count == 1)
    registry.stub(.get("/case"), .text(name))
    #expect(
      try await registry.makeSession().text(from: URL(string: "https://api.test/case")!) == name)
    #expect(registry.stubs.count == 2)
  }
}

/// Verification, explicit and at the end of a scope.
@Suite struct VerificationTests {
  @Test func explicitCallCountChecksReportAtTheCallersLine() async throws {
    let registry = StubRegistry()
    let ping = registry.stub(.get("/ping"), .ok)
    let unused = registry.stub(.get("/unused"), .ok)
    _ = try await registry.makeSession().data(from: URL(string: "https://api.test/ping")!)
    #expect(registry.verify(ping, calledTimes: 1))
    #expect(registry.verify(unused, calledTimes: 0))
    let line = #line + 2
    withKnownIssue {
      registry.verify(ping, calledTimes: 3)
    } matching: { issue in
      issue.sourceLocation?.line == line
        && "\(issue)".contains("expected to answer 3 request(s) but answered 1")
        && "\(issue)".contains("GET https://api.test/ping")
    }
  }

  @Test func allStubsUsedReportsEachUnusedStubAtItsDeclaration() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/used"), .ok)
    let unusedLine = #line + 1
    registry.stub(.get("/unused"), .ok)
    let partlyUsedLine = #line + 1
    registry.stub(.get("/twice"), .ok, limit: .times(2))
    let session = registry.makeSession()
    _ = try await session.data(from: URL(string: "https://api.test/used")!)
    _ = try await session.data(from: URL(string: "https://api.test/twice")!)
    let failures = registry.endScope(
      testName: "t", verifying: [.allStubsUsed], location: SourceLocation())
    #expect(failures.map(\.location.line) == [unusedLine, partlyUsedLine])
    #expect(failures[0].message.contains("was never used"))
    #expect(failures[1].message.contains("answered 1 of the 2 requests"))
  }

  @Test func unmatchedRequestsAreReportedAtTheClosestStubOrTheScope() async throws {
    let registry = StubRegistry()
    let stubLine = #line + 1
    registry.stub(.get("/users/{id}") && .header("Accept", "application/json"), .ok)
    let session = registry.makeSession()
    _ = try? await session.data(from: URL(string: "https://api.test/users/1")!)
    var post = URLRequest(url: URL(string: "https://unrelated.test/")!)
    post.httpMethod = "PATCH"
    _ = try? await session.data(for: post)
    let scopeLocation = SourceLocation(fileID: "M/Scope.swift", filePath: "/Scope.swift", line: 7)
    let failures = registry.endScope(testName: "t", location: scopeLocation)
    #expect(failures.count == 2)
    #expect(failures[0].location.line == stubLine)
    #expect(failures[0].message.contains("no stub matched GET https://api.test/users/1"))
    #expect(failures[1].location == scopeLocation)
  }

  @Test(arguments: ["throttled", "body delayed"])
  func aBodyStillArrivingWhenTheScopeEndsIsReported(pacing: String) async throws {
    let registry = StubRegistry()
    let body = StubResponse.text(String(repeating: "x", count: 1_000))
    registry.stub(
      .get("/stream"),
      // The body takes an hour; the response goes out at once.
      pacing == "throttled"
        ? body.throttled(bytesPerSecond: 1) : body.bodyDelayed(by: TestTiming.never))
    let delegate = TimestampingDelegate()
    // The report names the request: a credential in its URL must not reach the test log.
    let secret = plantedSecret("stream")
    let task = registry.makeSession(delegate: delegate)
      .dataTask(with: .heldOpen(URL(string: "https://api.test/stream?access_token=\(secret)")!))
    task.resume()
    try await withWatchdog { try await delegate.responded() }
    #expect(registry.journal.first?.response?.status == 200)
    #expect(registry.requestsInFlight.map(\.path) == ["/stream"])
    let failures = registry.endScope(testName: "streamingTest()", location: SourceLocation())
    #expect(failures.count == 1)
    #expect(
      failures.first?.message.contains(
        "GET https://api.test/stream?access_token=••••(") == true, "\(failures)")
    #expect(
      failures.first?.message.contains(
        "was still receiving its response body when streamingTest() ended") == true)
    #expect(!failures.map(\.message).joined().contains(secret))
    task.cancel()
    try await withWatchdog { try await delegate.finished() }
    #expect(registry.requestsInFlight.isEmpty)
  }

  @Test func aRequestStillInFlightWhenTheScopeEndsIsReportedAndLaterOnesAreRefused() async throws {
    let registry = StubRegistry()
    let arrival = Arrival()
    registry.stub(.get("/slow")) { _ in
      arrival.signal()
      // Far longer than any scheduling delay under load; the test cancels it below.
      return StubResponse.text("late").delayed(by: TestTiming.never)
    }
    let session = registry.makeSession()
    let inFlight = Task {
      try await session.data(for: .heldOpen(URL(string: "https://api.test/slow")!))
    }
    // Other suites load URLSession's one shared queue; wait for the request, not for a time.
    try await arrival.wait(within: 20)
    let failures = registry.endScope(testName: "slowTest()", location: SourceLocation())
    #expect(failures.count == 1)
    #expect(failures.first?.message.contains("GET https://api.test/slow was still waiting") == true)
    #expect(failures.first?.message.contains("slowTest()") == true)
    // A request still in flight belongs to its own scope: it is not re-routed anywhere.
    inFlight.cancel()
    #expect(try await errorOf { try await inFlight.value }?.code == .cancelled)
    let error = try await #require(throws: URLError.self) {
      try await session.data(from: URL(string: "https://api.test/slow")!)
    }
    #expect(error.localizedDescription.contains("arrived after its test slowTest() ended"))
  }
}

/// Waits until `condition` holds, polling, for at most `seconds`.
func eventually(
  within seconds: TimeInterval = 10, sourceLocation: Testing.SourceLocation = #_sourceLocation,
  _ condition: () -> Bool
) async throws {
  var deadline = HangDeadline(seconds: seconds)
  while !condition() {
    if deadline.hasPassed {
      Issue.record("condition not met within \(seconds) s", sourceLocation: sourceLocation)
      return
    }
    try await deadline.pause(nanoseconds: 5_000_000)
  }
}
