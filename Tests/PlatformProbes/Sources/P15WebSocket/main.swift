// swift-format-ignore-file
// A probe is kept as it was when it measured the platform (Tests/PlatformProbes/README.md).
// P15: does a custom URLProtocol get webSocketTask(with:)?
import ProbeSupport

let seen = Locked<[String]>([])
final class WSProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool {
        seen.with { $0.append("canInit \(request.url!.absoluteString)") }
        log("canInit \(request.url!.absoluteString)")
        return request.url?.host == "stub.test"
    }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() {
        log("startLoading task=\(type(of: task!)) headers=\(request.allHTTPHeaderFields ?? [:])")
        client?.urlProtocol(self, didReceive: httpResponse(request.url, status: 101, headers: ["Upgrade": "websocket", "Connection": "Upgrade"]), cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: Data("not-a-frame".utf8))
        client?.urlProtocolDidFinishLoading(self)
    }
    override func stopLoading() { log("stopLoading") }
}
final class WSDelegate: NSObject, URLSessionWebSocketDelegate {
    func urlSession(_ session: URLSession, webSocketTask: URLSessionWebSocketTask, didOpenWithProtocol protocol: String?) { log("delegate didOpenWithProtocol \(String(describing: `protocol`))") }
    func urlSession(_ session: URLSession, webSocketTask: URLSessionWebSocketTask, didCloseWith closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?) { log("delegate didCloseWith \(closeCode)") }
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) { log("delegate didComplete \(describe(error))") }
}

await runCases([
    ("webSocketTask_ws_scheme", 15, {
        let s = makeSession([WSProtocol.self], delegate: WSDelegate())
        let t = s.webSocketTask(with: URL(string: "ws://stub.test/socket")!)
        t.resume()
        do {
            let m = try await withTimeout(3) { try await t.receive() }
            log("receive -> \(m)")
        } catch { log("receive -> \(describe(error)) \(error)") }
        do { try await withTimeout(3) { try await t.send(.string("hi")) }; log("send ok") } catch { log("send -> \(describe(error)) \(error)") }
        log("seen=\(seen.value) task.state=\(t.state.rawValue) closeCode=\(t.closeCode)")
    }),
    ("webSocketTask_http_scheme", 15, {
        let s = makeSession([WSProtocol.self])
        let t = s.webSocketTask(with: URL(string: "http://stub.test/socket")!)
        t.resume()
        do { let m = try await withTimeout(3) { try await t.receive() }; log("receive -> \(m)") } catch { log("receive -> \(describe(error)) \(error)") }
        log("seen=\(seen.value)")
    }),
])
