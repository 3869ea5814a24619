#if canImport(Testing)
  import Testing

  /// Gives each test (and each case of a parameterized test) its own ``StubRegistry``, current
  /// for the test's task tree, and verifies it when the test ends.
  ///
  /// Apply it to a suite to cover every test in it, to a test, or both: a test's stubs are added
  /// to those its suite declared.
  ///
  /// ```swift
  /// @Suite(.stubs { $0.stub(.get("/config"), .json(["flags": [String]()])) })
  /// struct ProfileTests {
  ///   @Test(.stubs { $0.stub(.get("/users/{id}"), .json(["name": "Ada"])) })
  ///   func showsName() async throws {
  ///     let client = APIClient(session: StubRegistry.current!.makeSession())
  ///     #expect(try await client.userName(id: 1) == "Ada")
  ///   }
  /// }
  /// ```
  ///
  /// Tests with this trait run in parallel safely: sessions from a test's registry are answered
  /// only by it, from any task, including detached ones.
  public struct StubsTrait: TestTrait, SuiteTrait, TestScoping {
    let configure: @Sendable (StubRegistry) throws -> Void
    let verification: ScopeVerification
    let unmatchedRequests: UnmatchedRequestPolicy?
    let attachTraffic: TrafficAttachment
    let interceptsSharedSession: Bool
    let cassette: CassetteSpec?
    let location: SourceLocation?

    /// Applies to every test in a suite.
    public var isRecursive: Bool { true }

    /// One scope per test case; none for a suite as a whole or a test before its cases run.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> StubsTrait? {
      testCase == nil ? nil : self
    }

    /// Creates the registry (or joins the one an enclosing trait created), runs the test with it
    /// current, then ends it and records what verification finds.
    public func provideScope(
      for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
      let testLocation = SourceLocation(
        fileID: test.sourceLocation.fileID, filePath: test.sourceLocation.filePath,
        line: test.sourceLocation.line, column: test.sourceLocation.column)
      let reportLocation = location ?? testLocation
      if let enclosing = StubRegistry.current {
        try configure(enclosing)
        if let unmatchedRequests { enclosing.unmatchedRequests = unmatchedRequests }
        let cassette = makeCassette(for: test, testCase, location: reportLocation)
        if let cassette { enclosing.use(cassette) }
        var thrown: (any Error)?
        do {
          try await withSharedSession(enclosing, reportLocation, function)
        } catch {
          thrown = error
        }
        for failure in await cassette?.finishAwaitingHooks() ?? [] {
          IssueReporter.report(failure.message, at: failure.location)
        }
        if let thrown { throw thrown }
        return
      }
      let registry = StubRegistry(
        unmatchedRequests: unmatchedRequests ?? .fail, fileID: reportLocation.fileID,
        filePath: reportLocation.filePath, line: reportLocation.line, column: reportLocation.column)
      registry.reportsStragglersToSwiftTesting = true
      registry.beginScope(verifying: verification)
      let cassette = makeCassette(for: test, testCase, location: reportLocation)
      if let cassette { registry.use(cassette) }
      let name = test.displayName ?? test.name
      // A test fails by its own `#expect` or `Issue.record` as often as by anything Understudy
      // reports, and its traffic is what explains it. Known issues and warnings are not failures.
      let recordedFailure = Locked(false)
      let observingIssues = IssueHandlingTrait.compactMapIssues { issue in
        if issue.isFailure { recordedFailure.withLock { $0 = true } }
        return issue
      }
      var thrown: (any Error)?
      do {
        try configure(registry)
        try await StubRegistry.$scoped.withValue(registry) {
          // Outside a running test (a benchmark calling the trait itself), Swift Testing's issue
          // handling has no test to observe and traps; there is no expectation to fail either.
          if Test.current != nil {
            try await observingIssues.provideScope(for: test, testCase: testCase) {
              try await withSharedSession(registry, reportLocation, function)
            }
          } else {
            try await withSharedSession(registry, reportLocation, function)
          }
        }
      } catch {
        thrown = error
      }
      let failures =
        registry.endScope(testName: name, verifying: verification, location: reportLocation)
        + (await cassette?.finishAwaitingHooks() ?? [])
      for failure in failures { IssueReporter.report(failure.message, at: failure.location) }
      let failed = thrown != nil || !failures.isEmpty || recordedFailure.current
      if attachTraffic == .always || (attachTraffic == .onFailure && failed) {
        TrafficAttachmentWriter.attach(registry, testName: name, location: reportLocation)
      }
      if let thrown { throw thrown }
    }

    private func makeCassette(for test: Test, _ testCase: Test.Case?, location: SourceLocation)
      -> Cassette?
    {
      cassette?.makeCassette(
        defaultName: CassetteName.forTest(
          named: test.name, arguments: TestCaseArguments.describe(testCase)),
        recordCommand: CassetteName.recordCommand(testNameComponents: test.id.nameComponents),
        location: location)
    }

    /// Runs `function` owning `URLSession.shared` when the trait asks for it, after every other
    /// test that owns it has finished.
    private func withSharedSession(
      _ registry: StubRegistry, _ location: SourceLocation,
      _ function: @Sendable () async throws -> Void
    ) async throws {
      guard interceptsSharedSession else { return try await function() }
      if case .inactive(let reason) = SharedSessionInterception.install() {
        // Running the body would send its URLSession.shared requests to the real network.
        IssueReporter.report("The test was not run: \(reason)", at: location)
        return
      }
      await SharedSessionLock.shared.acquire()
      do {
        try await SharedSessionInterception.withOwner(registry) { try await function() }
      } catch {
        await SharedSessionLock.shared.release()
        throw error
      }
      await SharedSessionLock.shared.release()
    }
  }

  extension Trait where Self == StubsTrait {
    /// A fresh stub registry for each test, with default verification.
    public static var stubs: StubsTrait {
      StubsTrait(
        configure: { _ in }, verification: .default, unmatchedRequests: nil,
        attachTraffic: .onFailure, interceptsSharedSession: false, cassette: nil, location: nil)
    }

    /// Binds a HAR cassette to each test: what no stub answers is replayed from it, and recorded
    /// into it as `mode` says (`UNDERSTUDY_RECORD` overrides the mode).
    ///
    /// The default file is `__Cassettes__/<TestFile>/<test name>.har` beside the test file; each
    /// case of a parameterized test gets its own (`greets-Ada.har`).
    ///
    /// ```swift
    /// @Test(.cassette(mode: .missing))
    /// func loadsProfile() async throws { … }
    /// ```
    ///
    /// Stubs declared in `configure` answer before the cassette does, so a test can replay a
    /// recorded session and still pin one endpoint (an error case, say) by hand:
    ///
    /// ```swift
    /// @Test(.cassette(mode: .never) { $0.stub(.get("/quota"), .status(429)) })
    /// func backsOffWhenOverQuota() async throws { … }
    /// ```
    ///
    /// Matching, redaction, hooks and the rest are one ``CassetteOptions`` value, which tests that
    /// share it declare once:
    ///
    /// ```swift
    /// @Test(.cassette(mode: .newEpisodes, options: Self.options))
    /// func loadsProfile() async throws { … }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The cassette's file name without `.har`; by default the test's name.
    ///   - mode: When to record; `UNDERSTUDY_RECORD` overrides it.
    ///   - location: Where cassettes live.
    ///   - options: Matching, redaction, hooks and the rest; ``CassetteOptions`` lists them. Declare
    ///     them once (a suite's `static let`) for every test that shares them.
    ///   - verification: What to check when the test ends.
    ///   - fileID: The `#fileID` of the trait; failures that belong to no stub are reported at
    ///     the trait. Leave the default.
    ///   - filePath: The `#filePath` of the trait; leave the default.
    ///   - line: The line of the trait; leave the default.
    ///   - column: The column of the trait; leave the default.
    ///   - configure: Declares stubs on the test's registry before the test runs; they take
    ///     precedence over the cassette's entries.
    public static func cassette(
      _ name: String? = nil, mode: RecordMode = .never,
      location: CassetteLocation = .besideTestFile, options: CassetteOptions = CassetteOptions(),
      verifying verification: ScopeVerification = .default,
      fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
      column: Int = #column,
      _ configure: @escaping @Sendable (StubRegistry) throws -> Void = { _ in }
    ) -> StubsTrait {
      StubsTrait(
        configure: configure, verification: verification, unmatchedRequests: nil,
        attachTraffic: .onFailure, interceptsSharedSession: false,
        cassette: CassetteSpec(name: name, mode: mode, location: location, options: options),
        location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// A fresh stub registry for each test, set up by `configure`.
    ///
    /// - Parameters:
    ///   - verification: What to check when the test ends.
    ///   - unmatchedRequests: What to do with requests no stub matches (failing them by default).
    ///   - attachTraffic: When to attach the test's traffic to its result as a HAR file.
    ///   - interceptingSharedSession: Also answer `URLSession.shared` from the test's registry,
    ///     for code that cannot be handed a session. Such tests wait for each other; see
    ///     ``SharedSessionInterception``.
    ///   - fileID: The `#fileID` of the trait; failures that belong to no stub are reported at
    ///     the trait. Leave the default.
    ///   - filePath: The `#filePath` of the trait; leave the default.
    ///   - line: The line of the trait; leave the default.
    ///   - column: The column of the trait; leave the default.
    ///   - configure: Declares stubs on the test's registry before the test runs.
    public static func stubs(
      verifying verification: ScopeVerification = .default,
      unmatchedRequests: UnmatchedRequestPolicy? = nil,
      attachTraffic: TrafficAttachment = .onFailure,
      interceptingSharedSession: Bool = false,
      fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
      column: Int = #column,
      _ configure: @escaping @Sendable (StubRegistry) throws -> Void = { _ in }
    ) -> StubsTrait {
      // Registering now, while tests are being discovered, comes before any test body can create
      // the process's first URLSession (which on Linux freezes URLSession.shared's classes).
      if interceptingSharedSession { SharedSessionInterception.install() }
      return StubsTrait(
        configure: configure, verification: verification, unmatchedRequests: unmatchedRequests,
        attachTraffic: attachTraffic, interceptsSharedSession: interceptingSharedSession,
        cassette: nil,
        location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
  }
#endif

/// When a test's traffic is attached to its result.
#if hasAttribute(nonexhaustive)
  @nonexhaustive
#endif
public enum TrafficAttachment: Sendable, Hashable {
  /// Never.
  case never
  /// When the test fails (the default).
  case onFailure
  /// Always.
  case always
}
