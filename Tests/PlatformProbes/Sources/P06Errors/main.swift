// swift-format-ignore-file
// A probe is kept as it was when it measured the platform (Tests/PlatformProbes/README.md).
// P06: errors reported by a custom URLProtocol (didFailWithError) and misuse of the client.
import ProbeSupport

struct MyCustomError: Error { let reason = "custom" }

final class ErrProtocol: URLProtocol {
    static let error = Locked<Error>(URLError(.notConnectedToInternet))
    static let mode = Locked("fail") // fail | partialThenFail | finishTwice | failThenFinish | lateSecondFinish
    override class func canInit(with request: URLRequest) -> Bool { request.url?.host == "stub.test" }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() {
        let c = client!
        switch Self.mode.value {
        case "fail":
            c.urlProtocol(self, didFailWithError: Self.error.value)
        case "partialThenFail":
            c.urlProtocol(self, didReceive: httpResponse(request.url), cacheStoragePolicy: .notAllowed)
            c.urlProtocol(self, didLoad: Data("PARTIAL".utf8))
            c.urlProtocol(self, didFailWithError: Self.error.value)
        case "finishTwice":
            c.urlProtocol(self, didReceive: httpResponse(request.url), cacheStoragePolicy: .notAllowed)
            c.urlProtocol(self, didLoad: Data("BODY".utf8))
            c.urlProtocolDidFinishLoading(self)
            c.urlProtocolDidFinishLoading(self)
            log("second didFinishLoading (synchronous) returned")
        case "failThenFinish":
            c.urlProtocol(self, didFailWithError: Self.error.value)
            c.urlProtocol(self, didReceive: httpResponse(request.url), cacheStoragePolicy: .notAllowed)
            c.urlProtocolDidFinishLoading(self)
            log("didFinishLoading after didFail (synchronous) returned")
        case "lateSecondFinish":
            c.urlProtocol(self, didReceive: httpResponse(request.url), cacheStoragePolicy: .notAllowed)
            c.urlProtocol(self, didLoad: Data("BODY".utf8))
            c.urlProtocolDidFinishLoading(self)
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) {
                log("calling client again 300ms after completion...")
                c.urlProtocol(self, didLoad: Data("LATE".utf8))
                c.urlProtocolDidFinishLoading(self)
                log("late client calls returned")
            }
        default: break
        }
    }
    override func stopLoading() { log("stopLoading") }
}

final class ErrDelegate: NSObject, URLSessionDataDelegate {
    let done = DispatchSemaphore(value: 0)
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) { log("delegate didReceive data \(data.count)B") }
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        log("delegate didComplete: \(describe(error)) task.error=\(describe(task.error)) state=\(task.state.rawValue)"); done.signal()
    }
}

let url = URL(string: "http://stub.test/e")!
let errors: [(String, Error)] = [
    ("URLError.notConnectedToInternet", URLError(.notConnectedToInternet)),
    ("URLError.timedOut", URLError(.timedOut)),
    ("URLError.cannotFindHost+userInfo", URLError(.cannotFindHost, userInfo: [NSURLErrorFailingURLErrorKey: url, NSLocalizedDescriptionKey: "stubbed"])),
    ("NSError(custom domain)", NSError(domain: "com.example.stub", code: 42, userInfo: [NSLocalizedDescriptionKey: "custom ns error"])),
    ("Swift struct error", MyCustomError()),
]

func runAll(_ mode: String) async {
    ErrProtocol.mode.with { $0 = mode }
    for (name, e) in errors {
        ErrProtocol.error.with { $0 = e }
        let s = makeSession([ErrProtocol.self])
        do {
            let (d, _) = try await s.data(for: URLRequest(url: url))
            log("[\(mode)] \(name): async data(for:) returned \(d.count)B (no throw)")
        } catch {
            log("[\(mode)] \(name): async throws \(describe(error)); is MyCustomError=\(error is MyCustomError); as URLError? \((error as? URLError).map { "\($0.code.rawValue)" } ?? "nil")")
        }
        let sem = DispatchSemaphore(value: 0)
        s.dataTask(with: url) { d, r, err in
            log("[\(mode)] \(name): completion data=\(d.map { "\($0.count)B" } ?? "nil") resp=\(r == nil ? "nil" : "non-nil") err=\(describe(err))"); sem.signal()
        }.resume()
        _ = wait(sem, 3)
        let del = ErrDelegate()
        let s2 = makeSession([ErrProtocol.self], delegate: del)
        s2.dataTask(with: url).resume()
        _ = wait(del.done, 3)
    }
}

await runCases([
    ("didFailWithError_variants", 20, { await runAll("fail") }),
    ("partialThenFail", 20, {
        ErrProtocol.mode.with { $0 = "partialThenFail" }
        ErrProtocol.error.with { $0 = URLError(.networkConnectionLost) }
        let s = makeSession([ErrProtocol.self])
        do { _ = try await s.data(for: URLRequest(url: url)) } catch { log("async throws \(describe(error))") }
        let sem = DispatchSemaphore(value: 0)
        s.dataTask(with: url) { d, r, err in
            log("completion data=\(d.map { "\($0.count)B" } ?? "nil") resp=\(r == nil ? "nil" : "non-nil") err=\(describe(err))"); sem.signal()
        }.resume()
        _ = wait(sem, 3)
        let del = ErrDelegate()
        makeSession([ErrProtocol.self], delegate: del).dataTask(with: url).resume()
        _ = wait(del.done, 3)
    }),
    ("finishTwice_sync_async", 10, {
        ErrProtocol.mode.with { $0 = "finishTwice" }
        let (d, _) = try await makeSession([ErrProtocol.self]).data(for: URLRequest(url: url))
        log("async got \(d.count)B")
        try await Task.sleep(nanoseconds: 300_000_000)
    }),
    ("finishTwice_sync_delegate", 10, {
        ErrProtocol.mode.with { $0 = "finishTwice" }
        let del = ErrDelegate()
        makeSession([ErrProtocol.self], delegate: del).dataTask(with: url).resume()
        _ = wait(del.done, 3); Thread.sleep(forTimeInterval: 0.3)
    }),
    ("failThenFinish_sync_async", 10, {
        ErrProtocol.mode.with { $0 = "failThenFinish" }
        do { _ = try await makeSession([ErrProtocol.self]).data(for: URLRequest(url: url)) } catch { log("async throws \(describe(error))") }
        try await Task.sleep(nanoseconds: 300_000_000)
    }),
    ("lateSecondFinish_async", 10, {
        ErrProtocol.mode.with { $0 = "lateSecondFinish" }
        let (d, _) = try await makeSession([ErrProtocol.self]).data(for: URLRequest(url: url))
        log("async got \(d.count)B")
        try await Task.sleep(nanoseconds: 800_000_000)
    }),
])
