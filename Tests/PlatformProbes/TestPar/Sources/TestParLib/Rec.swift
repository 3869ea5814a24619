// swift-format-ignore-file
// A probe is kept as it was when it measured the platform (Tests/PlatformProbes/README.md).
import Foundation
#if canImport(Glibc)
import Glibc
#endif
/// Appends "<framework> <test> pid=<pid> thread=<tid> start=<ms> end=<ms>" to $TESTPAR_LOG (epoch ms).
public func record(_ framework: String, _ name: String, _ body: () throws -> Void) rethrows {
    let start = Date().timeIntervalSince1970 * 1000
    try body()
    let end = Date().timeIntervalSince1970 * 1000
    write(framework, name, start, end)
}
public func recordAsync(_ framework: String, _ name: String, _ body: () async throws -> Void) async rethrows {
    let start = Date().timeIntervalSince1970 * 1000
    try await body()
    let end = Date().timeIntervalSince1970 * 1000
    write(framework, name, start, end)
}
private let lock = NSLock()
private func write(_ f: String, _ n: String, _ s: Double, _ e: Double) {
    let path = ProcessInfo.processInfo.environment["TESTPAR_LOG"] ?? NSTemporaryDirectory() + "testpar.log"
    let line = String(format: "%@ %@ pid=%d thread=%lx start=%.0f end=%.0f\n", f, n, getpid(), UInt(pthread_self()), s, e)
    lock.lock(); defer { lock.unlock() }
    let fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
    _ = line.withCString { Glibc.write(fd, $0, strlen($0)) }
    close(fd)
}
