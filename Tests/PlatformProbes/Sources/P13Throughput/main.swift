// swift-format-ignore-file
// A probe is kept as it was when it measured the platform (Tests/PlatformProbes/README.md).
// P13: throughput of stubbed requests.
// usage: P13Throughput <scenario> <requestsPerRun> <runs> [width]
//  scenarios: seq | seqNoCache | seqCompletion | conc1 | concNoCache1 | concPerLane | sessionPerRequest | baseline
import ProbeSupport

let body = Data("{\"ok\":true}".utf8)
final class TrivialProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { request.url?.host == "stub.test" }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() {
        let c = client!
        c.urlProtocol(self, didReceive: HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])!, cacheStoragePolicy: .notAllowed)
        c.urlProtocol(self, didLoad: body)
        c.urlProtocolDidFinishLoading(self)
    }
    override func stopLoading() {}
}

/// Same, but answers asynchronously from a global queue (client calls off the task's work queue).
final class AsyncTrivialProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { request.url?.host == "stub.test" }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() {
        let c = client!
        DispatchQueue.global().async { [self] in
            c.urlProtocol(self, didReceive: HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])!, cacheStoragePolicy: .notAllowed)
            c.urlProtocol(self, didLoad: body)
            c.urlProtocolDidFinishLoading(self)
        }
    }
    override func stopLoading() {}
}

/// Answers "later" but delivers on the task's work queue using only public API:
/// the first startLoading schedules work elsewhere, which calls task.suspend(); task.resume();
/// URLSession then calls stopLoading and startLoading again *on its work queue*, where we deliver synchronously.
final class SuspendResumeTrickProtocol: URLProtocol {
    private var rearmed = false
    override class func canInit(with request: URLRequest) -> Bool { request.url?.host == "stub.test" }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() {
        if !rearmed {
            rearmed = true
            let t = task!
            DispatchQueue.global().async { t.suspend(); t.resume() }   // e.g. after a delay
            return
        }
        let c = client!
        c.urlProtocol(self, didReceive: HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])!, cacheStoragePolicy: .notAllowed)
        c.urlProtocol(self, didLoad: body)
        c.urlProtocolDidFinishLoading(self)
    }
    override func stopLoading() {}
}

/// Answers later from a global queue, but hops onto the task's internal workQueue (reached via Mirror) first.
final class WorkQueueHopProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { request.url?.host == "stub.test" }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() {
        let c = client!
        let wq = unwrapAny(mirrorChild(task!, "workQueue")!) as! DispatchQueue
        DispatchQueue.global().async { wq.async { [self] in
            guard task?.state == .running else { return }
            c.urlProtocol(self, didReceive: HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])!, cacheStoragePolicy: .notAllowed)
            c.urlProtocol(self, didLoad: body)
            c.urlProtocolDidFinishLoading(self)
        } }
    }
    override func stopLoading() {}
}

let args = CommandLine.arguments
let scenario = args.count > 1 ? args[1] : "seq"
let n = args.count > 2 ? Int(args[2])! : 10_000
let runs = args.count > 3 ? Int(args[3])! : 3
let width = args.count > 4 ? Int(args[4])! : 64
let url = URL(string: "http://stub.test/item")!
let req = URLRequest(url: url)

func session(noCache: Bool = false) -> URLSession {
    makeSession([scenario.contains("AsyncAnswer") ? AsyncTrivialProtocol.self : scenario.contains("Trick") ? SuspendResumeTrickProtocol.self : scenario.contains("Hop") ? WorkQueueHopProtocol.self : TrivialProtocol.self]) { if noCache { $0.urlCache = nil } }
}

func check(_ d: Data) { if d != body { fatalError("bad body \(d.count)") } }

func seq(_ s: URLSession, _ count: Int) async throws {
    for _ in 0..<count { let (d, _) = try await s.data(for: req); check(d) }
}
func seqCompletion(_ s: URLSession, _ count: Int) {
    let sem = DispatchSemaphore(value: 0)
    for _ in 0..<count {
        s.dataTask(with: req) { d, _, _ in check(d!); sem.signal() }.resume()
        sem.wait()
    }
}
func concurrent(_ sessions: [URLSession], _ count: Int, _ width: Int) async throws {
    try await withThrowingTaskGroup(of: Void.self) { g in
        var next = 0
        func add() { let s = sessions[next % sessions.count]; next += 1; g.addTask { let (d, _) = try await s.data(for: req); check(d) } }
        for _ in 0..<min(width, count) { add() }
        while try await g.next() != nil { if next < count { add() } }
    }
}
func sessionPerRequest(_ count: Int) async throws {
    for _ in 0..<count {
        let s = session(noCache: true)
        let (d, _) = try await s.data(for: req); check(d)
        s.finishTasksAndInvalidate()
    }
}
func sessionPerRequestNoInvalidate(_ count: Int) async throws {
    for _ in 0..<count {
        let s = session(noCache: true)
        let (d, _) = try await s.data(for: req); check(d)
    }
}
func fdCount() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1 }
/// Baseline: the cost of an async continuation bounced through two dispatch queues (no URLSession at all)
func baseline(_ count: Int) async {
    let q = DispatchQueue(label: "a"), q2 = DispatchQueue(label: "b")
    for _ in 0..<count {
        let _: Data = await withCheckedContinuation { c in q.async { q2.async { c.resume(returning: body) } } }
    }
}

var s1 = session(noCache: scenario.contains("NoCache"))
let lanes = (0..<width).map { _ in session(noCache: true) }

func runOnce(_ count: Int) async throws {
    switch scenario {
    case "seq", "seqNoCache": try await seq(s1, count)
    case "seqCompletion": seqCompletion(s1, count)
    case "conc1", "concNoCache1", "concAsyncAnswer1", "concAsyncAnswerNoCache1": try await concurrent([s1], count, width)
    case "seqAsyncAnswer", "seqTrick": try await seq(s1, count)
    case "concTrick1", "concTrickNoCache1", "concHop1", "concHopNoCache1": try await concurrent([s1], count, width)
    case "concPerLane": try await concurrent(lanes, count, width)
    case "sessionPerRequest": try await sessionPerRequest(count)
    case "sessionPerRequestNoInvalidate": try await sessionPerRequestNoInvalidate(count)
    case "baseline": await baseline(count)
    default: fatalError("unknown scenario")
    }
}

// warm-up
try await runOnce(min(500, n))
var perReq: [Double] = []
log("scenario=\(scenario) n=\(n) runs=\(runs) width=\(width) rssAfterWarmup=\(currentRSSkB())kB")
for r in 0..<runs {
    let t0 = monotonicNow()
    try await runOnce(n)
    let dt = Double(monotonicNow() - t0) / 1e3 // µs
    perReq.append(dt / Double(n))
    log(String(format: "run %d: %.0f ms total, %.2f µs/request, %.0f req/s, rss=%dkB openFDs=%d", r + 1, dt / 1000, dt / Double(n), Double(n) / (dt / 1e6), currentRSSkB(), fdCount()))
}
let sorted = perReq.sorted()
print(String(format: "RESULT scenario=%@ n=%d width=%d median=%.2f µs/request (min %.2f max %.2f) peakRSS=%dkB", scenario, n, width, sorted[sorted.count / 2], sorted.first!, sorted.last!, peakRSSkB()))
