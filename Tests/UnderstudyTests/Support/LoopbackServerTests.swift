import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// Endpoints without side effects use the shared server; anything that counts hits, reads the log
// or stops the server starts its own, because tests run in parallel. The limit is for a hang:
// a minute was passed by three of these tests at load 14 on 2 cores, each only slow.
@Suite(.timeLimit(.minutes(10))) struct LoopbackServerTests {
  let session = URLSession(configuration: .ephemeral)

  private func fetch(
    _ url: URL, method: String = "GET", headers: [String: String] = [:], body: Data? = nil
  ) async throws -> (Data, HTTPURLResponse) {
    var request = URLRequest(url: url)
    request.httpMethod = method
    request.httpBody = body
    for (name, value) in headers {
      request.setValue(value, forHTTPHeaderField: name)
    }
    let (data, response) = try await session.data(for: request)
    return (data, try #require(response as? HTTPURLResponse))
  }

  @Test func baseURLIsLoopback() async throws {
    let server = try await LoopbackServer.shared()
    #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
    #expect(server.url("/echo?a=1").absoluteString == "http://127.0.0.1:\(server.port)/echo?a=1")
    #expect(server.url("json") == server.url("/json"))
  }

  @Test func sharedIsStartedOnce() async throws {
    async let first = LoopbackServer.shared()
    async let second = LoopbackServer.shared()
    let (a, b) = try await (first, second)
    #expect(a === b)
  }

  @Test func echoReflectsMethodPathQueryHeadersAndBody() async throws {
    let server = try await LoopbackServer.shared()
    let (data, response) = try await fetch(
      server.url("/echo/users/7?b=2&a=%20x"), method: "PATCH",
      headers: ["X-First": "one", "Content-Type": "text/plain"], body: Data("héllo".utf8))
    #expect(response.statusCode == 200)
    #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
    let echo = try JSONDecoder().decode(EchoedRequest.self, from: data)
    #expect(echo.method == "PATCH")
    #expect(echo.path == "/echo/users/7")
    #expect(echo.query == "b=2&a=%20x")
    #expect(echo.value(of: "x-first") == "one")
    #expect(echo.value(of: "Content-Type") == "text/plain")
    #expect(echo.value(of: "Content-Length") == "6")
    #expect(echo.bodyText == "héllo")
    #expect(echo.body == Data("héllo".utf8))
  }

  @Test func echoReportsBinaryBodyWithoutText() async throws {
    let server = try await LoopbackServer.shared()
    let bytes = Data([0xFF, 0x00, 0xFE])
    let (data, _) = try await fetch(server.url("/echo"), method: "PUT", body: bytes)
    let echo = try JSONDecoder().decode(EchoedRequest.self, from: data)
    #expect(echo.method == "PUT")
    #expect(echo.query == "")
    #expect(echo.bodyText == nil)
    #expect(echo.body == bytes)
  }

  @Test(arguments: [200, 201, 404, 418, 500, 503])
  func statusAnswersWithThatCode(code: Int) async throws {
    let server = try await LoopbackServer.shared()
    let (data, response) = try await fetch(server.url("/status/\(code)"))
    #expect(response.statusCode == code)
    #expect(String(decoding: data, as: UTF8.self).hasPrefix("\(code) "))
  }

  @Test func status204HasNoBody() async throws {
    let server = try await LoopbackServer.shared()
    let (data, response) = try await fetch(server.url("/status/204"))
    #expect(response.statusCode == 204)
    #expect(data.isEmpty)
  }

  @Test func bytesAreCountedAndDeterministic() async throws {
    let server = try await LoopbackServer.shared()
    let (data, response) = try await fetch(server.url("/bytes/1000"))
    #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/octet-stream")
    #expect(data == Data((0..<1000).map { UInt8($0 % 251) }))
  }

  @Test func headGetsHeadersWithoutBody() async throws {
    let server = try await LoopbackServer.shared()
    let (data, response) = try await fetch(server.url("/bytes/10"), method: "HEAD")
    #expect(response.statusCode == 200)
    #expect(response.value(forHTTPHeaderField: "Content-Length") == "10")
    #expect(data.isEmpty)
  }

  @Test func jsonIsAFixedDocument() async throws {
    struct Document: Decodable, Equatable {
      let name: String
      let version: Int
      let tags: [String]
    }
    let server = try await LoopbackServer.shared()
    let (data, response) = try await fetch(server.url("/json"))
    #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
    let document = try JSONDecoder().decode(Document.self, from: data)
    #expect(document == Document(name: "understudy", version: 1, tags: ["http", "stub", "replay"]))
  }

  @Test func setCookieSendsOneHeaderPerItem() async throws {
    let server = try await LoopbackServer.shared()
    let url = server.url("/set-cookie?session=abc&theme=dark")
    let (_, response) = try await fetch(url)
    #expect(response.statusCode == 200)
    // URLResponse folds repeated headers into one comma-separated value.
    let folded = try #require(response.value(forHTTPHeaderField: "Set-Cookie"))
    #expect(folded == "session=abc; Path=/, theme=dark; Path=/")
    let cookies = HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": folded], for: url)
    #expect(cookies.map(\.name) == ["session", "theme"])
    #expect(cookies.map(\.value) == ["abc", "dark"])
    #expect(cookies.allSatisfy { $0.path == "/" })
  }

  @Test func redirectChainIsFollowedToDone() async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    let (data, response) = try await fetch(server.url("/redirect/3"))
    #expect(response.statusCode == 200)
    #expect(response.url?.path == "/redirect/0")
    #expect(String(decoding: data, as: UTF8.self) == "done")
    #expect(try await server.hits() == 4)
  }

  @Test func redirectToGoesWhereItIsTold() async throws {
    let server = try await LoopbackServer.shared()
    let (data, response) = try await fetch(server.url("/redirect-to?url=/echo/landed&status=307"))
    #expect(response.statusCode == 200)
    let echo = try JSONDecoder().decode(EchoedRequest.self, from: data)
    #expect(echo.path == "/echo/landed")
  }

  @Test func slowWaitsBeforeAnswering() async throws {
    let server = try await LoopbackServer.shared()
    let clock = ContinuousClock()
    let started = clock.now
    let (_, response) = try await fetch(server.url("/slow?ms=60"))
    #expect(response.statusCode == 200)
    #expect(clock.now - started >= .milliseconds(60))
  }

  @Test func streamSendsChunkedEvents() async throws {
    let server = try await LoopbackServer.shared()
    let (data, response) = try await fetch(server.url("/stream?chunks=3&interval_ms=10"))
    #expect(response.value(forHTTPHeaderField: "Content-Type") == "text/event-stream")
    #expect(response.value(forHTTPHeaderField: "Transfer-Encoding") == "chunked")
    #expect(String(decoding: data, as: UTF8.self) == "data: 0\n\ndata: 1\n\ndata: 2\n\n")
  }

  @Test func authChallengesUntilAuthorizationIsSent() async throws {
    let server = try await LoopbackServer.shared()
    // No plain session here: swift-corelibs-foundation 6.3.1 never completes a task that gets a
    // 401 with WWW-Authenticate when the session has no delegate to decline the challenge
    // (swiftlang/swift-corelibs-foundation#5456). The delegate records it and declines.
    let recorder = ChallengeRecorder()
    let session = URLSession(configuration: .ephemeral, delegate: recorder, delegateQueue: nil)
    defer { session.finishTasksAndInvalidate() }
    // Darwin hands back the 401; corelibs ends the declined task as cancelled.
    _ = try? await session.data(from: server.url("/auth"))
    let challenge = try #require(recorder.challenge)
    #expect(challenge.method == NSURLAuthenticationMethodHTTPBasic)
    #expect(challenge.realm == "test")
    #expect(challenge.status == 401)

    let (data, response) = try await fetch(
      server.url("/auth"), headers: ["Authorization": "Basic dXNlcjpwYXNz"])
    #expect(response.statusCode == 200)
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.contains("Basic dXNlcjpwYXNz"))
  }

  @Test func hitsLogAndResetCountRequests() async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    #expect(try await server.hits() == 0)
    _ = try await fetch(server.url("/json"))
    _ = try await fetch(server.url("/echo/a?x=1"), method: "POST", body: Data("hi".utf8))
    _ = try await fetch(server.url("/nowhere"))
    #expect(try await server.hits() == 3)  // the /__ calls do not count

    let log = try await server.log()
    #expect(log.map(\.method) == ["GET", "POST", "GET"])
    #expect(log.map(\.path) == ["/json", "/echo/a", "/nowhere"])
    #expect(log[1].query == "x=1")
    #expect(log[1].bodyText == "hi")

    try await server.reset()
    #expect(try await server.hits() == 0)
    #expect(try await server.log().isEmpty)
  }

  @Test func twoServersRunSideBySide() async throws {
    async let first = LoopbackServer.start()
    async let second = LoopbackServer.start()
    let (a, b) = try await (first, second)
    defer {
      a.stop()
      b.stop()
    }
    #expect(a.port != b.port)
    _ = try await fetch(a.url("/json"))
    _ = try await fetch(a.url("/json"))
    _ = try await fetch(b.url("/json"))
    #expect(try await a.hits() == 2)
    #expect(try await b.hits() == 1)
  }

  @Test func stopRefusesConnectionsAndIsIdempotent() async throws {
    let server = try await LoopbackServer.start()
    _ = try await fetch(server.url("/json"))
    server.stop()
    server.stop()
    await #expect(throws: URLError.self) {
      _ = try await fetch(server.url("/json"))
    }
  }

  @Test func failedStartReportsStderr() async throws {
    let script = FileManager.default.temporaryDirectory
      .appendingPathComponent("failing-loopback-\(UUID().uuidString).py")
    try Data("import sys\nsys.stderr.write('boom from script\\n')\nsys.exit(3)\n".utf8)
      .write(to: script)
    defer { try? FileManager.default.removeItem(at: script) }

    let error = await #expect(throws: LoopbackServerError.self) {
      _ = try await LoopbackServer.start(script: script)
    }
    #expect(error?.description.contains("boom from script") == true)
    #expect(error?.description.contains("exit status 3") == true)
  }

  @Test func missingScriptIsReported() async throws {
    let script = URL(fileURLWithPath: "/nonexistent/loopback_server.py")
    let error = await #expect(throws: LoopbackServerError.self) {
      _ = try await LoopbackServer.start(script: script)
    }
    #expect(error?.description.contains("not found") == true)
  }
}

/// Declines every authentication challenge, remembering the last one.
private final class ChallengeRecorder: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
  struct Seen {
    let method: String
    let realm: String?
    let status: Int?
  }

  // `seen` is written on the session's delegate queue and read by the test: guarded by `lock`.
  private let lock = NSLock()
  private var seen: Seen?

  var challenge: Seen? {
    lock.lock()
    defer { lock.unlock() }
    return seen
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
    completionHandler:
      @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) ->
      Void
  ) {
    let space = challenge.protectionSpace
    let status = (challenge.failureResponse as? HTTPURLResponse)?.statusCode
    lock.lock()
    seen = Seen(method: space.authenticationMethod, realm: space.realm, status: status)
    lock.unlock()
    completionHandler(.rejectProtectionSpace, nil)
  }
}
