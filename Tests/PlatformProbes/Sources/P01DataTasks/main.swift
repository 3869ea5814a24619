// swift-format-ignore-file
// A probe is kept as it was when it measured the platform (Tests/PlatformProbes/README.md).
// P01: data tasks served by a custom URLProtocol: async data(for:), completion handler,
// delegate-based; is chunking (several didLoad calls) preserved?
import ProbeSupport

/// Delivers the body in 3 didLoad chunks: "chunk1-" "chunk2-" "chunk3"
final class ChunkProtocol: URLProtocol {
    static let mode = Locked("chunks") // "chunks" | "single" | "noResponse" | "twoResponses"
    override class func canInit(with request: URLRequest) -> Bool { request.url?.host == "stub.test" }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() {
        let c = client!
        let mode = Self.mode.value
        log("startLoading mode=\(mode) task=\(type(of: task!)) \(where_())")
        if mode != "noResponse" {
            c.urlProtocol(self, didReceive: httpResponse(request.url, headers: ["Content-Type": "text/plain", "X-Stub": "1"]), cacheStoragePolicy: .notAllowed)
        }
        if mode == "twoResponses" {
            c.urlProtocol(self, didReceive: httpResponse(request.url, status: 201), cacheStoragePolicy: .notAllowed)
        }
        if mode == "single" {
            c.urlProtocol(self, didLoad: Data("chunk1-chunk2-chunk3".utf8))
        } else {
            for s in ["chunk1-", "chunk2-", "chunk3"] { c.urlProtocol(self, didLoad: Data(s.utf8)) }
        }
        if mode == "chunksHack" {
            // unsafe workaround: overwrite URLProtocol.properties[.responseData] with the full body
            let r = hackSetProperty(self, .responseData, Data("chunk1-chunk2-chunk3".utf8))
            log("hackSetProperty(.responseData) -> \(r)")
        }
        c.urlProtocolDidFinishLoading(self)
    }
    override func stopLoading() { log("stopLoading") }
}

final class DataDelegate: NSObject, URLSessionDataDelegate {
    let events = Locked<[String]>([])
    let done = DispatchSemaphore(value: 0)
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse, completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        events.with { $0.append("didReceiveResponse(\((response as? HTTPURLResponse)?.statusCode ?? -1))") }
        completionHandler(.allow)
    }
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        events.with { $0.append("didReceiveData(\(String(decoding: data, as: UTF8.self)))") }
    }
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        events.with { $0.append("didComplete(\(error == nil ? "nil" : describe(error)))") }
        done.signal()
    }
}

let url = URL(string: "http://stub.test/data")!

