// swift-format-ignore-file
// A probe is kept as it was when it measured the platform (Tests/PlatformProbes/README.md).
// P07b: race between cancellation and the protocol answering.
//  naive        : answer from a global queue, ignore stopLoading
//  guarded      : answer from a global queue under a lock; stopLoading sets a flag under the same lock
//  syncInStart  : answer synchronously inside startLoading (on the task's work queue)
//  workQueueHop : answer later, but hop onto the task's internal workQueue (reached via Mirror) and only
//                 deliver while task.state == .running
import ProbeSupport

func taskWorkQueue(_ task: URLSessionTask?) -> DispatchQueue? {
    guard let task, let q = mirrorChild(task, "workQueue") else { return nil }
    return unwrapAny(q) as? DispatchQueue
}

final class RaceProtocol: URLProtocol {
    static let mode = Locked("naive")
    let lock = NSLock()
    var stopped = false
    var finished = false
    var rearmed = false
    // cancel() calls `urlProtocol.stopLoading()` and then `urlProtocol.client?.urlProtocol(_:didFailWithError:)`.
    // Hiding the client once we have completed the task turns that late didFail into a no-op.
    override var client: URLProtocolClient? {
        get {
            if Self.hideClientWhenFinished.value { lock.lock(); defer { lock.unlock() }; if finished { return nil } }
            return super.client
        }
        set { super.client = newValue }
    }
    static let hideClientWhenFinished = Locked(false)
    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    func deliver(_ c: URLProtocolClient) {
        c.urlProtocol(self, didReceive: httpResponse(request.url), cacheStoragePolicy: .notAllowed)
        c.urlProtocol(self, didLoad: Data("X".utf8))
        c.urlProtocolDidFinishLoading(self)
        finished = true   // (callers hold `lock` in guarded modes)
    }
    override func startLoading() {
        let c = super.client!
        switch Self.mode.value {
        case "naive":
            DispatchQueue.global().async { self.deliver(c) }
        case "guarded":
            DispatchQueue.global().async { [self] in
                lock.lock(); defer { lock.unlock() }
                if stopped { return }
                deliver(c)
            }
        case "syncInStart":
            lock.lock(); deliver(c); lock.unlock()
        case "guardedHideClient":  // private serial delivery, lock, hide client after finishing
            Self.hideClientWhenFinished.with { $0 = true }
            DispatchQueue.global().async { [self] in
                lock.lock(); defer { lock.unlock() }
                if stopped { return }
                deliver(c)
            }
        case "workQueueHop":
            let wq = taskWorkQueue(task)!
            DispatchQueue.global().async { [self] in
                wq.async { [self] in
                    guard task?.state == .running else { return }
                    deliver(c)
                }
            }
        case "delayedGuarded":   // answer after 20ms from a global queue, honour stopLoading under a lock
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.02) { [self] in
                lock.lock(); defer { lock.unlock() }
                if stopped { return }
                deliver(c)
            }
        case "delayedWorkQueueHop": // answer after 20ms on the task's work queue if still running
            let wq = taskWorkQueue(task)!
            wq.asyncAfter(deadline: .now() + 0.02) { [self] in
                guard task?.state == .running else { return }
                deliver(c)
            }
        case "trick", "delayedTrick":  // get back onto the work queue with task.suspend(); task.resume()
            if rearmed { lock.lock(); if !stopped { deliver(c) }; lock.unlock(); return }
            rearmed = true
            let t = task!
            DispatchQueue.global().asyncAfter(deadline: .now() + (Self.mode.value == "trick" ? 0 : 0.02)) { t.suspend(); t.resume() }
        default: fatalError()
        }
    }
    override func stopLoading() {
        // the suspend() half of the trick also calls stopLoading; only a real stop should latch
        if Self.mode.value.contains("rick") && task?.state == .suspended { return }
        lock.lock(); stopped = true; lock.unlock()
    }
}

