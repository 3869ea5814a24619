// swift-format-ignore-file
// A probe is kept as it was when it measured the platform (Tests/PlatformProbes/README.md).
// P20: a stubbed 401 with WWW-Authenticate goes through URLSession's auth-challenge machinery.
import ProbeSupport

let starts = Locked(0)
final class AuthProtocol: URLProtocol {
    static let withChallengeHeader = Locked(true)
    static let scheme = Locked("Basic realm=\"stub\"")
    override class func canInit(with request: URLRequest) -> Bool { request.url?.host == "stub.test" }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() {
        starts.with { $0 += 1 }
        log("AuthProtocol.startLoading #\(starts.value) Authorization=\(request.value(forHTTPHeaderField: "Authorization") ?? "nil")")
        var h = ["Content-Type": "text/plain"]
        if Self.withChallengeHeader.value { h["WWW-Authenticate"] = Self.scheme.value }
        client?.urlProtocol(self, didReceive: httpResponse(request.url, status: 401, headers: h), cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: Data("UNAUTHORIZED".utf8))
        client?.urlProtocolDidFinishLoading(self)
    }
    override func stopLoading() {}
}
final class AuthDelegate: NSObject, URLSessionTaskDelegate {
    let disposition: URLSession.AuthChallengeDisposition
    init(_ d: URLSession.AuthChallengeDisposition = .useCredential) { disposition = d }
    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        log("delegate didReceive challenge \(challenge.protectionSpace.authenticationMethod) realm=\(challenge.protectionSpace.realm ?? "nil")")
        completionHandler(disposition, disposition == .useCredential ? URLCredential(user: "u", password: "p", persistence: .none) : nil)
    }
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) { log("delegate didComplete \(describe(error))") }
}
let url = URL(string: "http://stub.test/secret")!
func call(_ s: URLSession) async {
    do {
        let (d, r) = try await withTimeout(5) { try await s.data(from: url) }
        log("caller got status=\((r as? HTTPURLResponse)?.statusCode ?? -1) body=\(String(decoding: d, as: UTF8.self)) protocol starts=\(starts.value)")
    } catch { log("caller: \(error) protocol starts=\(starts.value)") }
}
await runCases([
    ("401_without_WWW-Authenticate", 15, { AuthProtocol.withChallengeHeader.with { $0 = false }; await call(makeSession([AuthProtocol.self])) }),
    ("401_with_WWW-Authenticate_noDelegate", 15, { await call(makeSession([AuthProtocol.self])) }),
    ("401_with_WWW-Authenticate_sessionDelegate_useCredential", 15, {
        // task.delegate path: after .useCredential the task swaps in the *real* _HTTPURLProtocol and goes to the network
        await call(makeSession([AuthProtocol.self], delegate: AuthDelegate()))
    }),
    ("401_Bearer_challenge_noDelegate", 15, { AuthProtocol.scheme.with { $0 = "Bearer realm=\"api\"" }; await call(makeSession([AuthProtocol.self])) }),
    ("401_Bearer_challenge_delegate_useCredential", 15, { AuthProtocol.scheme.with { $0 = "Bearer realm=\"api\"" }; await call(makeSession([AuthProtocol.self], delegate: AuthDelegate())) }),
    ("401_Basic_delegate_performDefaultHandling", 15, { await call(makeSession([AuthProtocol.self], delegate: AuthDelegate(.performDefaultHandling))) }),
    ("401_Basic_delegate_cancelChallenge", 15, { await call(makeSession([AuthProtocol.self], delegate: AuthDelegate(.cancelAuthenticationChallenge))) }),
    ("401_Digest_delegate_useCredential", 15, { AuthProtocol.scheme.with { $0 = "Digest realm=\"x\", nonce=\"abc\"" }; await call(makeSession([AuthProtocol.self], delegate: AuthDelegate())) }),
])
