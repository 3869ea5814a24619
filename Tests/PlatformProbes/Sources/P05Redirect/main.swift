// swift-format-ignore-file
// A probe is kept as it was when it measured the platform (Tests/PlatformProbes/README.md).
// P05: redirects from a custom URLProtocol.
import ProbeSupport

let startCount = Locked<[String: Int]>([:])

final class RedirectProtocol: URLProtocol {
    static let mode = Locked("wasRedirectedTo")
    override class func canInit(with request: URLRequest) -> Bool { request.url?.host == "stub.test" }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() {
        let path = request.url!.path
        startCount.with { $0[path, default: 0] += 1 }
        log("startLoading \(request.url!.absoluteString) mode=\(Self.mode.value)")
        let c = client!
        if path == "/final" {
            c.urlProtocol(self, didReceive: httpResponse(request.url), cacheStoragePolicy: .notAllowed)
            c.urlProtocol(self, didLoad: Data("FINAL".utf8))
            c.urlProtocolDidFinishLoading(self)
            return
        }
        let finalURL = URL(string: "http://stub.test/final")!
        let redirect = httpResponse(request.url, status: 302, headers: ["Location": finalURL.absoluteString])
        switch Self.mode.value {
        case "wasRedirectedTo":
            c.urlProtocol(self, wasRedirectedTo: URLRequest(url: finalURL), redirectResponse: redirect)
        case "serve302":
            c.urlProtocol(self, didReceive: redirect, cacheStoragePolicy: .notAllowed)
            c.urlProtocol(self, didLoad: Data("REDIRECT-BODY".utf8))
            c.urlProtocolDidFinishLoading(self)
        case "emulate":
            // Emulate Darwin: ask the delegate (task.delegate is public and falls back to the session delegate),
            // obtaining the URLSession through Mirror(task).session.
            guard let task, let sessAny = mirrorChild(task, "session"), let session = unwrapAny(sessAny) as? URLSession else {
                log("could not reach session"); c.urlProtocol(self, didFailWithError: URLError(.unknown)); return
            }
            let proceed: (URLRequest?) -> Void = { newReq in
                if let newReq {
                    log("delegate allowed redirect to \(newReq.url!.absoluteString); serving it inline")
                    c.urlProtocol(self, didReceive: httpResponse(newReq.url), cacheStoragePolicy: .notAllowed)
                    c.urlProtocol(self, didLoad: Data("FINAL-VIA-EMULATION".utf8))
                    c.urlProtocolDidFinishLoading(self)
                } else {
                    log("delegate refused redirect; returning the 302")
                    c.urlProtocol(self, didReceive: redirect, cacheStoragePolicy: .notAllowed)
                    c.urlProtocol(self, didLoad: Data("REDIRECT-BODY".utf8))
                    c.urlProtocolDidFinishLoading(self)
                }
            }
            if let d = task.delegate {
                log("emulate: task.delegate = \(type(of: d)); calling willPerformHTTPRedirection")
                // on Linux the delegate methods are non-optional requirements with default implementations
                nonisolated(unsafe) let p = proceed
                d.urlSession(session, task: task, willPerformHTTPRedirection: redirect, newRequest: URLRequest(url: finalURL), completionHandler: { p($0) })
            } else {
                proceed(URLRequest(url: finalURL))
            }
        default: break
        }
    }
    override func stopLoading() {}
}

final class RedirDelegate: NSObject, URLSessionDataDelegate {
    let allow: Bool
    let called = Locked(0)
    let done = DispatchSemaphore(value: 0)
    init(allow: Bool) { self.allow = allow }
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        called.with { $0 += 1 }
        log("delegate willPerformHTTPRedirection \(response.statusCode) -> \(request.url!.absoluteString) allow=\(allow)")
        completionHandler(allow ? request : nil)
    }
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        log("delegate didComplete status=\((task.response as? HTTPURLResponse)?.statusCode ?? -1) err=\(describe(error))"); done.signal()
    }
}

let start = URL(string: "http://stub.test/start")!
func asyncCall(_ s: URLSession) async throws {
    let (d, r) = try await s.data(from: start)
    log("caller got status=\((r as? HTTPURLResponse)?.statusCode ?? -1) url=\(r.url?.absoluteString ?? "nil") body=\(String(decoding: d, as: UTF8.self)) starts=\(startCount.value)")
}

await runCases([
    ("wasRedirectedTo_asyncData", 10, { try await asyncCall(makeSession([RedirectProtocol.self])) }),
    ("wasRedirectedTo_withRedirectDelegate", 10, {
        let del = RedirDelegate(allow: true)
        let s = makeSession([RedirectProtocol.self], delegate: del)
        s.dataTask(with: start).resume()
        _ = wait(del.done, 5)
        log("willPerformHTTPRedirection calls=\(del.called.value) starts=\(startCount.value)")
    }),
    ("serve302_asyncData", 10, { RedirectProtocol.mode.with { $0 = "serve302" }; try await asyncCall(makeSession([RedirectProtocol.self])) }),
    ("serve302_withRedirectDelegate", 10, {
        RedirectProtocol.mode.with { $0 = "serve302" }
        let del = RedirDelegate(allow: true)
        let s = makeSession([RedirectProtocol.self], delegate: del)
        s.dataTask(with: start).resume()
        _ = wait(del.done, 5)
        log("willPerformHTTPRedirection calls=\(del.called.value) starts=\(startCount.value)")
    }),
    ("emulate_delegateAllows", 10, {
        RedirectProtocol.mode.with { $0 = "emulate" }
        let del = RedirDelegate(allow: true)
        let s = makeSession([RedirectProtocol.self], delegate: del)
        try await asyncCall(s)
        log("willPerformHTTPRedirection calls=\(del.called.value)")
    }),
    ("emulate_delegateRefuses", 10, {
        RedirectProtocol.mode.with { $0 = "emulate" }
        let del = RedirDelegate(allow: false)
        let s = makeSession([RedirectProtocol.self], delegate: del)
        try await asyncCall(s)
        log("willPerformHTTPRedirection calls=\(del.called.value)")
    }),
])
