// swift-format-ignore-file
// A probe is kept as it was when it measured the platform (Tests/PlatformProbes/README.md).
import Foundation
import Dispatch
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
@_exported import Foundation
#if canImport(Glibc)
import Glibc
#endif

// ---------------------------------------------------------------------------
// Shared helpers for the Linux URLProtocol probes.
// ---------------------------------------------------------------------------

@_silgen_name("dispatch_queue_get_label") func _dq_label(_ q: OpaquePointer?) -> UnsafePointer<CChar>?

/// Label of the dispatch queue the caller is running on (DISPATCH_CURRENT_QUEUE_LABEL).
public func qlabel() -> String { _dq_label(nil).map { String(cString: $0) } ?? "?" }
public func tid() -> UInt { UInt(pthread_self()) }
public func where_() -> String { "queue=\(qlabel()) main=\(Thread.isMainThread) thread=\(String(tid(), radix: 16))" }

public let t0 = Date()
private let logLock = NSLock()
public func log(_ s: String) {
    let ms = Date().timeIntervalSince(t0) * 1000
    logLock.lock()
    print(String(format: "[%8.1fms] ", ms) + s)
    fflush(stdout)
    logLock.unlock()
}

public func section(_ s: String) { log("==== \(s) ====") }

public func ok(_ label: String, _ cond: Bool, _ detail: String = "") {
    log("\(cond ? "RESULT-OK  " : "RESULT-FAIL") \(label) \(detail)")
}

public func httpResponse(_ url: URL?, status: Int = 200, headers: [String: String] = ["Content-Type": "text/plain"]) -> HTTPURLResponse {
    HTTPURLResponse(url: url ?? URL(string: "http://invalid/")!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
}

public func describe(_ e: Error?) -> String {
    guard let e else { return "nil" }
    let ns = e as NSError
    var s = "\(type(of: e)) domain=\(ns.domain) code=\(ns.code)"
    if let u = e as? URLError { s += " URLError.Code=\(u.code.rawValue)" }
    if e is CancellationError { s += " (CancellationError)" }
    s += " desc=\(ns.localizedDescription)"
    return s
}

public func readAll(_ stream: InputStream) -> Data {
    var out = Data()
    stream.open()
    defer { stream.close() }
    var buf = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
        let n = stream.read(&buf, maxLength: buf.count)
        if n <= 0 { break }
        out.append(buf, count: n)
    }
    return out
}

public struct TimeoutError: Error, CustomStringConvertible {
    public let seconds: Double
    public var description: String { "TimeoutError(\(seconds)s) - the awaited call did not return" }
}

/// Races `op` against a sleep.  NB: if `op` ignores cancellation, the group still waits for it,
/// so the caller must not depend on the child terminating; we use an unstructured Task for the op.
public func withTimeout<T: Sendable>(_ seconds: Double, _ op: @escaping @Sendable () async throws -> T) async throws -> T {
    let box = ResultBox<T>()
    let work = Task { do { box.set(.success(try await op())) } catch { box.set(.failure(error)) } }
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if let r = box.get() { return try r.get() }
        try? await Task.sleep(nanoseconds: 5_000_000)
    }
    if let r = box.get() { return try r.get() }
    _ = work // intentionally not cancelled: we want to observe "hangs" without disturbing them
    throw TimeoutError(seconds: seconds)
}

public final class ResultBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Result<T, Error>?
    public init() {}
    public func set(_ v: Result<T, Error>) { lock.lock(); if value == nil { value = v }; lock.unlock() }
    public func get() -> Result<T, Error>? { lock.lock(); defer { lock.unlock() }; return value }
}

public final class Locked<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var _v: T
    public init(_ v: T) { _v = v }
    public var value: T { lock.lock(); defer { lock.unlock() }; return _v }
    public func with<R>(_ f: (inout T) -> R) -> R { lock.lock(); defer { lock.unlock() }; return f(&_v) }
}

/// Wait on a semaphore with a timeout; returns false on timeout.
public func wait(_ sem: DispatchSemaphore, _ seconds: Double) -> Bool {
    sem.wait(timeout: .now() + seconds) == .success
}

public func makeSession(_ protocols: [AnyClass], base: URLSessionConfiguration = .ephemeral,
                        delegate: URLSessionDelegate? = nil,
                        configure: (URLSessionConfiguration) -> Void = { _ in }) -> URLSession {
    let c = base
    c.protocolClasses = protocols
    configure(c)
    return URLSession(configuration: c, delegate: delegate, delegateQueue: nil)
}

