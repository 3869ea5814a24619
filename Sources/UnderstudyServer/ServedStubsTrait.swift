#if Server && canImport(Testing)
  import Testing
  import Understudy

  /// The ``Understudy/StubsTrait`` scope with a ``LoopbackServer`` running for the test's registry:
  /// each test (and each case of a parameterized test) gets its own registry and its own port, and
  /// the server stops before the registry is verified.
  ///
  /// ```swift
  /// @Test(.servedStubs { $0.stub(.get("/health"), .text("ok")) })
  /// func answersCurl() async throws {
  ///   let server = try #require(LoopbackServer.current)
  ///   // run `curl \(server.baseURL)/health`, or hand server.baseURL to the app under test
  /// }
  /// ```
  public struct ServedStubsTrait: TestTrait, SuiteTrait, TestScoping {
    let stubs: StubsTrait

    /// Applies to every test in a suite.
    public var isRecursive: Bool { true }

    /// One scope per test case, as ``Understudy/StubsTrait`` has.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> ServedStubsTrait? {
      testCase == nil ? nil : self
    }

    /// Runs the test inside the stubs scope with the registry's server listening.
    public func provideScope(
      for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
      try await stubs.provideScope(for: test, testCase: testCase) {
        let server = try await StubRegistry.requireCurrent().startServer()
        do {
          try await function()
        } catch {
          await server.stop()
          throw error
        }
        await server.stop()
      }
    }
  }

  extension Trait where Self == ServedStubsTrait {
    /// A fresh stub registry for each test, with a loopback server answering from it.
    public static var servedStubs: ServedStubsTrait { ServedStubsTrait(stubs: .stubs) }

    /// A fresh stub registry for each test, set up by `configure`, with a loopback server
    /// answering from it.
    ///
    /// - Parameters:
    ///   - verification: What to check when the test ends.
    ///   - unmatchedRequests: What to do with requests no stub matches (a `404` with the
    ///     near-miss report, and a test failure, by default).
    ///   - attachTraffic: When to attach the test's traffic to its result as a HAR file.
    ///   - fileID: The `#fileID` of the trait; leave the default.
    ///   - filePath: The `#filePath` of the trait; leave the default.
    ///   - line: The line of the trait; leave the default.
    ///   - column: The column of the trait; leave the default.
    ///   - configure: Declares stubs on the test's registry before the test runs.
    public static func servedStubs(
      verifying verification: ScopeVerification = .default,
      unmatchedRequests: UnmatchedRequestPolicy? = nil,
      attachTraffic: TrafficAttachment = .onFailure,
      fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
      column: Int = #column,
      _ configure: @escaping @Sendable (StubRegistry) throws -> Void = { _ in }
    ) -> ServedStubsTrait {
      ServedStubsTrait(
        stubs: .stubs(
          verifying: verification, unmatchedRequests: unmatchedRequests,
          attachTraffic: attachTraffic, fileID: fileID, filePath: filePath, line: line,
          column: column, configure))
    }
  }
#endif
