// swift-format-ignore-file
// A probe is kept as it was when it measured the platform (Tests/PlatformProbes/README.md).
// P07: cancellation while the protocol delays its answer.
import ProbeSupport

let stopCalls = Locked(0)
let startCalls = Locked(0)

/// Answers after `delay` seconds from a global queue. Honours stopLoading unless `ignoreStop`.
final class DelayProtocol: URLProtocol {
    static let delay = Locked(1.0)
    static let ignoreStop = Locked(false)
    static let resetOnStart = Locked(false)
    private let lock = NSLock()
    private var stopped = false
    private var work: DispatchWorkItem?
    override class func canInit(with request: URLRequest) -> Bool { request.url?.host == "stub.test" }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() {
        startCalls.with { $0 += 1 }
        log("startLoading instance=\(ObjectIdentifier(self).hashValue) \(where_())")
        if Self.resetOnStart.value { lock.lock(); stopped = false; lock.unlock() }
        let c = client!
        let w = DispatchWorkItem { [self] in
            lock.lock(); defer { lock.unlock() }
            if stopped && !Self.ignoreStop.value { log("work fired after stop - skipped"); return }
            log("delivering response (stopped=\(stopped))")
            c.urlProtocol(self, didReceive: httpResponse(request.url), cacheStoragePolicy: .notAllowed)
            c.urlProtocol(self, didLoad: Data("LATE-BODY".utf8))
            c.urlProtocolDidFinishLoading(self)
            log("delivered")
        }
        work = w
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.delay.value, execute: w)
    }
    override func stopLoading() {
        stopCalls.with { $0 += 1 }
        log("stopLoading called instance=\(ObjectIdentifier(self).hashValue) \(where_())")
        lock.lock(); stopped = true; lock.unlock()
        if !Self.ignoreStop.value { work?.cancel() }
    }
}

final class CancelDelegate: NSObject, URLSessionDataDelegate {
    let done = DispatchSemaphore(value: 0)
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        log("delegate didComplete \(describe(error))"); done.signal()
    }
}

let url = URL(string: "http://stub.test/slow")!

