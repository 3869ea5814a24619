// swift-format-ignore-file
// A probe is kept as it was when it measured the platform (Tests/PlatformProbes/README.md).
import Testing
import Foundation
import TestParLib

@Suite struct AsyncSleepSuite {
    @Test func a1() async throws { try await recordAsync("ST-async", "a1") { try await Task.sleep(nanoseconds: 500_000_000) } }
    @Test func a2() async throws { try await recordAsync("ST-async", "a2") { try await Task.sleep(nanoseconds: 500_000_000) } }
    @Test func a3() async throws { try await recordAsync("ST-async", "a3") { try await Task.sleep(nanoseconds: 500_000_000) } }
    @Test func a4() async throws { try await recordAsync("ST-async", "a4") { try await Task.sleep(nanoseconds: 500_000_000) } }
    @Test func a5() async throws { try await recordAsync("ST-async", "a5") { try await Task.sleep(nanoseconds: 500_000_000) } }
    @Test func a6() async throws { try await recordAsync("ST-async", "a6") { try await Task.sleep(nanoseconds: 500_000_000) } }
    @Test(arguments: 0..<4) func param(i: Int) async throws { try await recordAsync("ST-async", "param\(i)") { try await Task.sleep(nanoseconds: 500_000_000) } }
}

@Suite struct BlockingSleepSuite {
    @Test func b1() { record("ST-blocking", "b1") { Thread.sleep(forTimeInterval: 0.5) } }
    @Test func b2() { record("ST-blocking", "b2") { Thread.sleep(forTimeInterval: 0.5) } }
    @Test func b3() { record("ST-blocking", "b3") { Thread.sleep(forTimeInterval: 0.5) } }
    @Test func b4() { record("ST-blocking", "b4") { Thread.sleep(forTimeInterval: 0.5) } }
}

@Suite(.serialized) struct SerializedSuite {
    @Test func s1() async throws { try await recordAsync("ST-serialized", "s1") { try await Task.sleep(nanoseconds: 300_000_000) } }
    @Test func s2() async throws { try await recordAsync("ST-serialized", "s2") { try await Task.sleep(nanoseconds: 300_000_000) } }
    @Test func s3() async throws { try await recordAsync("ST-serialized", "s3") { try await Task.sleep(nanoseconds: 300_000_000) } }
}
