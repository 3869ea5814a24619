// swift-format-ignore-file
// A probe is kept as it was when it measured the platform (Tests/PlatformProbes/README.md).
// P10: URLCache interaction with a custom URLProtocol.
import ProbeSupport

let starts = Locked(0)
final class CacheProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { request.url?.host == "stub.test" }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override class func requestIsCacheEquivalent(_ a: URLRequest, to b: URLRequest) -> Bool { log("requestIsCacheEquivalent called"); return a.url == b.url }
    override func startLoading() {
        starts.with { $0 += 1 }
        log("startLoading #\(starts.value) self.cachedResponse=\(cachedResponse.map { "present(\($0.data.count)B)" } ?? "nil")")
        client?.urlProtocol(self, didReceive: httpResponse(request.url, headers: ["Content-Type": "text/plain", "Cache-Control": "max-age=3600"]), cacheStoragePolicy: .allowed)
        client?.urlProtocol(self, didLoad: Data("CACHEABLE-\(starts.value)".utf8))
        client?.urlProtocolDidFinishLoading(self)
    }
    override func stopLoading() {}
}
final class CacheDelegate: NSObject, URLSessionDataDelegate {
    let done = DispatchSemaphore(value: 0)
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, willCacheResponse proposedResponse: CachedURLResponse, completionHandler: @escaping (CachedURLResponse?) -> Void) {
        log("delegate willCacheResponse called"); completionHandler(proposedResponse)
    }
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) { done.signal() }
}

let url = URL(string: "http://stub.test/cacheable")!
await runCases([
    ("cacheStoragePolicy_allowed_stores?", 10, {
        let cache = URLCache(memoryCapacity: 10_000_000, diskCapacity: 0, diskPath: nil)
        let s = makeSession([CacheProtocol.self]) { $0.urlCache = cache; $0.requestCachePolicy = .returnCacheDataElseLoad }
        let (d1, _) = try await s.data(from: url)
        try await Task.sleep(nanoseconds: 200_000_000)
        let cached = cache.cachedResponse(for: URLRequest(url: url))
        log("after 1st request body=\(String(decoding: d1, as: UTF8.self)) cache entry=\(cached.map { "\($0.data.count)B" } ?? "nil") currentMemoryUsage=\(cache.currentMemoryUsage)")
        ok("stubbed response stored in URLCache", cached != nil)
        let (d2, _) = try await s.data(from: url)
        log("2nd request body=\(String(decoding: d2, as: UTF8.self)) startLoading count=\(starts.value)")
    }),
    ("cache_delegate_willCacheResponse", 10, {
        let cache = URLCache(memoryCapacity: 10_000_000, diskCapacity: 0, diskPath: nil)
        let del = CacheDelegate()
        let s = makeSession([CacheProtocol.self], delegate: del) { $0.urlCache = cache }
        s.dataTask(with: url).resume()
        _ = wait(del.done, 3)
        log("cache entry=\(cache.cachedResponse(for: URLRequest(url: url)).map { "\($0.data.count)B" } ?? "nil")")
    }),
    ("manually_cached_response_passed_to_protocol", 10, {
        let cache = URLCache(memoryCapacity: 10_000_000, diskCapacity: 0, diskPath: nil)
        cache.storeCachedResponse(CachedURLResponse(response: httpResponse(url), data: Data("FROM-CACHE".utf8), storagePolicy: .allowedInMemoryOnly), for: URLRequest(url: url))
        let s = makeSession([CacheProtocol.self]) { $0.urlCache = cache; $0.requestCachePolicy = .returnCacheDataDontLoad }
        let (d, _) = try await s.data(from: url)
        log("body=\(String(decoding: d, as: UTF8.self)) (the session does not serve from cache itself; startLoading count=\(starts.value))")
    }),
])
