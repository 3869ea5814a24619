#if canImport(XCTest)
  import XCTest

  /// An `XCTestCase` whose every test gets its own ``StubRegistry``, current while the test
  /// (with its `setUp` and `tearDown`) runs, and verified when it ends.
  ///
  /// ```swift
  /// final class ProfileTests: StubbedTestCase {
  ///   func testShowsName() async throws {
  ///     stubs.stub(.get("/users/{id}"), .json(["name": "Ada"]))
  ///     let client = APIClient(session: stubs.makeSession())
  ///     let name = try await client.userName(id: 1)
  ///     XCTAssertEqual(name, "Ada")
  ///   }
  /// }
  /// ```
  ///
  /// Failures (unmatched requests, verification, problems with stubs) are recorded on the test
  /// at the line that declared the stub, or at the test otherwise.
  open class StubbedTestCase: XCTestCase {
    private var registry: StubRegistry?

    /// What is verified when each test ends; override to change it.
    open var stubVerification: ScopeVerification { .default }

    /// What happens to requests no stub matches; override to change it.
    open var unmatchedRequests: UnmatchedRequestPolicy { .fail }

    /// The registry of the running test.
    public var stubs: StubRegistry {
      if let registry { return registry }
      // Outside invokeTest (e.g. in a class-level setUp) there is no test scope.
      return StubRegistry.requireCurrent()
    }

    /// Runs the test inside its own scope.
    override open func invokeTest() {
      let registry = StubRegistry(unmatchedRequests: unmatchedRequests)
      registry.beginScope(verifying: stubVerification)
      self.registry = registry
      XCTestObserver.shared.begin(self)
      StubRegistry.$scoped.withValue(registry) {
        super.invokeTest()
      }
      // XCTest does not tell us the test method's file; the first stub the test declared is the
      // closest line we know.
      let location = registry.stubs.first?.location ?? registry.location
      let failures = registry.endScope(
        testName: name, verifying: stubVerification, location: location)
      for failure in failures {
        XCTestObserver.record(failure.message, at: failure.location, in: self)
      }
      #if !os(Linux) && !os(Windows) && !os(Android)
        // XCTest attachments exist on Apple platforms only (not verified here: built on Linux).
        if !failures.isEmpty || testRun?.hasSucceeded == false,
          let bytes = TrafficAttachmentWriter.attachmentBytes(of: registry, testName: name)
        {
          let attachment = XCTAttachment(data: Data(bytes), uniformTypeIdentifier: "public.json")
          attachment.name = "\(CassetteName.sanitized(name))-traffic.har"
          add(attachment)
        }
      #endif
      self.registry = nil
    }
  }

  extension XCTestCase {
    /// Runs `body` with a fresh ``StubRegistry`` current, then ends it and records what
    /// `verification` finds on this test.
    ///
    /// ```swift
    /// func testOffline() throws {
    ///   try withStubs { stubs in
    ///     stubs.stub(.get("/feed"), .failure(URLError(.notConnectedToInternet)))
    ///     XCTAssertThrowsError(try loadFeedSynchronously(session: stubs.makeSession()))
    ///   }
    /// }
    /// ```
    public func withStubs<Result>(
      verifying verification: ScopeVerification = .default, fileID: String = #fileID,
      filePath: String = #filePath, line: Int = #line, column: Int = #column,
      _ body: (StubRegistry) throws -> Result
    ) rethrows -> Result {
      let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
      let registry = StubRegistry(
        fileID: fileID, filePath: filePath, line: line, column: column)
      registry.beginScope(verifying: verification)
      XCTestObserver.shared.begin(self)
      defer { endStubs(registry, verification, location) }
      return try StubRegistry.$scoped.withValue(registry) { try body(registry) }
    }

    /// The `async` form of ``withStubs(verifying:fileID:filePath:line:column:_:)``.
    public func withStubs<Result>(
      verifying verification: ScopeVerification = .default, fileID: String = #fileID,
      filePath: String = #filePath, line: Int = #line, column: Int = #column,
      _ body: (StubRegistry) async throws -> Result
    ) async rethrows -> Result {
      let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
      let registry = StubRegistry(
        fileID: fileID, filePath: filePath, line: line, column: column)
      registry.beginScope(verifying: verification)
      XCTestObserver.shared.begin(self)
      defer { endStubs(registry, verification, location) }
      return try await StubRegistry.$scoped.withValue(registry) { try await body(registry) }
    }

    /// Runs `body` with a fresh ``StubRegistry`` that also answers `URLSession.shared`, for code
    /// that cannot be handed a session. Fails the test without running `body` when interception
    /// of the shared session could not be installed (see ``SharedSessionInterception``).
    public func withSharedSessionStubs<Result>(
      verifying verification: ScopeVerification = .default, fileID: String = #fileID,
      filePath: String = #filePath, line: Int = #line, column: Int = #column,
      _ body: (StubRegistry) throws -> Result
    ) rethrows -> Result? {
      let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
      XCTestObserver.shared.begin(self)
      if case .inactive(let reason) = SharedSessionInterception.install() {
        XCTestObserver.record("The test body was not run: \(reason)", at: location, in: self)
        return nil
      }
      // XCTest runs a process's tests one at a time, so no lock is needed here.
      return try withStubs(
        verifying: verification, fileID: fileID, filePath: filePath, line: line, column: column
      ) { registry in
        try SharedSessionInterception.withOwner(registry) { try body(registry) }
      }
    }

    /// Runs `body` with a fresh ``StubRegistry`` whose unmatched requests are replayed from (and
    /// recorded into) a HAR cassette, then writes what was recorded and records failures on
    /// this test.
    ///
    /// The default file is `__Cassettes__/<TestFile>/<test name>.har` beside the calling file.
    /// Stubs the body declares on the registry answer before the cassette does.
    ///
    /// ```swift
    /// func testLoadsProfile() async throws {
    ///   try await withCassette(mode: .missing) { stubs in
    ///     let profile = try await ProfileClient(session: stubs.makeSession()).load()
    ///     XCTAssertEqual(profile.name, "Ada")
    ///   }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The cassette's file name without `.har`; by default the test's name.
    ///   - mode: When to record; `UNDERSTUDY_RECORD` overrides it.
    ///   - location: Where cassettes live.
    ///   - options: Matching, redaction, hooks and the rest; ``CassetteOptions`` lists them. Declare
    ///     them once (a suite's `static let`) for every test that shares them.
    ///   - verification: What to check when the body returns.
    ///   - fileID: The `#fileID` of the caller; leave the default.
    ///   - filePath: The `#filePath` of the caller; the default location is beside this file.
    ///   - line: The line of the caller; leave the default.
    ///   - column: The column of the caller; leave the default.
    ///   - body: The test's work, given the registry to make sessions from.
    public func withCassette<Result>(
      _ name: String? = nil, mode: RecordMode = .never,
      location: CassetteLocation = .besideTestFile, options: CassetteOptions = CassetteOptions(),
      verifying verification: ScopeVerification = .default,
      fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
      column: Int = #column, _ body: (StubRegistry) async throws -> Result
    ) async rethrows -> Result {
      let source = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
      let cassette = makeCassette(
        CassetteSpec(name: name, mode: mode, location: location, options: options), source)
      defer { finish(cassette) }
      return try await withStubs(
        verifying: verification, fileID: fileID, filePath: filePath, line: line, column: column
      ) { registry in
        registry.use(cassette)
        return try await body(registry)
      }
    }

    /// Runs `body` with a fresh ``StubRegistry`` answered from a HAR cassette, for tests that
    /// do not await (they wait on expectations instead); otherwise the same as the `async` form.
    ///
    /// - Parameters:
    ///   - name: The cassette's file name without `.har`; by default the test's name.
    ///   - mode: When to record; `UNDERSTUDY_RECORD` overrides it.
    ///   - location: Where cassettes live.
    ///   - options: Matching, redaction, hooks and the rest; ``CassetteOptions`` lists them. Declare
    ///     them once (a suite's `static let`) for every test that shares them.
    ///   - verification: What to check when the body returns.
    ///   - fileID: The `#fileID` of the caller; leave the default.
    ///   - filePath: The `#filePath` of the caller; the default location is beside this file.
    ///   - line: The line of the caller; leave the default.
    ///   - column: The column of the caller; leave the default.
    ///   - body: The test's work, given the registry to make sessions from.
    public func withCassette<Result>(
      _ name: String? = nil, mode: RecordMode = .never,
      location: CassetteLocation = .besideTestFile, options: CassetteOptions = CassetteOptions(),
      verifying verification: ScopeVerification = .default,
      fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
      column: Int = #column, _ body: (StubRegistry) throws -> Result
    ) rethrows -> Result {
      let source = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
      let cassette = makeCassette(
        CassetteSpec(name: name, mode: mode, location: location, options: options), source)
      defer { finish(cassette) }
      return try withStubs(
        verifying: verification, fileID: fileID, filePath: filePath, line: line, column: column
      ) { registry in
        registry.use(cassette)
        return try body(registry)
      }
    }

    private func makeCassette(_ spec: CassetteSpec, _ source: SourceLocation) -> Cassette {
      // XCTest names tests "-[Class testName]" on Darwin and "Class.testName" on Linux.
      let testName =
        self.name.split(whereSeparator: { " .[]-".contains($0) }).last.map(String.init)
        ?? self.name
      let className = String(describing: type(of: self))
      return spec.makeCassette(
        defaultName: CassetteName.forTest(named: testName, arguments: []),
        recordCommand: CassetteName.recordCommand(testNameComponents: [className, testName]),
        location: source)
    }

    /// Writes what the cassette recorded and records its failures on this test.
    private func finish(_ cassette: Cassette) {
      for failure in cassette.finish() {
        XCTestObserver.record(failure.message, at: failure.location, in: self)
      }
    }

    private func endStubs(
      _ registry: StubRegistry, _ verification: ScopeVerification, _ location: SourceLocation
    ) {
      for failure in registry.endScope(testName: name, verifying: verification, location: location)
      {
        XCTestObserver.record(failure.message, at: failure.location, in: self)
      }
    }
  }
#endif
