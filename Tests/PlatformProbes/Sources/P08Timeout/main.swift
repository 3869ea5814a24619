// swift-format-ignore-file
// A probe is kept as it was when it measured the platform (Tests/PlatformProbes/README.md).
// P08: request timeouts with a protocol that never answers.
import ProbeSupport

let stops = Locked(0)
final class NeverProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { request.url?.host == "stub.test" }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() { log("startLoading: will never answer (request.timeoutInterval=\(request.timeoutInterval))") }
    override func stopLoading() { stops.with { $0 += 1 }; log("stopLoading") }
}
let url = URL(string: "http://stub.test/never")!

func attempt(_ s: URLSession, _ req: URLRequest, waitFor: Double) async {
    do {
        let (d, _) = try await withTimeout(waitFor) { try await s.data(for: req) }
        log("returned \(d.count)B")
    } catch let e as TimeoutError {
        log("HANG: \(e) ; stopLoading calls=\(stops.value)")
    } catch {
        log("threw \(describe(error))")
    }
}

await runCases([
    ("request_timeoutInterval_1s", 15, {
        var r = URLRequest(url: url); r.timeoutInterval = 1
        await attempt(makeSession([NeverProtocol.self]), r, waitFor: 5)
    }),
    ("config_timeoutIntervalForRequest_1s", 15, {
        let s = makeSession([NeverProtocol.self]) { $0.timeoutIntervalForRequest = 1 }
        await attempt(s, URLRequest(url: url), waitFor: 5)
    }),
    ("config_timeoutIntervalForResource_1s", 15, {
        let s = makeSession([NeverProtocol.self]) { $0.timeoutIntervalForResource = 1 }
        await attempt(s, URLRequest(url: url), waitFor: 5)
    }),
    ("completionHandler_timeoutInterval_1s", 15, {
        var r = URLRequest(url: url); r.timeoutInterval = 1
        let sem = DispatchSemaphore(value: 0)
        makeSession([NeverProtocol.self]).dataTask(with: r) { _, _, e in log("completion err=\(describe(e))"); sem.signal() }.resume()
        log(wait(sem, 5) ? "completed" : "HANG: no completion within 5s")
    }),
])
