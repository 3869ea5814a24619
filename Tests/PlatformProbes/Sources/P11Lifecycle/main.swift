// swift-format-ignore-file
// A probe is kept as it was when it measured the platform (Tests/PlatformProbes/README.md).
// P11: URLProtocol lifecycle: canInit/canonicalRequest counts, init variants, threads, async answers, deinit.
import ProbeSupport

let counts = Locked<[String: Int]>([:])
func bump(_ k: String) { counts.with { $0[k, default: 0] += 1 } }

class CountingProtocol: URLProtocol {
    static let answerMode = Locked("sync") // sync | asyncGlobal | swiftTask
    override class func canInit(with request: URLRequest) -> Bool {
        bump("\(self).canInit(request)")
        log("\(self).canInit(with request: \(request.url!.path)) \(where_())")
        return request.url?.host == "stub.test"
    }
    override class func canInit(with task: URLSessionTask) -> Bool {
        bump("\(self).canInit(task)"); log("\(self).canInit(with task:)"); return super.canInit(with: task)
    }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { bump("canonicalRequest"); log("canonicalRequest"); return request }
    override class func requestIsCacheEquivalent(_ a: URLRequest, to b: URLRequest) -> Bool { bump("requestIsCacheEquivalent"); return a == b }
    required init(request: URLRequest, cachedResponse: CachedURLResponse?, client: URLProtocolClient?) {
        bump("init(request:cachedResponse:client:)")
        log("init(request:cachedResponse:client:) client=\(client == nil ? "nil" : "non-nil") \(where_())")
        super.init(request: request, cachedResponse: cachedResponse, client: client)
    }
    deinit { bump("deinit") }
    override func startLoading() {
        bump("startLoading")
        log("startLoading \(where_()) client type=\(type(of: client!)) task=\(task.map { "\(type(of: $0))#\($0.taskIdentifier)" } ?? "nil")")
        let c = client!
        let deliver = { [self] in
            c.urlProtocol(self, didReceive: httpResponse(request.url), cacheStoragePolicy: .notAllowed)
            c.urlProtocol(self, didLoad: Data("OK".utf8))
            c.urlProtocolDidFinishLoading(self)
        }
        switch Self.answerMode.value {
        case "asyncGlobal":
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { log("answering from \(where_())"); deliver() }
        case "swiftTask":
            Task.detached { try? await Task.sleep(nanoseconds: 50_000_000); log("answering from Swift Task \(where_())"); deliver() }
        default:
            deliver()
        }
    }
    override func stopLoading() { bump("stopLoading"); log("stopLoading \(where_())") }
}
final class DeclineProtocol: CountingProtocol {
    override class func canInit(with request: URLRequest) -> Bool { bump("Decline.canInit"); return false }
}

final class MetricsDel: NSObject, URLSessionDataDelegate {
    let done = DispatchSemaphore(value: 0)
    func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics) { log("delegate didFinishCollecting metrics: \(metrics.transactionMetrics.count) transactions") }
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        log("didComplete: countOfBytesReceived=\(task.countOfBytesReceived) expectedToReceive=\(task.countOfBytesExpectedToReceive) countOfBytesSent=\(task.countOfBytesSent) progress=\(task.progress.completedUnitCount)/\(task.progress.totalUnitCount) response=\((task.response as? HTTPURLResponse)?.statusCode ?? -1)")
        done.signal()
    }
}
final class Del: NSObject, URLSessionDataDelegate {
    let done = DispatchSemaphore(value: 0)
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) { log("delegate didReceive data on \(where_())") }
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) { log("delegate didComplete on \(where_())"); done.signal() }
}

let url = URL(string: "http://stub.test/x")!
func report() async { try? await Task.sleep(nanoseconds: 300_000_000); log("COUNTS: \(counts.value.sorted { $0.key < $1.key })") }

