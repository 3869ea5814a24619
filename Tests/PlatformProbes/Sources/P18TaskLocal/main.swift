// swift-format-ignore-file
// A probe is kept as it was when it measured the platform (Tests/PlatformProbes/README.md).
// P18: does a @TaskLocal set around `await session.data(for:)` reach the protocol?
import ProbeSupport

enum Ctx { @TaskLocal static var testID: String? }

let mismatches = Locked(0)
let observations = Locked<[String: Int]>([:])
func observe(_ where_: String, _ v: String?, _ expected: String?) {
    let tag = v == nil ? "nil" : (v == expected ? "match" : "MISMATCH")
    observations.with { $0["\(where_):\(tag)", default: 0] += 1 }
    if tag == "MISMATCH" { mismatches.with { $0 += 1 } }
}

final class TLProtocol: URLProtocol {
    static let verbose = Locked(true)
    var capturedAtInit: String?
    override class func canInit(with request: URLRequest) -> Bool {
        let exp = request.value(forHTTPHeaderField: "X-Expected")
        observe("canInit", Ctx.testID, exp)
        if verbose.value { log("canInit: Ctx.testID=\(Ctx.testID ?? "nil") \(where_())") }
        return request.url?.host == "stub.test"
    }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    required init(request: URLRequest, cachedResponse: CachedURLResponse?, client: URLProtocolClient?) {
        capturedAtInit = Ctx.testID
        observe("init", Ctx.testID, request.value(forHTTPHeaderField: "X-Expected"))
        if Self.verbose.value { log("init: Ctx.testID=\(Ctx.testID ?? "nil") \(where_())") }
        super.init(request: request, cachedResponse: cachedResponse, client: client)
    }
    override func startLoading() {
        observe("startLoading", Ctx.testID, request.value(forHTTPHeaderField: "X-Expected"))
        if Self.verbose.value { log("startLoading: Ctx.testID=\(Ctx.testID ?? "nil") capturedAtInit=\(capturedAtInit ?? "nil") \(where_())") }
        client?.urlProtocol(self, didReceive: httpResponse(request.url), cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: Data((capturedAtInit ?? "nil").utf8))
        client?.urlProtocolDidFinishLoading(self)
    }
    override func stopLoading() {}
}

func req(_ id: String) -> URLRequest {
    var r = URLRequest(url: URL(string: "http://stub.test/tl")!); r.setValue(id, forHTTPHeaderField: "X-Expected"); return r
}

func concurrent(_ s: URLSession, n: Int, width: Int) async {
    TLProtocol.verbose.with { $0 = false }
    observations.with { $0 = [:] }
    await withTaskGroup(of: Void.self) { g in
        var next = 0
        func add() { let id = "T\(next)"; next += 1; g.addTask { await Ctx.$testID.withValue(id) { _ = try? await s.data(for: req(id)) } } }
        for _ in 0..<width { add() }
        while await g.next() != nil { if next < n { add() } }
    }
    log("concurrent n=\(n) width=\(width): \(observations.value.sorted { $0.key < $1.key }) mismatches=\(mismatches.value)")
}

await runCases([
    ("asyncData_urlCache_set(ephemeral)", 10, {
        let s = makeSession([TLProtocol.self])
        let (d, _) = try await Ctx.$testID.withValue("T1") { try await s.data(for: req("T1")) }
        log("body(captured at init)=\(String(decoding: d, as: UTF8.self))")
    }),
    ("asyncData_urlCache_nil", 10, {
        let s = makeSession([TLProtocol.self]) { $0.urlCache = nil }
        let (d, _) = try await Ctx.$testID.withValue("T1") { try await s.data(for: req("T1")) }
        log("body(captured at init)=\(String(decoding: d, as: UTF8.self))")
    }),
    ("completionHandler_resume_inside_withValue_urlCache_nil", 10, {
        let s = makeSession([TLProtocol.self]) { $0.urlCache = nil }
        let sem = DispatchSemaphore(value: 0)
        Ctx.$testID.withValue("T2") { s.dataTask(with: req("T2")) { d, _, _ in log("completion body=\(String(decoding: d ?? Data(), as: UTF8.self))"); sem.signal() }.resume() }
        _ = wait(sem, 3)
    }),
    ("concurrent_64_of_2000_urlCache_nil", 60, {
        await concurrent(makeSession([TLProtocol.self]) { $0.urlCache = nil }, n: 2000, width: 64)
    }),
    ("concurrent_64_of_2000_urlCache_set", 60, {
        await concurrent(makeSession([TLProtocol.self]), n: 2000, width: 64)
    }),
])
