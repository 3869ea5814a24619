// swift-format-ignore-file
// A probe is kept as it was when it measured the platform (Tests/PlatformProbes/README.md).
import XCTest
import TestParLib

final class XCSleepA: XCTestCase {
    func test1() { record("XC", "A.test1") { Thread.sleep(forTimeInterval: 0.5) } }
    func test2() { record("XC", "A.test2") { Thread.sleep(forTimeInterval: 0.5) } }
    func test3() { record("XC", "A.test3") { Thread.sleep(forTimeInterval: 0.5) } }
}
final class XCSleepB: XCTestCase {
    func test1() { record("XC", "B.test1") { Thread.sleep(forTimeInterval: 0.5) } }
    func test2() { record("XC", "B.test2") { Thread.sleep(forTimeInterval: 0.5) } }
    func testAsync() async throws { try await recordAsync("XC", "B.testAsync") { try await Task.sleep(nanoseconds: 500_000_000) } }
}
