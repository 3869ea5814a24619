import Foundation
import Testing
import UnderstudyTestSupport

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A test that fails by its own `#expect` or `Issue.record`, not by anything Understudy reports,
/// still gets its traffic attached, masked as Understudy's own failures' traffic is.
///
/// The failing tests run in a child process of this test binary (`swift test` would count their
/// failure as its own), enabled there by an environment variable, with an attachments folder;
/// the parent reads the files they left.
@Suite struct FailingTestAttachmentTests {
  /// The variable that enables the tests below that fail on purpose.
  static let failOnPurpose = "UNDERSTUDY_FAIL_ON_PURPOSE"
  static let bearer = "plantedBearer7Kq2ZxW9mN4pL8vR3tY6"
  static let accessToken = "plantedAccess5Hj8DcF2gB7nM1xQ9wE4"

  static var failsOnPurpose: Bool {
    ProcessInfo.processInfo.environment[failOnPurpose] == "1"
  }

  /// Makes one request whose header and answer carry a credential, through the test's registry.
  static func sendsACredential() async throws {
    let registry = try #require(StubRegistry.current)
    var request = URLRequest(url: URL(string: "https://api.test/expect-attach/profile")!)
    request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization")
    let (data, _) = try await registry.makeSession().data(for: request)
    #expect(String(decoding: data, as: UTF8.self).contains(accessToken))
  }

  @Test(
    .enabled(
      if: FailingTestAttachmentTests.failsOnPurpose,
      "fails on purpose; run by attachesTrafficOfATestThatFailsByItsOwnExpect"),
    .stubs {
      $0.stub(
        .get("/expect-attach/profile"),
        .json(["access_token": FailingTestAttachmentTests.accessToken]))
    })
  func failsByItsOwnExpect() async throws {
    try await Self.sendsACredential()
    #expect(1 + 1 == 3, "fails on purpose")
  }

  @Test(
    .enabled(
      if: FailingTestAttachmentTests.failsOnPurpose,
      "fails on purpose; run by attachesTrafficOfATestThatFailsByItsOwnExpect"),
    .stubs {
      $0.stub(
        .get("/expect-attach/profile"),
        .json(["access_token": FailingTestAttachmentTests.accessToken]))
    })
  func failsByIssueRecord() async throws {
    try await Self.sendsACredential()
    Issue.record("fails on purpose")
  }

  /// A known issue is not a failure: the test passes and nothing is attached.
  @Test(
    .enabled(
      if: FailingTestAttachmentTests.failsOnPurpose,
      "run by attachesTrafficOfATestThatFailsByItsOwnExpect"),
    .stubs {
      $0.stub(
        .get("/expect-attach/profile"),
        .json(["access_token": FailingTestAttachmentTests.accessToken]))
    })
  func passesWithAKnownIssue() async throws {
    try await Self.sendsACredential()
    withKnownIssue { Issue.record("known") }
  }

  @Test(.enabled(if: CommandLine.arguments[0].hasSuffix(".xctest"), "needs the test binary"))
  func attachesTrafficOfATestThatFailsByItsOwnExpect() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("understudy-attachments-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }

    let child = Process()
    child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    child.arguments = [
      "--testing-library", "swift-testing", "--attachments-path", folder.path,
      "--filter", "FailingTestAttachmentTests/(failsBy|passesWith)",
    ]
    child.environment = ProcessInfo.processInfo.environment.merging([Self.failOnPurpose: "1"]) {
      $1
    }
    let pipes = try ChildProcesses.run(child, piping: [.output, .error])
    let output = await Self.onThread { () -> String in
      let text = pipes[.output]!.fileHandleForReading.readDataToEndOfFile()
      let errors = pipes[.error]!.fileHandleForReading.readDataToEndOfFile()
      child.waitUntilExit()
      return String(decoding: text + errors, as: UTF8.self)
    }
    // The two tests that fail on purpose ran and failed.
    #expect(child.terminationStatus != 0, "\(output)")
    #expect(output.contains("failsByItsOwnExpect"), "\(output)")

    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    for test in ["failsByItsOwnExpect", "failsByIssueRecord"] {
      let name = try #require(
        names.first { $0.contains("\(test)-traffic") }, "no attachment for \(test) in \(names)")
      let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
      #expect(text.contains("/expect-attach/profile"))
      #expect(!text.contains(Self.bearer), "\(text)")
      #expect(!text.contains(Self.accessToken), "\(text)")
      #expect(!text.contains(String(Self.bearer.prefix(12))), "a cut value is shown in part")
      #expect(text.contains("<redacted:authorization"))
    }
    #expect(!names.contains { $0.contains("passesWithAKnownIssue") }, "\(names)")
  }

  /// Runs `body` on a thread of its own, so waiting for the child never holds a thread of the
  /// cooperative pool that other tests need.
  private static func onThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async
    -> Result
  {
    await withCheckedContinuation { continuation in
      Thread.detachNewThread { continuation.resume(returning: body()) }
    }
  }
}
