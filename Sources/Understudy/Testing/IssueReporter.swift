#if canImport(Testing)
  import Testing
#endif
#if canImport(XCTest)
  import XCTest
#endif

/// Reports a failure into whichever test framework is running the current test.
///
/// Swift Testing gets an issue at `location` when a Swift Testing test is current; otherwise the
/// running XCTest case records a failure at that file and line. With neither (a command-line tool
/// using the library), the message goes to standard error so it is never lost.
package enum IssueReporter {
  /// Records `message` as a test failure at `location`.
  ///
  /// Test logs are public on most CI services, so credentials in `message` are masked first
  /// (`Authorization: Bearer ••••(42 chars)`), with a line saying so.
  package static func report(_ message: String, at location: SourceLocation) {
    let message = LogRedaction.mask(message, noting: true)
    #if canImport(Testing)
      if Test.current != nil {
        Issue.record(
          Comment(rawValue: message),
          sourceLocation: Testing.SourceLocation(
            fileID: location.fileID, filePath: location.filePath, line: location.line,
            column: location.column))
        return
      }
    #endif
    #if canImport(XCTest)
      if let testCase = XCTestObserver.shared.currentTestCase {
        XCTestObserver.record(message, at: location, in: testCase)
        return
      }
    #endif
    FileHandle.standardError.write(Data("\(location): error: \(message)\n".utf8))
  }

  /// Records a failure that belongs to a Swift Testing test that has already ended (a request
  /// that arrived after its test), at `location`: the test's scope, where the user can act.
  /// Swift Testing fails the run with it and the message names the test; it is printed to
  /// standard error as well, so the name is never lost.
  static func reportOrphaned(_ message: String, at location: SourceLocation) {
    let message = LogRedaction.mask(message, noting: true)
    FileHandle.standardError.write(Data("\(location): error: \(message)\n".utf8))
    #if canImport(Testing)
      Issue.record(
        Comment(rawValue: message),
        sourceLocation: Testing.SourceLocation(
          fileID: location.fileID, filePath: location.filePath, line: location.line,
          column: location.column))
    #endif
  }
}

#if canImport(XCTest)
  /// Tracks the running XCTest case through public observation API, since XCTest offers no
  /// public "current test" on Linux.
  final class XCTestObserver: NSObject, XCTestObservation, @unchecked Sendable {
    static let shared: XCTestObserver = {
      let observer = XCTestObserver()
      XCTestObservationCenter.shared.addTestObserver(observer)
      return observer
    }()

    // Guards the test case XCTest is running.
    private let current = Locked<XCTestCase?>(nil)

    var currentTestCase: XCTestCase? { current.current }

    /// Starts observing, so the case that calls it (and later ones) can receive reports.
    func begin(_ testCase: XCTestCase) {
      current.withLock { $0 = testCase }
    }

    func testCaseWillStart(_ testCase: XCTestCase) {
      current.withLock { $0 = testCase }
    }

    func testCaseDidFinish(_ testCase: XCTestCase) {
      current.withLock { if $0 === testCase { $0 = nil } }
    }

    static func record(_ message: String, at location: SourceLocation, in testCase: XCTestCase) {
      let message = LogRedaction.mask(message, noting: true)
      #if os(Linux) || os(Windows) || os(Android)
        testCase.recordFailure(
          withDescription: message, inFile: location.filePath, atLine: location.line,
          expected: true)
      #else
        let issue = XCTIssue(
          type: .assertionFailure, compactDescription: message,
          sourceCodeContext: XCTSourceCodeContext(
            location: XCTSourceCodeLocation(filePath: location.filePath, lineNumber: location.line))
        )
        testCase.record(issue)
      #endif
    }
  }
#endif
