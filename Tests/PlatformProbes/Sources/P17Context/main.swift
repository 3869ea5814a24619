// swift-format-ignore-file
// A probe is kept as it was when it measured the platform (Tests/PlatformProbes/README.md).
// P17: per-session context available to the protocol instance.
import ProbeSupport

func sessionOf(_ task: URLSessionTask?) -> URLSession? {
    guard let task, let s = mirrorChild(task, "session") else { return nil }
    return unwrapAny(s) as? URLSession
}

final class ContextProtocol: URLProtocol {
    static let dump = Locked(false)
    static let touchPriority = Locked(false)
    static let callCancel = Locked(false)
    override class func canInit(with request: URLRequest) -> Bool { request.url?.host == "stub.test" }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() {
        guard let task else { return }
        if Self.dump.value {
            log("Mirror(task) stored properties:")
            for l in mirrorDump(task) { log(l) }
        }
        log("public: taskIdentifier=\(task.taskIdentifier) taskDescription=\(task.taskDescription ?? "nil") delegate=\(task.delegate.map { "\(type(of: $0))" } ?? "nil")")
        if Self.touchPriority.value { log("reading task.priority inside startLoading..."); log("priority=\(task.priority)") }
        if Self.callCancel.value { log("calling task.cancel() inside startLoading..."); task.cancel(); log("cancel returned") }
        if let s = sessionOf(task) {
            let c = s.configuration
            log("via Mirror(task).session: ObjectIdentifier=\(ObjectIdentifier(s).hashValue) sessionDescription=\(s.sessionDescription ?? "nil") configuration.identifier=\(c.identifier ?? "nil") httpAdditionalHeaders=\(c.httpAdditionalHeaders ?? [:]) timeoutIntervalForRequest=\(c.timeoutIntervalForRequest) delegate=\(s.delegate.map { "\(type(of: $0))" } ?? "nil") delegateQueue=\(s.delegateQueue)")
        } else {
            log("could not reach session")
        }
        client?.urlProtocol(self, didReceive: httpResponse(request.url), cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: Data(((sessionOf(task)?.configuration.httpAdditionalHeaders?["X-Stub-Scope"] as? String) ?? "none").utf8))
        client?.urlProtocolDidFinishLoading(self)
    }
    override func stopLoading() {}
}

final class ContextDelegate: NSObject, URLSessionTaskDelegate { let scope: String; init(_ s: String) { scope = s } }

// ---- per-session protocol *classes* minted at runtime via generic specialisation ----
protocol Nat { static var value: Int { get } }
enum Z: Nat { static var value: Int { 0 } }
enum S<N: Nat>: Nat { static var value: Int { N.value + 1 } }
func nat(_ n: Int) -> Nat.Type {
    func succ<N: Nat>(_ t: N.Type) -> Nat.Type { S<N>.self }
    var t: Nat.Type = Z.self
    for _ in 0..<n { t = succ(t) }
    return t
}
let scopeResponses = Locked<[Int: String]>([:])
final class ScopedProtocol<Tag: Nat>: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { request.url?.host == "stub.test" }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() {
        let scope = Tag.value
        client?.urlProtocol(self, didReceive: httpResponse(request.url), cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: Data((scopeResponses.value[scope] ?? "no stub for scope \(scope)").utf8))
        client?.urlProtocolDidFinishLoading(self)
    }
    override func stopLoading() {}
}
func scopedClass(_ n: Int) -> AnyClass {
    func make<N: Nat>(_ t: N.Type) -> AnyClass { ScopedProtocol<N>.self }
    return make(nat(n))
}

let url = URL(string: "http://stub.test/ctx")!
await runCases([
    ("mirror_dump_task", 10, {
        ContextProtocol.dump.with { $0 = true }
        let s = makeSession([ContextProtocol.self])
        _ = try await s.data(from: url)
    }),
    ("context_via_session_config_marker", 10, {
        let a = makeSession([ContextProtocol.self]) { $0.httpAdditionalHeaders = ["X-Stub-Scope": "scope-A"]; $0.identifier = "id-A" }
        a.sessionDescription = "desc-A"
        let b = makeSession([ContextProtocol.self], delegate: ContextDelegate("B")) { $0.httpAdditionalHeaders = ["X-Stub-Scope": "scope-B"]; $0.identifier = "id-B" }
        let t = a.dataTask(with: url); t.taskDescription = "caller-set-description"
        let sem = DispatchSemaphore(value: 0)
        let ta = a.dataTask(with: url) { d, _, _ in log("session A got \(String(decoding: d ?? Data(), as: UTF8.self))"); sem.signal() }
        ta.taskDescription = "caller-set-description"
        ta.resume(); _ = wait(sem, 3)
        let (db, _) = try await b.data(from: url)
        log("session B got \(String(decoding: db, as: UTF8.self))")
    }),
    ("task_priority_inside_startLoading", 10, {
        ContextProtocol.touchPriority.with { $0 = true }
        _ = try await makeSession([ContextProtocol.self]).data(from: url)
    }),
    ("task_cancel_inside_startLoading", 10, {
        ContextProtocol.callCancel.with { $0 = true }
        _ = try await makeSession([ContextProtocol.self]).data(from: url)
    }),
    ("per_session_generic_protocol_classes", 10, {
        let c3: AnyClass = scopedClass(3), c7: AnyClass = scopedClass(7)
        log("minted classes: \(c3) / \(c7); distinct=\(ObjectIdentifier(c3) != ObjectIdentifier(c7)); same-as-again=\(ObjectIdentifier(c3) == ObjectIdentifier(scopedClass(3)))")
        scopeResponses.with { $0[3] = "stub for test #3"; $0[7] = "stub for test #7" }
        let s3 = makeSession([c3]), s7 = makeSession([c7])
        let (d3, _) = try await s3.data(from: url)
        let (d7, _) = try await s7.data(from: url)
        log("s3 -> \(String(decoding: d3, as: UTF8.self)); s7 -> \(String(decoding: d7, as: UTF8.self))")
        let t0 = Date(); let many = (0..<500).map { scopedClass($0) }; log("minting 500 classes took \(Int(Date().timeIntervalSince(t0) * 1000))ms (\(many.count))")
    }),
])
