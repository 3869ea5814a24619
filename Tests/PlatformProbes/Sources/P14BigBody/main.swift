// swift-format-ignore-file
// A probe is kept as it was when it measured the platform (Tests/PlatformProbes/README.md).
// P14: a 100 MB body delivered via many 64 KiB didLoad calls (or one big one).
// usage: P14BigBody <mode>   modes: delegateChunks | asyncChunks | asyncSingle | asyncChunksHack | delegateChunksCacheAllowed
import ProbeSupport

let chunkSize = 64 * 1024
let total = 100 * 1024 * 1024
let chunk = Data(repeating: 0x61, count: chunkSize)
let mode = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "delegateChunks"

final class BigProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { request.url?.host == "stub.test" }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() {
        let c = client!
        let policy: URLCache.StoragePolicy = mode.contains("CacheAllowed") ? .allowed : .notAllowed
        c.urlProtocol(self, didReceive: httpResponse(request.url, headers: ["Content-Length": "\(total)"]), cacheStoragePolicy: policy)
        if mode == "asyncSingle" {
            c.urlProtocol(self, didLoad: Data(repeating: 0x61, count: total))
        } else {
            for _ in 0..<(total / chunkSize) { c.urlProtocol(self, didLoad: chunk) }
        }
        if mode == "asyncChunksHack" {
            hackVerbose = false
            _ = hackSetProperty(self, .responseData, Data(repeating: 0x61, count: total))
        }
        c.urlProtocolDidFinishLoading(self)
    }
    override func stopLoading() {}
}
final class Collect: NSObject, URLSessionDataDelegate {
    var data = Data()
    var calls = 0
    let done = DispatchSemaphore(value: 0)
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive d: Data) { calls += 1; data.append(d) }
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) { done.signal() }
}

let url = URL(string: "http://stub.test/big")!
let t0 = monotonicNow()
var received = 0
var extra = ""
switch mode {
case "delegateChunks", "delegateChunksCacheAllowed":
    let del = Collect()
    let s = makeSession([BigProtocol.self], delegate: del)
    s.dataTask(with: url).resume()
    _ = wait(del.done, 120)
    received = del.data.count; extra = "didReceiveData calls=\(del.calls)"
default:
    let s = makeSession([BigProtocol.self])
    let (d, _) = try await s.data(from: url)
    received = d.count
}
let ms = Double(monotonicNow() - t0) / 1e6
print(String(format: "RESULT mode=%@ received=%d bytes (expected %d) time=%.0f ms throughput=%.0f MB/s peakRSS=%d kB %@", mode, received, total, ms, Double(total) / 1048576 / (ms / 1000), peakRSSkB(), extra))
