import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One failure, one message: a near-miss report is printed once, wherever it is printed.
@Suite struct FailureOutputTests {
  private func occurrences(of needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
  }

  @Test func anErrorPrintsItsReportOnceWhenNoScopeRecordsIt() async throws {
    let registry = StubRegistry()
    registry.stub(.get("https://api.test/users/{id}"), .ok)
    let error = try await #require(throws: URLError.self) {
      try await registry.makeSession().data(from: URL(string: "https://api.test/user/7")!)
    }
    // Swift Testing prints a caught error with String(describing:).
    let printed = String(describing: error)
    #expect(occurrences(of: "no stub matched GET https://api.test/user/7", in: printed) == 1)
    #expect(occurrences(of: "Closest stubs", in: printed) == 1)
    #expect(error.localizedDescription.contains("✗ path"))
    #expect(error.code == .resourceUnavailable)
    #expect(error.failingURL?.absoluteString == "https://api.test/user/7")
    let underlying = error.userInfo[NSUnderlyingErrorKey] as? UnmatchedRequestError
    #expect(underlying?.report.request.url.path == "/user/7")
  }

  @Test func inAScopeTheErrorIsOneLineAndTheScopeReportsTheReportOnce() async throws {
    let registry = StubRegistry()
    registry.beginScope(verifying: .default)
    registry.stub(.get("https://api.test/users/{id}"), .ok)
    let error = try await #require(throws: URLError.self) {
      try await registry.makeSession().data(from: URL(string: "https://api.test/user/7")!)
    }
    let printed = String(describing: error)
    #expect(occurrences(of: "no stub matched GET https://api.test/user/7", in: printed) == 1)
    #expect(!printed.contains("Closest stubs"))
    #expect(!error.localizedDescription.contains("\n"))
    let failures = registry.endScope(
      testName: "t", verifying: .default, location: registry.location)
    #expect(failures.count == 1)
    #expect(occurrences(of: "Closest stubs", in: failures.map(\.message).joined()) == 1)
  }

  @Test(
    .stubs { stubs in
      stubs.stub(.get("https://api.test/users/{id}"), .ok)
      stubs.expectUnmatchedRequests(.get("https://api.test/legacy/{id}"))
    })
  func anExpectedUnmatchedRequestDoesNotFailTheScope() async throws {
    // If the expectation did not excuse the request, the scope would record an issue here.
    let stubs = try #require(StubRegistry.current)
    await #expect(throws: URLError.self) {
      try await stubs.makeSession().data(from: URL(string: "https://api.test/legacy/1")!)
    }
  }

  @Test func anExpectationFewerRequestsMetFailsAtItsLineAndOthersAreStillReported() async throws {
    let registry = StubRegistry()
    registry.beginScope(verifying: .default)
    let line = #line + 1
    registry.expectUnmatchedRequests(.get("https://api.test/legacy/{id}"), count: 2)
    let session = registry.makeSession()
    _ = try? await session.data(from: URL(string: "https://api.test/legacy/1")!)
    _ = try? await session.data(from: URL(string: "https://api.test/other")!)
    let failures = registry.endScope(
      testName: "t", verifying: .default, location: registry.location)
    #expect(failures.count == 2)
    let expectation = failures.first { $0.location.line == line }
    #expect(expectation?.message.contains("Expected 2 request(s)") == true)
    #expect(expectation?.message.contains("but 1 did") == true)
    #expect(failures.contains { $0.message.contains("no stub matched GET https://api.test/other") })
    #expect(
      !failures.contains { $0.message.contains("no stub matched GET https://api.test/legacy/1") })
  }
}

@Suite struct RecordModeWarningTests {
  @Test func anUnknownRecordModeIsReportedOncePerRun() {
    let value = "sometimes-\(UUID().uuidString)"
    let environment = [RecordMode.environmentVariable: value]
    #expect(RecordMode.effective(.never, environment: environment) == .never)
    #expect(RecordMode.effective(.missing, environment: environment) == .missing)
    // The first call said it; later ones stay quiet.
    #expect(!RecordMode.warnOnce(ignoring: value))
    #expect(RecordMode.warnOnce(ignoring: value + "-other"))
  }

  @Test func aTokenPastedIntoTheVariableIsMaskedInTheWarning() {
    let token = "ghp_" + String(repeating: "a1B2", count: 9)
    let warning = RecordMode.warning(ignoring: token)
    #expect(warning.hasPrefix("Understudy: ignoring UNDERSTUDY_RECORD set to a value of 40"))
    #expect(!warning.contains("a1B2"))
  }

  /// Garbage of no known shape is not quoted either: a random run is shown by its length, a
  /// misspelt mode as written.
  @Test func garbageInTheVariableIsShownOnlyWhenItReadsAsWords() {
    var random = SplitMix(seed: 3)
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    for _ in 0..<200 {
      let core = String(
        (0..<Int.random(in: 8...40, using: &random)).map { _ in
          alphabet.randomElement(using: &random)!
        })
      let garbage = ["", "missingrec_", "rec-", "x "].randomElement(using: &random)! + core
      let warning = RecordMode.warning(ignoring: garbage)
      // The test's random run may read as a word (all letters in one case): those are shown.
      if QuotedValue.mayShow(garbage) { continue }
      #expect(!warning.contains(core), "\(warning)")
      #expect(warning.contains("a value of \(garbage.count) characters"))
    }
    #expect(RecordMode.warning(ignoring: "sometimes").contains("set to \"sometimes\""))
    #expect(RecordMode.warning(ignoring: "Drift check").contains("\"Drift check\""))
  }
}

@Suite struct LateRequestLocationTests {
  // The issue itself is recorded from URLSession's queue, where no test is current, so a test
  // cannot catch it with withKnownIssue; what it is recorded at is checked here instead.
  @Test func aRequestAfterItsTestEndedIsReportedAtTheTestsScope() async throws {
    let registry = StubRegistry()
    registry.reportsStragglersToSwiftTesting = true
    let scope = Understudy.SourceLocation(
      fileID: "AppTests/ProfileTests.swift", filePath: "/App/Tests/AppTests/ProfileTests.swift",
      line: 42, column: 4)
    _ = registry.endScope(testName: "loadsProfile()", location: scope)
    guard case .retired(let reason, let reportAt) = RegistryDirectory.shared.lookup(registry.id)
    else {
      Issue.record("the registry is still live after its scope ended")
      return
    }
    #expect(reportAt == scope)
    #expect(reason.contains("its test loadsProfile() ended"))
  }

  @Test func aRegistryWithoutATestScopeReportsNoIssueForLateRequests() async throws {
    let registry = StubRegistry()
    _ = registry.endScope(testName: "t", location: registry.location)
    guard case .retired(_, let reportAt) = RegistryDirectory.shared.lookup(registry.id) else {
      Issue.record("the registry is still live after its scope ended")
      return
    }
    #expect(reportAt == nil)
  }
}
