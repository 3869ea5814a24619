import Testing

@testable import Understudy

/// Requests reaching stubs through every URLSession API, with their bodies.
@Suite struct InterceptionTests {
  @Test func asyncDataForGetsStatusHeadersAndBody() async throws {
    let registry = StubRegistry()
    registry.stub(
      .get("https://api.test/users/{id}"),
      StubResponse.text("hello", status: 201).header("X-Trace", "abc"))
    let (data, response) = try await registry.makeSession().data(
      from: URL(string: "https://api.test/users/9")!)
    let http = try #require(response as? HTTPURLResponse)
    #expect(http.statusCode == 201)
    #expect(http.value(forHTTPHeaderField: "x-trace") == "abc")
    #expect(http.value(forHTTPHeaderField: "Content-Type") == "text/plain; charset=utf-8")
    #expect(http.expectedContentLength == 5)
    #expect(http.url?.absoluteString == "https://api.test/users/9")
    #expect(String(decoding: data, as: UTF8.self) == "hello")
  }

  @Test func completionHandlerTasksAreAnswered() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/ping"), .text("pong"))
    let session = registry.makeSession()
    let body: String = try await withCheckedThrowingContinuation { continuation in
      session.dataTask(with: URL(string: "http://api.test/ping")!) { data, _, error in
        if let error { return continuation.resume(throwing: error) }
        continuation.resume(returning: String(decoding: data ?? Data(), as: UTF8.self))
      }.resume()
    }
    #expect(body == "pong")
  }

  @Test func delegateTasksReceiveResponseDataAndCompletion() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/d"), .text("delegated"))
    let delegate = CollectingDelegate()
    let session = registry.makeSession(delegate: delegate)
    session.dataTask(with: URL(string: "https://api.test/d")!).resume()
    let result = try await delegate.result()
    #expect(result.status == 200)
    #expect(String(decoding: result.body, as: UTF8.self) == "delegated")
  }

  @Test func responderReceivesPathParametersAndBody() async throws {
    let registry = StubRegistry()
    registry.stub(.put("/users/{id}/name")) { request in
      .text("user \(request.pathParameters["id"] ?? "?") is now \(request.bodyText ?? "")")
    }
    var request = URLRequest(url: URL(string: "https://api.test/users/42/name")!)
    request.httpMethod = "PUT"
    request.httpBody = Data("Grace".utf8)
    let (data, _) = try await registry.makeSession().data(for: request)
    #expect(String(decoding: data, as: UTF8.self) == "user 42 is now Grace")
  }

  @Test func postedJSONIsMatchedBySubset() async throws {
    let registry = StubRegistry()
    // The general stub first: stubs registered later take precedence.
    registry.stub(.post("/users"), .status(403))
    let admin = registry.stub(
      .post("/users") && .jsonBody(subset: ["role": "admin", "profile": ["team": "core"]]),
      .status(201))
    let session = registry.makeSession()
    var request = URLRequest(url: URL(string: "https://api.test/users")!)
    request.httpMethod = "POST"
    request.httpBody = Data(
      #"{"name":"Ada","role":"admin","profile":{"team":"core","floor":3}}"#.utf8)
    let (_, created) = try await session.data(for: request)
    #expect((created as? HTTPURLResponse)?.statusCode == 201)
    request.httpBody = Data(#"{"name":"Bob","role":"viewer"}"#.utf8)
    let (_, refused) = try await session.data(for: request)
    #expect((refused as? HTTPURLResponse)?.statusCode == 403)
    #expect(admin.callCount == 1)
  }

  @Test func bodyStreamsAreDrainedOnceAndTheResponderStillSeesTheBody() async throws {
    let registry = StubRegistry()
    registry.stub(.post("/upload") && .body("streamed bytes")) { request in
      .text("echo: \(String(decoding: request.urlRequest.httpBody ?? Data(), as: UTF8.self))")
    }
    var request = URLRequest(url: URL(string: "https://api.test/upload")!)
    request.httpMethod = "POST"
    request.httpBodyStream = InputStream(data: Data("streamed bytes".utf8))
    let (data, _) = try await registry.makeSession().data(for: request)
    #expect(String(decoding: data, as: UTF8.self) == "echo: streamed bytes")
    #expect(registry.requests.first?.body == Data("streamed bytes".utf8))
  }

  /// A body stream is the test's own code. Read on the work queue, one that blocked stalled
  /// every other test's session and outlived its own request's timeout.
  @Test func aBodyStreamThatBlocksHoldsBackOnlyItsOwnRequest() async throws {
    let registry = StubRegistry()
    registry.stub(.post("/upload") && .body("x"), .text("read"))
    let stream = BlockingStream()
    var request = URLRequest(url: URL(string: "https://api.test/upload")!)
    request.httpMethod = "POST"
    request.httpBodyStream = stream
    // Blocked on purpose until the test lets it go: under the thread sanitizer that took longer
    // than the default 60 s timeout.
    request.timeoutInterval = TestTiming.never
    let sent = request
    let upload = Task { try await registry.makeSession().data(for: sent) }
    try await stream.reading.wait(within: 20)
    let other = StubRegistry()
    other.stub(.get("/now"), .text("now"))
    let now = try await withWatchdog {
      try await other.makeSession().text(from: URL(string: "https://api.test/now")!)
    }
    stream.release.signal()
    #expect(now == "now")
    let (data, _) = try await withWatchdog { try await upload.value }
    #expect(String(decoding: data, as: UTF8.self) == "read")
  }

  @Test func aBodyStreamThatNeverEndsTimesOutWithItsRequest() async throws {
    let registry = StubRegistry()
    registry.stub(.post("/upload"), .text("never"))
    let stream = BlockingStream()
    defer { stream.release.signal() }
    var request = URLRequest(url: URL(string: "https://api.test/upload")!)
    request.httpMethod = "POST"
    request.httpBodyStream = stream
    request.timeoutInterval = 0.5
    let sent = request
    let error = try await withWatchdog {
      try await errorOf { try await registry.makeSession().data(for: sent) }
    }
    #expect(error?.code == .timedOut)
  }

  @Test func uploadTaskBodiesAreMatchedAndJournaled() async throws {
    let registry = StubRegistry()
    registry.stub(.post("/files") && .body(containing: "payload"), .status(201))
    let session = registry.makeSession()
    var request = URLRequest(url: URL(string: "https://api.test/files")!)
    request.httpMethod = "POST"
    let (_, fromData) = try await session.upload(for: request, from: Data("payload-1".utf8))
    #expect((fromData as? HTTPURLResponse)?.statusCode == 201)

    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "understudy-upload-\(UUID().uuidString)")
    try Data("payload-from-file".utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let (_, fromFile) = try await session.upload(for: request, fromFile: file)
    #expect((fromFile as? HTTPURLResponse)?.statusCode == 201)
    #expect(registry.requests.map(\.bodyText) == ["payload-1", "payload-from-file"])
  }

  /// A body file that is gone when the request starts is no empty body: a server would have
  /// received nothing, so the request fails, naming the file and the system's reason, and no
  /// stub answers it.
  @Test func anUploadFromAFileThatCannotBeReadFailsNamingTheFile() async throws {
    let registry = StubRegistry()
    registry.stub(.post("/files"), .status(201))
    // The message names the request: a credential in its URL must not reach the log.
    let secret = plantedSecret("upload")
    var request = URLRequest(url: URL(string: "https://api.test/files?access_token=\(secret)")!)
    request.httpMethod = "POST"
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "understudy-missing-upload-\(UUID().uuidString)")
    let error = try await #require(throws: URLError.self) {
      _ = try await registry.makeSession().upload(for: request, fromFile: file)
    }
    #if canImport(FoundationNetworking)
      // Darwin's URLSession reads the file itself and fails before any protocol sees it.
      #expect(
        error.localizedDescription.contains(
          "its file \(file.path) could not be read (No such file or directory)"),
        "\(error.localizedDescription)")
      #expect(
        error.localizedDescription.contains("POST https://api.test/files?access_token=••••"))
    #endif
    #expect(registry.requests.isEmpty, "no stub answered it")
    #expect(!error.localizedDescription.contains(secret))
    #expect(!"\(error)".contains(secret))
  }

  @Test func customSchemesAreAnsweredWithoutTheNetwork() async throws {
    let registry = StubRegistry()
    registry.stub(.get("myapp://handoff/open") && .query("id", "3")) { request in
      .text("opened \(request.queryValue("id") ?? "")")
    }
    let (data, _) = try await registry.makeSession().data(
      from: URL(string: "myapp://handoff/open?id=3")!)
    #expect(String(decoding: data, as: UTF8.self) == "opened 3")
  }

  @Test func encodableValuesBecomeJSON() async throws {
    struct User: Codable, Equatable {
      let id: Int
      let name: String
    }
    let registry = StubRegistry()
    registry.stub(.get("/users/1"), .json(User(id: 1, name: "Ada")))
    let (data, response) = try await registry.makeSession().data(
      from: URL(string: "https://api.test/users/1")!)
    #expect(
      (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type")
        == "application/json")
    #expect(try JSONDecoder().decode(User.self, from: data) == User(id: 1, name: "Ada"))
  }

  @Test func failuresReachTheCallerUnchanged() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/offline"), .failure(URLError(.notConnectedToInternet)))
    let error = try await #require(throws: URLError.self) {
      try await registry.makeSession().data(from: URL(string: "https://api.test/offline")!)
    }
    #expect(error.code == .notConnectedToInternet)
  }

  @Test func aThrowingResponderFailsTheRequestNamingTheStub() async throws {
    struct Boom: Error {}
    let registry = StubRegistry()
    registry.stub(.get("/boom")) { _ in throw Boom() }
    let error = try await #require(throws: ResponderError.self) {
      try await registry.makeSession().data(from: URL(string: "https://api.test/boom")!)
    }
    #expect(error.description.contains("path == /boom"))
    #expect(error.description.contains("Boom"))
  }

  @Test func delayedAnswersArriveAfterTheirDelay() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/slow"), StubResponse.text("eventually").delayed(by: 0.2))
    let start = Date()
    let (data, _) = try await registry.makeSession().data(
      from: URL(string: "https://api.test/slow")!)
    #expect(Date().timeIntervalSince(start) >= 0.19)
    #expect(String(decoding: data, as: UTF8.self) == "eventually")
  }

  @Test func aStubSlowerThanTheTimeoutFailsWithTimedOut() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/slow"), StubResponse.text("too late").delayed(by: TestTiming.never))
    var request = URLRequest(url: URL(string: "https://api.test/slow")!)
    request.timeoutInterval = 0.2
    let start = Date()
    let error = try await #require(throws: URLError.self) {
      try await registry.makeSession().data(for: request)
    }
    #expect(error.code == .timedOut)
    // The timeout ended it, not the stub's hour-long delay: anything short of the hour proves
    // it. No tighter: on a busy machine every session in the process waits its turn on
    // FoundationNetworking's one serial queue, and a loaded run has held this test for 71 s.
    #expect(Date().timeIntervalSince(start) < TestTiming.never / 2)
  }

  @Test func theJournalKeepsEveryRequestAndItsAnswer() async throws {
    let registry = StubRegistry()
    let stub = registry.stub(.post("/log"), .text("logged", status: 202))
    var request = URLRequest(url: URL(string: "https://api.test/log")!)
    request.httpMethod = "POST"
    request.setValue("yes", forHTTPHeaderField: "X-Debug")
    request.httpBody = Data("line".utf8)
    _ = try await registry.makeSession().data(for: request)
    _ = try? await registry.makeSession().data(from: URL(string: "https://api.test/other")!)
    let journal = registry.journal
    #expect(journal.count == 2)
    #expect(journal[0].request.headers["x-debug"] == "yes")
    #expect(journal[0].request.bodyText == "line")
    #expect(journal[0].response?.status == 202)
    #expect(journal[0].response?.body == Data("logged".utf8))
    #expect(journal[1].isUnmatched)
    #expect(journal[1].response?.error?.contains("no stub matched") == true)
    #expect(stub.requests.count == 1)
  }
}

/// A body stream whose first read blocks until the test releases it, then gives `x`.
final class BlockingStream: InputStream {
  let reading = Arrival()
  let release = DispatchSemaphore(value: 0)
  private let done = Locked(false)

  init() { super.init(data: Data()) }

  override func open() {}
  override func close() {}
  override var hasBytesAvailable: Bool { !done.current }
  override var streamStatus: Stream.Status { done.current ? .atEnd : .open }

  override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
    guard !done.current else { return 0 }
    reading.signal()
    _ = release.wait(timeout: .now() + TestTiming.never)
    done.withLock { $0 = true }
    buffer[0] = UInt8(ascii: "x")
    return 1
  }
}
