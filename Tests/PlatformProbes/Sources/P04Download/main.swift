// swift-format-ignore-file
// A probe is kept as it was when it measured the platform (Tests/PlatformProbes/README.md).
// P04: download tasks served by a custom URLProtocol, plus workaround attempts.
import ProbeSupport

final class DLProtocol: URLProtocol {
    static let mode = Locked("plain")
    override class func canInit(with request: URLRequest) -> Bool { request.url?.host == "stub.test" || request.url?.scheme == "stubfile" }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() {
        let mode = Self.mode.value
        let body = Data("DOWNLOADED-BODY".utf8)
        let c = client!
        log("startLoading mode=\(mode) task=\(type(of: task!))")
        let resp = httpResponse(request.url)
        switch mode {
        case "failForDownloads":
            if task is URLSessionDownloadTask {
                c.urlProtocol(self, didFailWithError: URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey: "stub: download tasks unsupported on Linux"]))
                return
            }
            c.urlProtocol(self, didReceive: resp, cacheStoragePolicy: .notAllowed)
            c.urlProtocol(self, didLoad: body)
            c.urlProtocolDidFinishLoading(self)
        case "dataBeforeResponse":
            c.urlProtocol(self, didLoad: body)
            c.urlProtocol(self, didReceive: resp, cacheStoragePolicy: .notAllowed)
            c.urlProtocolDidFinishLoading(self)
        case "noData":
            c.urlProtocol(self, didReceive: resp, cacheStoragePolicy: .notAllowed)
            c.urlProtocolDidFinishLoading(self)
        case "hack":
            c.urlProtocol(self, didReceive: resp, cacheStoragePolicy: .notAllowed)
            if task is URLSessionDownloadTask {
                let tmp = URL(fileURLWithPath: probeTmp() + "stub-dl-\(UUID().uuidString)")
                try! body.write(to: tmp)
                let okSet = hackSetProperty(self, .temporaryFileURL, tmp)
                log("hack set temporaryFileURL=\(okSet)")
            } else {
                c.urlProtocol(self, didLoad: body)
            }
            c.urlProtocolDidFinishLoading(self)
        default:
            c.urlProtocol(self, didReceive: resp, cacheStoragePolicy: .notAllowed)
            c.urlProtocol(self, didLoad: body)
            c.urlProtocolDidFinishLoading(self)
        }
    }
    override func stopLoading() {}
}

final class DLDelegate: NSObject, URLSessionDownloadDelegate {
    let done = DispatchSemaphore(value: 0)
    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        log("delegate didFinishDownloadingTo \(location.path) content=\((try? String(contentsOf: location, encoding: .utf8)) ?? "<unreadable>")")
    }
    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64, totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64) {
        log("delegate didWriteData \(bytesWritten)")
    }
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        log("delegate didComplete \(describe(error))"); done.signal()
    }
}
final class PlainTaskDelegate: NSObject, URLSessionTaskDelegate {
    let done = DispatchSemaphore(value: 0)
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        log("plain task delegate didComplete \(describe(error))"); done.signal()
    }
}

let url = URL(string: "http://stub.test/file.bin")!

func completionDownload() {
    let s = makeSession([DLProtocol.self])
    let sem = DispatchSemaphore(value: 0)
    s.downloadTask(with: url) { loc, resp, err in
        log("completion location=\(loc?.path ?? "nil") content=\(loc.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? "nil") status=\((resp as? HTTPURLResponse)?.statusCode ?? -1) err=\(describe(err))")
        sem.signal()
    }.resume()
    if !wait(sem, 5) { log("TIMEOUT") }
}
func asyncDownload() async throws {
    let s = makeSession([DLProtocol.self])
    let (loc, resp) = try await s.download(from: url)
    log("async download location=\(loc.path) content=\((try? String(contentsOf: loc, encoding: .utf8)) ?? "nil") status=\((resp as? HTTPURLResponse)?.statusCode ?? -1)")
}
func delegateDownload() {
    let del = DLDelegate()
    let s = makeSession([DLProtocol.self], delegate: del)
    s.downloadTask(with: url).resume()
    if !wait(del.done, 5) { log("TIMEOUT") }
}

await runCases([
    ("async_download_from", 10, { try await asyncDownload() }),
    ("async_download_for", 10, {
        let s = makeSession([DLProtocol.self])
        let (loc, _) = try await s.download(for: URLRequest(url: url))
        log("location=\(loc)")
    }),
    ("downloadTask_completion", 10, { completionDownload() }),
    ("downloadTask_downloadDelegate", 10, { delegateDownload() }),
    ("downloadTask_plainTaskDelegate", 10, {
        let del = PlainTaskDelegate()
        let s = makeSession([DLProtocol.self], delegate: del)
        s.downloadTask(with: url).resume()
        if !wait(del.done, 5) { log("TIMEOUT") }
    }),
    ("downloadTask_noDelegate", 10, {
        let s = makeSession([DLProtocol.self])
        let t = s.downloadTask(with: url); t.resume()
        Thread.sleep(forTimeInterval: 0.5)
        log("state after 0.5s = \(t.state.rawValue) (0=running 3=completed)")
    }),
    ("workaround_dataBeforeResponse_async", 10, { DLProtocol.mode.with { $0 = "dataBeforeResponse" }; try await asyncDownload() }),
    ("workaround_noData_async", 10, { DLProtocol.mode.with { $0 = "noData" }; try await asyncDownload() }),
    ("workaround_fileURLscheme_async", 10, {
        // custom scheme instead of http
        let s = makeSession([DLProtocol.self])
        let (loc, _) = try await s.download(from: URL(string: "stubfile:///x.bin")!)
        log("location=\(loc)")
    }),
    ("workaround_failForDownloads_async", 10, { DLProtocol.mode.with { $0 = "failForDownloads" }; do { try await asyncDownload() } catch { log("async download threw: \(describe(error))") } }),
    ("workaround_failForDownloads_delegate", 10, { DLProtocol.mode.with { $0 = "failForDownloads" }; delegateDownload() }),
    ("workaround_unsafeHack_async", 10, { DLProtocol.mode.with { $0 = "hack" }; try await asyncDownload() }),
    ("workaround_unsafeHack_completion", 10, { DLProtocol.mode.with { $0 = "hack" }; completionDownload() }),
    ("workaround_unsafeHack_downloadDelegate", 10, { DLProtocol.mode.with { $0 = "hack" }; delegateDownload() }),
    ("workaround_unsafeHack_stillServesDataTasks", 10, {
        DLProtocol.mode.with { $0 = "hack" }
        let s = makeSession([DLProtocol.self])
        let (d, _) = try await s.data(from: url)
        log("data task body=\(String(decoding: d, as: UTF8.self))")
    }),
])