func race(_ iterations: Int, cancelAfterMs: Double? = nil) async {
    let noCache = ProcessInfo.processInfo.environment["NOCACHE"] != nil
    if ProcessInfo.processInfo.environment["HIDE"] != nil { RaceProtocol.hideClientWhenFinished.with { $0 = true } }
    let s = makeSession([RaceProtocol.self]) { if noCache { $0.urlCache = nil } }
    var cancelled = 0, completed = 0
    let progress = Locked(0)
    let watchdog = Thread {
        var last = -1
        while true {
            Thread.sleep(forTimeInterval: 2)
            let p = progress.value
            if p == last { log("STUCK at iteration \(p) (no progress for 2s) - deadlock"); exit(3) }
            last = p
        }
    }
    watchdog.start()
    for i in 0..<iterations {
        progress.with { $0 = i }
        let t = Task { () -> Bool in
            do { _ = try await s.data(from: URL(string: "http://stub.test/\(i)")!); return true } catch { return false }
        }
        if let ms = cancelAfterMs {
            try? await Task.sleep(nanoseconds: UInt64(ms * 1_000_000))
        } else {
            if i % 2 == 0 { await Task.yield() }
            if i % 3 == 0 { try? await Task.sleep(nanoseconds: UInt64(i % 7) * 20_000) }
        }
        t.cancel()
        if await t.value { completed += 1 } else { cancelled += 1 }
    }
    log("mode=\(RaceProtocol.mode.value) urlCache=\(noCache ? "nil" : "ephemeral-default") hideClient=\(RaceProtocol.hideClientWhenFinished.value) iterations=\(iterations) completed=\(completed) cancelled=\(cancelled) -> no crash")
}

await runCases([
    ("naive_cancelRace_2000", 60, { await race(2000) }),
    ("guarded_cancelRace_2000", 60, { RaceProtocol.mode.with { $0 = "guarded" }; await race(2000) }),
    ("syncInStart_cancelRace_5000", 60, { RaceProtocol.mode.with { $0 = "syncInStart" }; await race(5000) }),
    ("workQueueHop_cancelRace_5000", 60, { RaceProtocol.mode.with { $0 = "workQueueHop" }; await race(5000) }),
    ("guardedHideClient_cancelRace_5000", 120, { RaceProtocol.mode.with { $0 = "guardedHideClient" }; await race(5000) }),
    ("syncInStart_hideClient_cancelRace_5000", 60, { RaceProtocol.hideClientWhenFinished.with { $0 = true }; RaceProtocol.mode.with { $0 = "syncInStart" }; await race(5000) }),
    ("trick_cancelRace_5000", 60, { RaceProtocol.mode.with { $0 = "trick" }; await race(5000) }),
    ("delayedTrick_cancelAt5ms_300", 60, { RaceProtocol.mode.with { $0 = "delayedTrick" }; await race(300, cancelAfterMs: 5) }),
    ("delayedTrick_cancelAt20ms_300", 60, { RaceProtocol.mode.with { $0 = "delayedTrick" }; await race(300, cancelAfterMs: 20) }),
    // realistic test scenario: stub delays 20ms, test cancels after 5ms
    ("delayedGuarded_cancelAt5ms_300", 60, { RaceProtocol.mode.with { $0 = "delayedGuarded" }; await race(300, cancelAfterMs: 5) }),
    ("delayedWorkQueueHop_cancelAt5ms_300", 60, { RaceProtocol.mode.with { $0 = "delayedWorkQueueHop" }; await race(300, cancelAfterMs: 5) }),
    // cancel right around the delivery time (20ms)
    ("delayedGuarded_cancelAt20ms_300", 60, { RaceProtocol.mode.with { $0 = "delayedGuarded" }; await race(300, cancelAfterMs: 20) }),
    ("delayedWorkQueueHop_cancelAt20ms_300", 60, { RaceProtocol.mode.with { $0 = "delayedWorkQueueHop" }; await race(300, cancelAfterMs: 20) }),
])
