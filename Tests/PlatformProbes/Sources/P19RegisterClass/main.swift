// swift-format-ignore-file
// A probe is kept as it was when it measured the platform (Tests/PlatformProbes/README.md).
// P19: URLProtocol.registerClass + URLSession.shared / new sessions. Every case runs in a fresh process
// because registration and URLSession.shared are process-global.
import ProbeSupport

let hits = Locked(0)
func serve(_ p: URLProtocol) {
    hits.with { $0 += 1 }
    p.client?.urlProtocol(p, didReceive: httpResponse(p.request.url), cacheStoragePolicy: .notAllowed)
    p.client?.urlProtocol(p, didLoad: Data("STUBBED".utf8))
    p.client?.urlProtocolDidFinishLoading(p)
}
/// overrides only canInit(with request:)
final class ReqOnly: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { log("ReqOnly.canInit(request)"); return request.url?.host == "stub.test" || request.url?.scheme == "stub" }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() { serve(self) }
    override func stopLoading() {}
}
/// overrides both
final class Both: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { log("Both.canInit(request)"); return request.url?.host == "stub.test" || request.url?.scheme == "stub" }
    override class func canInit(with task: URLSessionTask) -> Bool { log("Both.canInit(task)"); return task.currentRequest?.url?.host == "stub.test" }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() { serve(self) }
    override func stopLoading() {}
}
/// overrides only canInit(with task:)
final class TaskOnly: URLProtocol {
    override class func canInit(with task: URLSessionTask) -> Bool { log("TaskOnly.canInit(task)"); return task.currentRequest?.url?.host == "stub.test" }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() { serve(self) }
    override func stopLoading() {}
}

func fetch(_ s: URLSession, _ u: String = "http://stub.test/x") async {
    do {
        let (d, _) = try await withTimeout(8) { try await s.data(from: URL(string: u)!) }
        log("\(u) -> \"\(String(decoding: d, as: UTF8.self))\" (stub hits=\(hits.value)) => \(hits.value > 0 ? "INTERCEPTED" : "NOT intercepted")")
    } catch {
        log("\(u) -> error \(describe(error)) (stub hits=\(hits.value)) => NOT intercepted")
    }
}
func registered() -> String { "" }

var cases: [ProbeCase] = []
for (name, cls) in [("ReqOnly", ReqOnly.self as AnyClass), ("Both", Both.self as AnyClass), ("TaskOnly", TaskOnly.self as AnyClass)] {
    cases.append(("\(name)_register_then_shared_first_session_ever", 15, {
        _ = URLProtocol.registerClass(cls)
        await fetch(URLSession.shared)
    }))
    cases.append(("\(name)_otherSessionCreatedFirst_then_register_then_shared", 15, {
        _ = URLSession(configuration: .ephemeral)
        _ = URLProtocol.registerClass(cls)
        await fetch(URLSession.shared)
    }))
    cases.append(("\(name)_sharedTouchedFirst_then_register", 15, {
        _ = URLSession.shared
        _ = URLProtocol.registerClass(cls)
        await fetch(URLSession.shared)
    }))
    cases.append(("\(name)_register_then_new_default_session", 15, {
        _ = URLProtocol.registerClass(cls)
        await fetch(URLSession(configuration: .default))
    }))
}
cases.append(("ReqOnly_register_customScheme_new_default_session", 15, {
    _ = URLProtocol.registerClass(ReqOnly.self)
    await fetch(URLSession(configuration: .default), "stub://anything/x")
}))
cases.append(("ReqOnly_register_customScheme_shared_afterTouch", 15, {
    _ = URLSession.shared
    _ = URLProtocol.registerClass(ReqOnly.self)
    await fetch(URLSession.shared, "stub://anything/x")
}))
cases.append(("ReqOnly_register_then_shared_then_unregister", 15, {
    _ = URLProtocol.registerClass(ReqOnly.self)
    await fetch(URLSession.shared)
    URLProtocol.unregisterClass(ReqOnly.self)
    hits.with { $0 = 0 }
    await fetch(URLSession.shared)
    log("URLSession.shared.configuration.protocolClasses=\(URLSession.shared.configuration.protocolClasses?.map { "\($0)" } ?? [])")
}))
await runCases(cases)