await runCases([
    ("single_asyncData_ephemeral(urlCache set)", 10, {
        let s = makeSession([CountingProtocol.self])
        _ = try await s.data(from: url); await report()
    }),
    ("single_asyncData_urlCacheNil", 10, {
        let s = makeSession([CountingProtocol.self]) { $0.urlCache = nil }
        _ = try await s.data(from: url); await report()
    }),
    ("single_completionHandler", 10, {
        let s = makeSession([CountingProtocol.self])
        let sem = DispatchSemaphore(value: 0)
        s.dataTask(with: url) { _, _, _ in log("completion handler on \(where_())"); sem.signal() }.resume()
        _ = wait(sem, 3); await report()
    }),
    ("single_delegate", 10, {
        let d = Del()
        let s = makeSession([CountingProtocol.self], delegate: d)
        s.dataTask(with: url).resume(); _ = wait(d.done, 3); await report()
    }),
    ("two_classes_decline_then_accept", 10, {
        let s = makeSession([DeclineProtocol.self, CountingProtocol.self])
        _ = try await s.data(from: url); await report()
    }),
    ("stub_plus_default_classes_nonmatching_goes_to_network_stack", 10, {
        let s = makeSession([CountingProtocol.self] + (URLSessionConfiguration.default.protocolClasses ?? []))
        log("protocolClasses=\(s.configuration.protocolClasses!.map { "\($0)" })")
        do { _ = try await withTimeout(5) { try await s.data(from: URL(string: "http://127.0.0.1:9/nothing")!) } } catch { log("non-matching request -> \(describe(error))") }
        await report()
    }),
    ("stub_only_nonmatching_falls_back_to_registered_http", 10, {
        // protocolClasses = [Stub] only; a request the stub declines still reaches the globally registered _HTTPURLProtocol
        let s = makeSession([CountingProtocol.self])
        do { _ = try await withTimeout(5) { try await s.data(from: URL(string: "http://127.0.0.1:9/nothing")!) } } catch { log("non-matching request with [Stub] only -> \(describe(error))") }
    }),
    ("answer_async_from_global_queue", 10, {
        CountingProtocol.answerMode.with { $0 = "asyncGlobal" }
        let (d, _) = try await makeSession([CountingProtocol.self]).data(from: url)
        log("got \(String(decoding: d, as: UTF8.self))"); await report()
    }),
    ("answer_async_from_swift_task", 10, {
        CountingProtocol.answerMode.with { $0 = "swiftTask" }
        let (d, _) = try await makeSession([CountingProtocol.self]).data(from: url)
        log("got \(String(decoding: d, as: UTF8.self))"); await report()
    }),
    ("ten_requests_counts", 10, {
        let s = makeSession([CountingProtocol.self])
        for _ in 0..<10 { _ = try await s.data(from: url) }
        await report()
    }),
    ("task_counters_progress_metrics", 10, {
        let d = MetricsDel()
        let s = makeSession([CountingProtocol.self], delegate: d)
        s.dataTask(with: url).resume(); _ = wait(d.done, 3); try await Task.sleep(nanoseconds: 200_000_000)
    }),
    ("shared_queue_serialization", 10, {
        // every session's workQueue targets one static serial queue: does a protocol that blocks in startLoading
        // (sleep 200ms) block requests on a *different* session?
        final class Blocking: URLProtocol {
            override class func canInit(with request: URLRequest) -> Bool { request.url?.host == "block.test" }
            override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
            override func startLoading() {
                log("Blocking.startLoading sleeping 500ms on \(where_())"); Thread.sleep(forTimeInterval: 0.5)
                client?.urlProtocol(self, didReceive: httpResponse(request.url), cacheStoragePolicy: .notAllowed)
                client?.urlProtocolDidFinishLoading(self)
            }
            override func stopLoading() {}
        }
        let s1 = makeSession([Blocking.self]) { $0.urlCache = nil }
        let s2 = makeSession([CountingProtocol.self]) { $0.urlCache = nil }
        let t1 = Task { _ = try await s1.data(from: URL(string: "http://block.test/")!) }
        try await Task.sleep(nanoseconds: 50_000_000)
        let start = Date()
        _ = try await s2.data(from: url)
        log("request on OTHER session took \(Int(Date().timeIntervalSince(start) * 1000))ms while session 1's protocol blocked")
        _ = try await t1.value
    }),
])