/// Describe every stored property reachable through Mirror (incl. superclasses), one level deep.
public func mirrorDump(_ subject: Any, indent: String = "  ") -> [String] {
    var lines: [String] = []
    var m: Mirror? = Mirror(reflecting: subject)
    while let mm = m {
        for c in mm.children {
            var v = String(describing: c.value)
            if v.count > 160 { v = String(v.prefix(160)) + "…" }
            lines.append("\(indent)[\(mm.subjectType)] \(c.label ?? "_"): \(type(of: c.value)) = \(v)")
        }
        m = mm.superclassMirror
    }
    return lines
}

/// Finds a stored property by label anywhere in the class hierarchy.
public func mirrorChild(_ subject: Any, _ label: String) -> Any? {
    var m: Mirror? = Mirror(reflecting: subject)
    while let mm = m {
        for c in mm.children where c.label == label { return c.value }
        m = mm.superclassMirror
    }
    return nil
}

/// Unwraps Optional<Any> / implicitly unwrapped optionals held in an Any.
public func unwrapAny(_ v: Any) -> Any? {
    let m = Mirror(reflecting: v)
    if m.displayStyle == .optional {
        return m.children.first.map { $0.value }
    }
    return v
}

public func peakRSSkB() -> Int {
    // VmHWM from /proc/self/status
    guard let s = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in s.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let digits = line.filter { $0.isNumber }
        return Int(digits) ?? -1
    }
    return -1
}

public func currentRSSkB() -> Int {
    guard let s = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in s.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        let digits = line.filter { $0.isNumber }
        return Int(digits) ?? -1
    }
    return -1
}

public func monotonicNow() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

// ---------------------------------------------------------------------------
// Case runner: `probe` with no args runs every case in its own child process
// (so crashes/hangs are isolated and reported); `probe NAME` runs one case.
// ---------------------------------------------------------------------------
public typealias ProbeCase = (name: String, timeout: Double, body: () async throws -> Void)

public func runCases(_ cases: [ProbeCase]) async {
    _ = t0
    let args = CommandLine.arguments
    if args.count >= 2 && args[1] != "--all" {
        let wanted = args[1]
        guard let c = cases.first(where: { $0.name == wanted }) else {
            print("unknown case \(wanted); cases: \(cases.map { $0.name })"); exit(2)
        }
        do { try await c.body() } catch { log("case threw: \(describe(error))") }
        log("case \(c.name) returned normally")
        exit(0)
    }
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? args[0]
    for c in cases {
        print("\n################ CASE \(c.name) ################")
        fflush(stdout)
        let outPath = probeTmp() + "probe-\(getpid())-\(c.name).log"
        FileManager.default.createFile(atPath: outPath, contents: nil)
        let fh = FileHandle(forWritingAtPath: outPath)!
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = [c.name]
        var env = ProcessInfo.processInfo.environment
        if env["SWIFT_BACKTRACE"] == nil { env["SWIFT_BACKTRACE"] = "enable=yes,interactive=no,color=no,symbolicate=fast,limit=16,top=4,threads=crashed,registers=none,images=none,sanitize=no" }
        p.environment = env
        p.standardOutput = fh
        p.standardError = fh
        let start = Date()
        do { try p.run() } catch { print("spawn failed: \(error)"); continue }
        let timedOut = Locked(false)
        let killer = DispatchWorkItem { if p.isRunning { timedOut.with { $0 = true }; kill(p.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + c.timeout, execute: killer)
        p.waitUntilExit()
        killer.cancel()
        try? fh.close()
        let elapsed = Date().timeIntervalSince(start)
        let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        var lines = out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.count > 80 { lines = Array(lines.prefix(80)) + ["    ... (\(lines.count - 80) more lines)"] }
        for l in lines { print("    | " + l) }
        let status: String
        if timedOut.value {
            status = "HUNG (killed after \(c.timeout)s)"
        } else if p.terminationReason == .uncaughtSignal {
            status = "CRASHED (signal \(p.terminationStatus)\(p.terminationStatus == 4 ? " SIGILL" : p.terminationStatus == 5 ? " SIGTRAP" : p.terminationStatus == 6 ? " SIGABRT" : p.terminationStatus == 11 ? " SIGSEGV" : ""))"
        } else if p.terminationStatus != 0 {
            status = "EXIT \(p.terminationStatus)"
        } else {
            status = "exit 0"
        }
        print(String(format: "==> CASE %@: %@ (%.2fs)", c.name, status, elapsed))
        fflush(stdout)
        try? FileManager.default.removeItem(atPath: outPath)
    }
}

/// Scratch directory for probe files (under the system temporary directory).
public func probeTmp() -> String {
    let dir = NSTemporaryDirectory() + "urlprotocol-probes/"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}
