// swift-format-ignore-file
// A probe is kept as it was when it measured the platform (Tests/PlatformProbes/README.md).
// P02: upload tasks and request bodies: what can a custom URLProtocol see of the body?
import ProbeSupport

/// Extracts URLSessionTask.knownBody (internal) through Mirror.
func mirrorBody(_ task: URLSessionTask?) -> (desc: String, data: Data?) {
    guard let task else { return ("no task", nil) }
    guard let kb = mirrorChild(task, "knownBody") else { return ("no 'knownBody' child in Mirror", nil) }
    guard let body = unwrapAny(kb) else { return ("knownBody=nil (body will be requested from delegate needNewBodyStream)", nil) }
    let m = Mirror(reflecting: body)
    guard let c = m.children.first else { return ("knownBody=.\(body)", nil) }
    switch c.label {
    case "data":
        if let dd = c.value as? DispatchData { return ("knownBody=.data(\(dd.count) bytes)", Data(dd)) }
        return ("knownBody=.data(\(type(of: c.value)))", nil)
    case "file":
        if let u = c.value as? URL { return ("knownBody=.file(\(u.path))", try? Data(contentsOf: u)) }
        return ("knownBody=.file(?)", nil)
    case "stream":
        if let s = c.value as? InputStream { return ("knownBody=.stream", readAll(s)) }
        return ("knownBody=.stream(?)", nil)
    default:
        return ("knownBody=\(c.label ?? "?")", nil)
    }
}

final class BodySpyProtocol: URLProtocol {
    static let readMirrorStream = Locked(true)
    override class func canInit(with request: URLRequest) -> Bool { request.url?.host == "stub.test" }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() {
        var report: [String] = []
        report.append("taskType=\(task.map { "\(type(of: $0))" } ?? "nil")")
        report.append("request.httpMethod=\(request.httpMethod ?? "nil")")
        report.append("request.httpBody=\(request.httpBody.map { "\($0.count)B \"\(String(decoding: $0, as: UTF8.self))\"" } ?? "nil")")
        if let s = request.httpBodyStream {
            let d = readAll(s)
            report.append("request.httpBodyStream=\(d.count)B \"\(String(decoding: d, as: UTF8.self))\"")
        } else { report.append("request.httpBodyStream=nil") }
        report.append("task.originalRequest.httpBody=\(task?.originalRequest?.httpBody.map { "\($0.count)B" } ?? "nil")")
        report.append("task.originalRequest.httpBodyStream=\(task?.originalRequest?.httpBodyStream == nil ? "nil" : "non-nil")")
        report.append("task.currentRequest.httpBody=\(task?.currentRequest?.httpBody.map { "\($0.count)B" } ?? "nil")")
        report.append("task.countOfBytesExpectedToSend=\(task?.countOfBytesExpectedToSend ?? -99)")
        report.append("Content-Length header=\(request.value(forHTTPHeaderField: "Content-Length") ?? "nil") Content-Type=\(request.value(forHTTPHeaderField: "Content-Type") ?? "nil")")
        let mb = mirrorBody(task)
        report.append("Mirror(task).\(mb.desc) content=\(mb.data.map { "\"\(String(decoding: $0, as: UTF8.self))\"" } ?? "nil")")
        for r in report { log("  [protocol] " + r) }
        let body = Data(report.joined(separator: "\n").utf8)
        client?.urlProtocol(self, didReceive: httpResponse(request.url), cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: body)
        client?.urlProtocolDidFinishLoading(self)
    }
    override func stopLoading() {}
}

final class UploadDelegate: NSObject, URLSessionDataDelegate {
    let done = DispatchSemaphore(value: 0)
    let streamRequested = Locked(0)
    func urlSession(_ session: URLSession, task: URLSessionTask, needNewBodyStream completionHandler: @escaping (InputStream?) -> Void) {
        streamRequested.with { $0 += 1 }
        log("delegate: needNewBodyStream called")
        completionHandler(InputStream(data: Data("from-needNewBodyStream".utf8)))
    }
    func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
        log("delegate: didSendBodyData \(bytesSent)/\(totalBytesSent)/\(totalBytesExpectedToSend)")
    }
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        log("delegate: didComplete \(describe(error))"); done.signal()
    }
}

let url = URL(string: "http://stub.test/upload")!
func post(_ body: Data? = nil) -> URLRequest {
    var r = URLRequest(url: url); r.httpMethod = "POST"; r.httpBody = body
    r.setValue("text/plain", forHTTPHeaderField: "Content-Type")
    return r
}
let payload = Data("HELLO-UPLOAD".utf8)
let fileURL = URL(fileURLWithPath: probeTmp() + "p02-upload.txt")
try? Data("FILE-CONTENT".utf8).write(to: fileURL)

func completionRun(_ make: (URLSession, @escaping @Sendable (Data?, URLResponse?, Error?) -> Void) -> URLSessionTask) {
    let s = makeSession([BodySpyProtocol.self])
    let sem = DispatchSemaphore(value: 0)
    make(s) { d, r, e in log("completion err=\(describe(e)) bytes=\(d?.count ?? -1)"); sem.signal() }.resume()
    if !wait(sem, 5) { log("TIMEOUT waiting for completion") }
}

await runCases([
    ("upload_async_fromData", 10, {
        let s = makeSession([BodySpyProtocol.self])
        _ = try await s.upload(for: post(), from: payload)
    }),
    ("upload_async_fromFile", 10, {
        let s = makeSession([BodySpyProtocol.self])
        _ = try await s.upload(for: post(), fromFile: fileURL)
    }),
    ("uploadTask_from_completion", 10, {
        completionRun { s, h in s.uploadTask(with: post(), from: payload, completionHandler: h) }
    }),
    ("uploadTask_fromFile_completion", 10, {
        completionRun { s, h in s.uploadTask(with: post(), fromFile: fileURL, completionHandler: h) }
    }),
    ("uploadTask_from_delegate", 10, {
        let del = UploadDelegate()
        let s = makeSession([BodySpyProtocol.self], delegate: del)
        s.uploadTask(with: post(), from: payload).resume()
        _ = wait(del.done, 5)
    }),
    ("uploadTask_withStreamedRequest_delegate", 10, {
        let del = UploadDelegate()
        let s = makeSession([BodySpyProtocol.self], delegate: del)
        s.uploadTask(withStreamedRequest: post()).resume()
        _ = wait(del.done, 5)
        log("needNewBodyStream calls: \(del.streamRequested.value)")
    }),
    ("post_httpBody_asyncData", 10, {
        let s = makeSession([BodySpyProtocol.self])
        _ = try await s.data(for: post(payload))
    }),
    ("post_httpBody_completion", 10, {
        completionRun { s, h in s.dataTask(with: post(payload), completionHandler: h) }
    }),
    ("post_httpBodyStream_asyncData", 10, {
        let s = makeSession([BodySpyProtocol.self])
        var r = post(); r.httpBodyStream = InputStream(data: Data("STREAMED-BODY".utf8))
        _ = try await s.data(for: r)
    }),
    ("post_httpBody_plus_uploadFromData", 10, {
        let s = makeSession([BodySpyProtocol.self])
        _ = try await s.upload(for: post(Data("REQUEST-HTTPBODY".utf8)), from: payload)
    }),
])