await runCases([
    ("cancel_completionHandler", 10, {
        let s = makeSession([DelayProtocol.self])
        let sem = DispatchSemaphore(value: 0)
        let t = s.dataTask(with: url) { d, r, e in log("completion data=\(d.map { "\($0.count)B" } ?? "nil") err=\(describe(e))"); sem.signal() }
        t.resume()
        Thread.sleep(forTimeInterval: 0.1)
        log("calling task.cancel()")
        t.cancel()
        _ = wait(sem, 3)
        Thread.sleep(forTimeInterval: 1.2)
        log("stopLoading calls=\(stopCalls.value) task.state=\(t.state.rawValue) task.error=\(describe(t.error))")
    }),
    ("cancel_delegate", 10, {
        let del = CancelDelegate()
        let s = makeSession([DelayProtocol.self], delegate: del)
        let t = s.dataTask(with: url); t.resume()
        Thread.sleep(forTimeInterval: 0.1)
        t.cancel()
        _ = wait(del.done, 3)
        Thread.sleep(forTimeInterval: 1.2)
        log("stopLoading calls=\(stopCalls.value)")
    }),
    ("swiftTaskCancel_asyncData", 10, {
        let s = makeSession([DelayProtocol.self])
        let task = Task { () -> String in
            do { let (d, _) = try await s.data(from: url); return "returned \(d.count)B" }
            catch { return "threw \(describe(error)); is CancellationError=\(error is CancellationError)" }
        }
        try await Task.sleep(nanoseconds: 100_000_000)
        log("Task.cancel()")
        task.cancel()
        log("result: \(await task.value)")
        try await Task.sleep(nanoseconds: 1_200_000_000)
        log("stopLoading calls=\(stopCalls.value)")
    }),
    ("swiftTaskCancel_beforeStart", 10, {
        let s = makeSession([DelayProtocol.self])
        let task = Task { () -> String in
            withUnsafeCurrentTask { $0?.cancel() }
            do { let (d, _) = try await s.data(from: url); return "returned \(d.count)B" }
            catch { return "threw \(describe(error))" }
        }
        log("result: \(await task.value)")
        try await Task.sleep(nanoseconds: 1_200_000_000)
        log("startLoading calls=\(startCalls.value) stopLoading calls=\(stopCalls.value)")
    }),
    ("cancel_protocolIgnoresStop_answersLate", 10, {
        // protocol ignores stopLoading and answers after cancel has completed the task
        DelayProtocol.ignoreStop.with { $0 = true }
        DelayProtocol.delay.with { $0 = 0.5 }
        let s = makeSession([DelayProtocol.self])
        let task = Task { () -> String in
            do { let (d, _) = try await s.data(from: url); return "returned \(d.count)B" }
            catch { return "threw \(describe(error))" }
        }
        try await Task.sleep(nanoseconds: 100_000_000)
        task.cancel()
        log("result: \(await task.value)")
        try await Task.sleep(nanoseconds: 1_000_000_000)
        log("survived late answer")
    }),
    ("invalidateAndCancel_session", 10, {
        let s = makeSession([DelayProtocol.self])
        let task = Task { () -> String in
            do { let (d, _) = try await s.data(from: url); return "returned \(d.count)B" }
            catch { return "threw \(describe(error))" }
        }
        try await Task.sleep(nanoseconds: 100_000_000)
        s.invalidateAndCancel()
        log("result: \(await task.value)")
        try await Task.sleep(nanoseconds: 1_200_000_000)
        log("stopLoading calls=\(stopCalls.value)")
    }),
    ("cancel_beforeResume", 10, {
        let s = makeSession([DelayProtocol.self])
        let sem = DispatchSemaphore(value: 0)
        let t = s.dataTask(with: url) { d, r, e in log("completion err=\(describe(e))"); sem.signal() }
        t.cancel()
        log("cancelled before resume; state=\(t.state.rawValue)")
        t.resume()
        log("wait: \(wait(sem, 2) ? "completed" : "no completion within 2s")")
        log("startLoading calls=\(startCalls.value) stopLoading calls=\(stopCalls.value)")
    }),
    ("suspend_resume_resetOnStart", 10, {
        DelayProtocol.resetOnStart.with { $0 = true }
        DelayProtocol.delay.with { $0 = 0.3 }
        let s = makeSession([DelayProtocol.self])
        let sem = DispatchSemaphore(value: 0)
        let t = s.dataTask(with: url) { d, r, e in log("completion data=\(d.map { "\($0.count)B" } ?? "nil") err=\(describe(e))"); sem.signal() }
        t.resume()
        Thread.sleep(forTimeInterval: 0.05)
        t.suspend(); log("suspended")
        Thread.sleep(forTimeInterval: 0.5)
        t.resume(); log("resumed")
        log("wait: \(wait(sem, 2) ? "completed" : "no completion within 2s")")
        log("startLoading calls=\(startCalls.value) stopLoading calls=\(stopCalls.value)")
    }),
    ("suspend_resume", 10, {
        DelayProtocol.delay.with { $0 = 0.3 }
        let s = makeSession([DelayProtocol.self])
        let sem = DispatchSemaphore(value: 0)
        let t = s.dataTask(with: url) { d, r, e in log("completion data=\(d.map { "\($0.count)B" } ?? "nil") err=\(describe(e))"); sem.signal() }
        t.resume()
        Thread.sleep(forTimeInterval: 0.05)
        t.suspend(); log("suspended")
        Thread.sleep(forTimeInterval: 0.5)
        t.resume(); log("resumed")
        log("wait: \(wait(sem, 2) ? "completed" : "no completion within 2s")")
        log("startLoading calls=\(startCalls.value) stopLoading calls=\(stopCalls.value)")
    }),
])
