// swift-format-ignore-file
// A probe is kept as it was when it measured the platform (Tests/PlatformProbes/README.md).
// P12: URLProtocol.setProperty / property(forKey:in:) on Linux.
import ProbeSupport

final class PropProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool {
        let v = URLProtocol.property(forKey: "stub.id", in: request)
        log("canInit: property(stub.id)=\(String(describing: v)) handled=\(String(describing: URLProtocol.property(forKey: "handled", in: request)))")
        if URLProtocol.property(forKey: "handled", in: request) != nil { return false } // classic loop guard
        return request.url?.host == "stub.test"
    }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() {
        let v = URLProtocol.property(forKey: "stub.id", in: request)
        log("startLoading: property(stub.id) in self.request=\(String(describing: v)); in task.originalRequest=\(String(describing: task?.originalRequest.flatMap { URLProtocol.property(forKey: "stub.id", in: $0) })); in task.currentRequest=\(String(describing: task?.currentRequest.flatMap { URLProtocol.property(forKey: "stub.id", in: $0) }))")
        // mark a copy as handled and check the marker round-trips
        let m = (request as NSURLRequest).mutableCopy() as! NSMutableURLRequest
        URLProtocol.setProperty(true, forKey: "handled", in: m)
        let marked = m as URLRequest
        log("startLoading: marker on mutable copy -> \(String(describing: URLProtocol.property(forKey: "handled", in: marked))); canInit(marked)=\(Self.canInit(with: marked))")
        URLProtocol.removeProperty(forKey: "handled", in: m)
        log("after removeProperty -> \(String(describing: URLProtocol.property(forKey: "handled", in: m as URLRequest)))")
        client?.urlProtocol(self, didReceive: httpResponse(request.url), cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: Data("\(v ?? "nil")".utf8))
        client?.urlProtocolDidFinishLoading(self)
    }
    override func stopLoading() {}
}

await runCases([
    ("property_roundtrip_through_session", 10, {
        let base = URLRequest(url: URL(string: "http://stub.test/p")!)
        let m = (base as NSURLRequest).mutableCopy() as! NSMutableURLRequest
        URLProtocol.setProperty("test-123", forKey: "stub.id", in: m)
        var req = m as URLRequest
        log("before session: property=\(String(describing: URLProtocol.property(forKey: "stub.id", in: req)))")
        var copy = req; copy.setValue("x", forHTTPHeaderField: "X-Mutated")
        log("after mutating a URLRequest copy: property=\(String(describing: URLProtocol.property(forKey: "stub.id", in: copy)))")
        req.httpMethod = "POST"
        let s = makeSession([PropProtocol.self])
        let (d, _) = try await s.data(for: req)
        ok("property visible inside protocol", String(decoding: d, as: UTF8.self) == "test-123", "body=\(String(decoding: d, as: UTF8.self))")
    }),
    ("property_nonString_value", 10, {
        struct Ctx { let id: Int }
        let m = (URLRequest(url: URL(string: "http://stub.test/p")!) as NSURLRequest).mutableCopy() as! NSMutableURLRequest
        URLProtocol.setProperty(Ctx(id: 7), forKey: "ctx", in: m)
        let r = m as URLRequest
        log("non-NSObject value roundtrip: \(String(describing: URLProtocol.property(forKey: "ctx", in: r)))")
    }),
])
