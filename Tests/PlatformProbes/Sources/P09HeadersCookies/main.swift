// swift-format-ignore-file
// A probe is kept as it was when it measured the platform (Tests/PlatformProbes/README.md).
// P09: configuration headers and cookies with a custom URLProtocol.
import ProbeSupport

let seen = Locked<[String: [String: String]]>([:])
final class HeaderProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { request.url?.host == "stub.test" }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() {
        let h = request.allHTTPHeaderFields ?? [:]
        seen.with { $0[request.url!.path] = h }
        log("protocol sees headers for \(request.url!.path): \(h)")
        var respHeaders = ["Content-Type": "text/plain"]
        if request.url!.path == "/login" {
            respHeaders["Set-Cookie"] = "session=abc123; Path=/"
        }
        client?.urlProtocol(self, didReceive: httpResponse(request.url, headers: respHeaders), cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: Data())
        client?.urlProtocolDidFinishLoading(self)
    }
    override func stopLoading() {}
}

await runCases([
    ("httpAdditionalHeaders", 10, {
        let s = makeSession([HeaderProtocol.self]) {
            $0.httpAdditionalHeaders = ["X-Session-Marker": "session-42", "Authorization": "Bearer cfg", "User-Agent": "cfg-agent"]
        }
        var r = URLRequest(url: URL(string: "http://stub.test/h")!)
        r.setValue("req-value", forHTTPHeaderField: "X-Request")
        r.setValue("Bearer req", forHTTPHeaderField: "Authorization")
        _ = try await s.data(for: r)
        let h = seen.value["/h"] ?? [:]
        ok("httpAdditionalHeaders visible in protocol request", h["X-Session-Marker"] != nil, "headers=\(h)")
        // Can the protocol read them from the session configuration instead?
    }),
    ("cookies_setCookie_stored_and_sent", 10, {
        let storage = HTTPCookieStorage.shared  // default config storage
        storage.cookieAcceptPolicy = .always
        let s = makeSession([HeaderProtocol.self], base: .default) { $0.httpCookieStorage = storage; $0.httpCookieAcceptPolicy = .always }
        _ = try await s.data(from: URL(string: "http://stub.test/login")!)
        let stored = storage.cookies(for: URL(string: "http://stub.test/")!) ?? []
        log("cookies stored after stubbed Set-Cookie: \(stored.map { "\($0.name)=\($0.value)" })")
        ok("Set-Cookie from stubbed response stored in HTTPCookieStorage", !stored.isEmpty)
        _ = try await s.data(from: URL(string: "http://stub.test/next")!)
        let h = seen.value["/next"] ?? [:]
        ok("Cookie header sent on next request", h["Cookie"] != nil, "headers=\(h)")
    }),
    ("cookies_preseeded_storage_sent", 10, {
        let storage = HTTPCookieStorage.shared
        let c = HTTPCookie(properties: [.name: "pre", .value: "seeded", .domain: "stub.test", .path: "/", .originURL: URL(string: "http://stub.test/")!])!
        storage.setCookie(c)
        let s = makeSession([HeaderProtocol.self], base: .default) { $0.httpCookieStorage = storage }
        _ = try await s.data(from: URL(string: "http://stub.test/pre")!)
        let h = seen.value["/pre"] ?? [:]
        ok("pre-seeded cookie appears as Cookie header in the protocol's request", h["Cookie"] != nil, "headers=\(h)")
    }),
    ("cookies_manualStoreByProtocolWorkaround", 10, {
        // Workaround: the stub stores Set-Cookie itself via HTTPCookie.cookies(withResponseHeaderFields:for:)
        let storage = HTTPCookieStorage.shared
        let url = URL(string: "http://stub.test/login")!
        let resp = httpResponse(url, headers: ["Set-Cookie": "session=manual; Path=/"])
        let cookies = HTTPCookie.cookies(withResponseHeaderFields: resp.allHeaderFields as! [String: String], for: url)
        storage.setCookies(cookies, for: url, mainDocumentURL: nil)
        log("manually stored: \(storage.cookies(for: url)?.map { "\($0.name)=\($0.value)" } ?? [])")
    }),
])