await runCases([
    ("asyncDataFor_chunks", 10, {
        let s = makeSession([ChunkProtocol.self])
        let (d, r) = try await s.data(for: URLRequest(url: url))
        let body = String(decoding: d, as: UTF8.self)
        log("async data(for:) body=\"\(body)\" status=\((r as? HTTPURLResponse)?.statusCode ?? -1) headers=\((r as? HTTPURLResponse)?.allHeaderFields ?? [:])")
        ok("async data(for:) receives full chunked body", body == "chunk1-chunk2-chunk3", "got \"\(body)\"")
    }),
    ("asyncDataFor_single", 10, {
        ChunkProtocol.mode.with { $0 = "single" }
        let s = makeSession([ChunkProtocol.self])
        let (d, _) = try await s.data(for: URLRequest(url: url))
        let body = String(decoding: d, as: UTF8.self)
        ok("async data(for:) single didLoad", body == "chunk1-chunk2-chunk3", "got \"\(body)\"")
    }),
    ("asyncDataFromURL_chunks", 10, {
        let s = makeSession([ChunkProtocol.self])
        let (d, _) = try await s.data(from: url)
        ok("async data(from:) receives full chunked body", String(decoding: d, as: UTF8.self) == "chunk1-chunk2-chunk3", "got \"\(String(decoding: d, as: UTF8.self))\"")
    }),
    ("completionHandler_chunks", 10, {
        let s = makeSession([ChunkProtocol.self])
        let sem = DispatchSemaphore(value: 0)
        let got = Locked<String>("")
        s.dataTask(with: URLRequest(url: url)) { d, r, e in
            got.with { $0 = d.map { String(decoding: $0, as: UTF8.self) } ?? "nil" }
            log("completion: data=\(got.value) resp=\((r as? HTTPURLResponse)?.statusCode ?? -1) err=\(describe(e)) \(where_())")
            sem.signal()
        }.resume()
        _ = wait(sem, 5)
        ok("completion-handler dataTask receives full chunked body", got.value == "chunk1-chunk2-chunk3", "got \"\(got.value)\"")
    }),
    ("completionHandler_single", 10, {
        ChunkProtocol.mode.with { $0 = "single" }
        let s = makeSession([ChunkProtocol.self])
        let sem = DispatchSemaphore(value: 0)
        let got = Locked<String>("")
        s.dataTask(with: URLRequest(url: url)) { d, r, e in
            got.with { $0 = d.map { String(decoding: $0, as: UTF8.self) } ?? "nil" }; sem.signal()
        }.resume()
        _ = wait(sem, 5)
        ok("completion-handler single didLoad", got.value == "chunk1-chunk2-chunk3", "got \"\(got.value)\"")
    }),
    ("sessionDelegate_chunks", 10, {
        let del = DataDelegate()
        let s = makeSession([ChunkProtocol.self], delegate: del)
        s.dataTask(with: URLRequest(url: url)).resume()
        _ = wait(del.done, 5)
        Thread.sleep(forTimeInterval: 0.2)
        log("delegate events: \(del.events.value)")
        let dataEvents = del.events.value.filter { $0.hasPrefix("didReceiveData") }
        ok("session delegate gets didReceive data once per didLoad chunk", dataEvents.count == 3, "\(dataEvents.count) didReceiveData events")
        ok("session delegate gets didReceive response", del.events.value.contains { $0.hasPrefix("didReceiveResponse") })
    }),
    ("sessionDelegate_plus_asyncDataFor", 10, {
        // session has a data delegate, but the call uses async data(for:) without per-call delegate
        let del = DataDelegate()
        let s = makeSession([ChunkProtocol.self], delegate: del)
        let (d, _) = try await s.data(for: URLRequest(url: url))
        Thread.sleep(forTimeInterval: 0.2)
        log("body=\"\(String(decoding: d, as: UTF8.self))\" session-delegate events: \(del.events.value)")
    }),
    ("perCallDelegate_asyncDataFor", 10, {
        let del = DataDelegate()
        let s = makeSession([ChunkProtocol.self])
        let (d, _) = try await s.data(for: URLRequest(url: url), delegate: del)
        Thread.sleep(forTimeInterval: 0.2)
        log("body=\"\(String(decoding: d, as: UTF8.self))\" per-call-delegate events: \(del.events.value)")
    }),
    ("completionHandler_plus_sessionDelegate", 10, {
        let del = DataDelegate()
        let s = makeSession([ChunkProtocol.self], delegate: del)
        let sem = DispatchSemaphore(value: 0)
        s.dataTask(with: URLRequest(url: url)) { d, r, e in
            log("completion data=\(d.map { String(decoding: $0, as: UTF8.self) } ?? "nil")"); sem.signal()
        }.resume()
        _ = wait(sem, 5)
        Thread.sleep(forTimeInterval: 0.2)
        log("session-delegate events: \(del.events.value)")
    }),
    ("asyncDataFor_noDidReceiveResponse", 10, {
        // protocol forgets to call didReceive(response): what does async data(for:) do?
        ChunkProtocol.mode.with { $0 = "noResponse" }
        let s = makeSession([ChunkProtocol.self])
        let (d, r) = try await s.data(for: URLRequest(url: url))
        log("returned body=\(String(decoding: d, as: UTF8.self)) response=\(String(describing: r))")
    }),
    ("completionHandler_noDidReceiveResponse", 10, {
        ChunkProtocol.mode.with { $0 = "noResponse" }
        let s = makeSession([ChunkProtocol.self])
        let sem = DispatchSemaphore(value: 0)
        s.dataTask(with: URLRequest(url: url)) { d, r, e in
            log("completion data=\(d.map { String(decoding: $0, as: UTF8.self) } ?? "nil") resp=\(String(describing: r)) err=\(describe(e))"); sem.signal()
        }.resume()
        _ = wait(sem, 5)
    }),
    ("asyncDataFor_twoResponses", 10, {
        ChunkProtocol.mode.with { $0 = "twoResponses" }
        let s = makeSession([ChunkProtocol.self])
        let (d, r) = try await s.data(for: URLRequest(url: url))
        log("body=\(String(decoding: d, as: UTF8.self)) final status=\((r as? HTTPURLResponse)?.statusCode ?? -1)")
    }),
    ("asyncDataFor_chunks_unsafeHack", 10, {
        ChunkProtocol.mode.with { $0 = "chunksHack" }
        let s = makeSession([ChunkProtocol.self])
        let (d, _) = try await s.data(for: URLRequest(url: url))
        ok("async data(for:) full body after chunked delivery + unsafe responseData hack", String(decoding: d, as: UTF8.self) == "chunk1-chunk2-chunk3", "got \"\(String(decoding: d, as: UTF8.self))\"")
    }),
    ("sessionDelegate_chunks_unsafeHack", 10, {
        ChunkProtocol.mode.with { $0 = "chunksHack" }
        let del = DataDelegate()
        let s = makeSession([ChunkProtocol.self], delegate: del)
        s.dataTask(with: URLRequest(url: url)).resume()
        _ = wait(del.done, 5)
        Thread.sleep(forTimeInterval: 0.2)
        log("delegate events: \(del.events.value)")
    }),
    ("asyncDataFor_defaultConfig_withCache", 10, {
        // .default config (urlCache = URLCache.shared) instead of .ephemeral
        let s = makeSession([ChunkProtocol.self], base: .default)
        ChunkProtocol.mode.with { $0 = "single" }
        let (d, _) = try await s.data(for: URLRequest(url: url))
        ok(".default config works", String(decoding: d, as: UTF8.self) == "chunk1-chunk2-chunk3")
    }),
])
