import Testing

@testable import Understudy

/// The URLSession APIs a request can go through, upload included.
enum Shape: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case async
  case completionHandler
  case delegate
  case upload

  var testDescription: String { rawValue }

  /// Sends a POST of `body` to `url` through `registry`'s session of this kind; the body text.
  func send(_ url: URL, body: String = "", to registry: StubRegistry) async throws -> String {
    // The watchdog bounds a hang, not the request's own 60 s: a test that holds its request in
    // user code while it sends another took longer than that under the thread sanitizer on a
    // busy machine, and the held request timed out before its release.
    var request = URLRequest(url: url, timeoutInterval: TestTiming.never)
    request.httpMethod = "POST"
    switch self {
    case .async:
      request.httpBody = Data(body.utf8)
      let (data, _) = try await registry.makeSession().data(for: request)
      return String(decoding: data, as: UTF8.self)
    case .completionHandler:
      request.httpBody = Data(body.utf8)
      let session = Unchecked(registry.makeSession())
      return try await withCheckedThrowingContinuation { continuation in
        session.value.dataTask(with: request) { data, _, error in
          if let error { return continuation.resume(throwing: error) }
          continuation.resume(returning: String(decoding: data ?? Data(), as: UTF8.self))
        }.resume()
      }
    case .delegate:
      request.httpBody = Data(body.utf8)
      let delegate = CollectingDelegate()
      registry.makeSession(delegate: delegate).dataTask(with: request).resume()
      return String(decoding: try await delegate.result().body, as: UTF8.self)
    case .upload:
      let (data, _) = try await registry.makeSession().upload(for: request, from: Data(body.utf8))
      return String(decoding: data, as: UTF8.self)
    }
  }
}

/// Sends a GET from synchronous code and waits for it, as a responder that fires a webhook or
/// refreshes a token might; `nil` when it failed.
func blockingGet(_ url: URL, through session: URLSession) -> String? {
  let done = DispatchSemaphore(value: 0)
  let result = Locked<String?>(nil)
  session.dataTask(with: url) { data, _, _ in
    result.withLock { $0 = data.map { String(decoding: $0, as: UTF8.self) } }
    done.signal()
  }.resume()
  guard done.wait(timeout: .now() + 20) == .success else { return nil }
  return result.current
}

/// Closures users write (responders, custom matchers) may do anything: send requests of their
/// own through the same registry or another, cancel tasks, block, throw and await.
@Suite struct UserCodeTests {
  let side = URL(string: "https://side.test/token")!

  /// POSTs `body` to /orders through `shape`, failing instead of hanging; the answer's text.
  func orders(through shape: Shape, _ registry: StubRegistry, body: String = "") async throws
    -> String
  {
    try await withWatchdog {
      try await shape.send(URL(string: "https://api.test/orders")!, body: body, to: registry)
    }
  }

  @Test(arguments: Shape.allCases)
  func aResponderMaySendARequestThroughTheSameRegistry(shape: Shape) async throws {
    let registry = StubRegistry()
    registry.stub(.get("https://side.test/token"), .text("t-1"))
    let session = registry.makeSession()
    registry.stub(.post("/orders")) { request in
      let token = blockingGet(side, through: session) ?? "none"
      return .text("\(request.bodyText ?? "") with \(token)")
    }
    #expect(try await orders(through: shape, registry, body: "book") == "book with t-1")
  }

  @Test(arguments: Shape.allCases)
  func aResponderMaySendARequestThroughAnotherRegistry(shape: Shape) async throws {
    let webhooks = StubRegistry()
    webhooks.stub(.get("https://side.test/token"), .text("hooked"))
    let other = webhooks.makeSession()
    let registry = StubRegistry()
    registry.stub(.post("/orders")) { _ in .text(blockingGet(side, through: other) ?? "none") }
    #expect(try await orders(through: shape, registry) == "hooked")
  }

  @Test(arguments: Shape.allCases)
  func anAsyncResponderMayAwaitARequestOfItsOwn(shape: Shape) async throws {
    let registry = StubRegistry()
    registry.stub(.get("https://side.test/token"), .text("t-2"))
    let session = registry.makeSession()
    registry.stub(.post("/orders")) { request async throws in
      let (token, _) = try await session.data(from: side)
      return .text(String(decoding: token, as: UTF8.self))
    }
    #expect(try await orders(through: shape, registry) == "t-2")
  }

  @Test(arguments: Shape.allCases)
  func aCustomMatcherMaySendARequestOfItsOwn(shape: Shape) async throws {
    let registry = StubRegistry()
    registry.stub(.get("https://side.test/token"), .text("allowed"))
    let session = registry.makeSession()
    registry.stub(
      .post("/orders")
        && .custom("the side service allows it") { _ in
          blockingGet(side, through: session) == "allowed"
        },
      .text("matched"))
    #expect(try await orders(through: shape, registry) == "matched")
  }

  /// A cassette holding an answer for POST /orders and one for the side service.
  private func cassetteAnsweringOrders() throws -> URL {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("user-code-\(UUID().uuidString).har")
    let text = { (body: String) in HAR.Content(body: Data(body.utf8), mimeType: "text/plain") }
    try HAR(entries: [
      .sample(method: "POST", url: "https://api.test/orders", content: text("replayed")),
      .sample(url: side.absoluteString, content: text("from the cassette")),
    ]).encoded().write(to: file)
    return file
  }

  @Test(arguments: Shape.allCases)
  func aCustomReplayRuleMaySendARequestThroughItsOwnRegistry(shape: Shape) async throws {
    let file = try cassetteAnsweringOrders()
    defer { try? FileManager.default.removeItem(at: file) }
    let registry = StubRegistry()
    let session = Locked<URLSession?>(nil)
    let side = self.side
    let matching = ReplayMatching([
      .method, .url,
      .custom("the side service agrees") { live, _ in
        live.url.host != "api.test"
          || session.current.flatMap { blockingGet(side, through: $0) } == "from the cassette"
      },
    ])
    registry.use(Cassette(at: file, mode: .never, options: CassetteOptions(matching: matching)))
    session.withLock { $0 = registry.makeSession() }
    #expect(try await orders(through: shape, registry) == "replayed")
  }

  @Test func aCustomReplayRuleThatBlocksHoldsBackOnlyItsOwnRequest() async throws {
    let file = try cassetteAnsweringOrders()
    defer { try? FileManager.default.removeItem(at: file) }
    let released = DispatchSemaphore(value: 0)
    let arrival = Arrival()
    let matching = ReplayMatching([
      .method, .url,
      .custom("a rule that waits") { _, _ in
        arrival.signal()
        return released.wait(timeout: .now() + TestTiming.never) == .success
      },
    ])
    let registry = StubRegistry()
    registry.use(Cassette(at: file, mode: .never, options: CassetteOptions(matching: matching)))
    let blocked = Task { try await orders(through: .async, registry) }
    try await arrival.wait(within: 20)
    // Another test's stub answers while the rule still blocks.
    let other = StubRegistry()
    other.stub(.get("/now"), .text("now"))
    let now = try await withWatchdog {
      try await other.makeSession().text(from: URL(string: "https://api.test/now")!)
    }
    released.signal()
    #expect(now == "now")
    #expect(try await blocked.value == "replayed")
  }

  @Test func aResponderMayCancelAnotherTask() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/slow"), StubResponse.text("never").delayed(by: TestTiming.never))
    let session = registry.makeSession()
    let slowError = Locked<URLError?>(nil)
    let slowDone = DispatchSemaphore(value: 0)
    let slow = session.dataTask(with: .heldOpen(URL(string: "https://api.test/slow")!)) {
      _, _, error in
      slowError.withLock { $0 = error as? URLError }
      slowDone.signal()
    }
    slow.resume()
    let slowTask = Unchecked(slow)
    registry.stub(.get("/cancel")) { _ in
      slowTask.value.cancel()
      return .text(slowDone.wait(timeout: .now() + 20) == .success ? "cancelled" : "stuck")
    }
    let body = try await withWatchdog {
      try await session.text(from: URL(string: "https://api.test/cancel")!)
    }
    #expect(body == "cancelled")
    #expect(slowError.current?.code == .cancelled)
  }

  @Test func aCustomMatcherMayCancelAnotherTask() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/slow"), StubResponse.text("never").delayed(by: TestTiming.never))
    let session = registry.makeSession()
    let slow = Unchecked(session.dataTask(with: .heldOpen(URL(string: "https://api.test/slow")!)))
    slow.value.resume()
    registry.stub(
      .get("/cancel")
        && .custom("cancels /slow") { _ in
          slow.value.cancel()
          return true
        },
      .text("done"))
    let body = try await withWatchdog {
      try await session.text(from: URL(string: "https://api.test/cancel")!)
    }
    #expect(body == "done")
  }

  @Test func bothResponderFormsCompileInTypicalUsage() async throws {
    let registry = StubRegistry()
    // No `await` in the closure: the synchronous form.
    registry.stub(.get("/sync")) { request in .text("sync \(request.url.path)") }
    registry.stub(.get("/sync-throwing")) { request in
      guard request.url.query == nil else { throw URLError(.badURL) }
      return .text("sync")
    }
    // An `await` in the closure: the async form, with or without a spelled-out signature.
    registry.stub(.get("/async")) { request in
      try await Task.sleep(nanoseconds: 1_000_000)
      return .text("async \(request.url.path)")
    }
    registry.stub(.get("/async-annotated")) {
      (_: InterceptedRequest) async throws -> StubResponse in
      .text("annotated")
    }
    let session = registry.makeSession()
    #expect(try await session.text(from: URL(string: "https://api.test/sync")!) == "sync /sync")
    #expect(try await session.text(from: URL(string: "https://api.test/sync-throwing")!) == "sync")
    #expect(try await session.text(from: URL(string: "https://api.test/async")!) == "async /async")
    #expect(
      try await session.text(from: URL(string: "https://api.test/async-annotated")!) == "annotated")
    guard case .dynamic = registry.stubs[0].responder else {
      Issue.record("a closure without await should be the synchronous form")
      return
    }
    guard case .asynchronous = registry.stubs[2].responder else {
      Issue.record("a closure with await should be the async form")
      return
    }
  }

  @Test func cancellingTheRequestCancelsTheAsyncResponder() async throws {
    let registry = StubRegistry()
    let arrival = Arrival()
    let sawCancellation = Arrival()
    registry.stub(.get("/slow")) { _ async throws -> StubResponse in
      arrival.signal()
      do {
        try await Task.sleep(for: .seconds(TestTiming.never))
      } catch {
        sawCancellation.signal()
        throw error
      }
      return .text("too late")
    }
    let session = registry.makeSession()
    let task = session.dataTask(with: .heldOpen(URL(string: "https://api.test/slow")!))
    task.resume()
    try await arrival.wait(within: 20)
    task.cancel()
    try await sawCancellation.wait(within: 20)
    try await eventually { registry.requestsInFlight.isEmpty }
  }

  @Test func aThrownURLErrorReachesTheCallerUnchanged() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/offline")) { _ async throws -> StubResponse in
      throw URLError(.notConnectedToInternet)
    }
    let error = try await #require(throws: URLError.self) {
      try await registry.makeSession().data(from: URL(string: "https://api.test/offline")!)
    }
    #expect(error.code == .notConnectedToInternet)
  }

  @Test(arguments: [false, true])
  func aThrowingResponderFailsTheRequestAndIsReportedAtTheStub(async: Bool) async throws {
    struct Boom: Error {}
    let registry = StubRegistry()
    registry.beginScope(verifying: .default)
    let line = #line + 2
    if async {
      registry.stub(.get("/boom")) { _ async throws -> StubResponse in throw Boom() }
    } else {
      registry.stub(.get("/boom")) { _ throws -> StubResponse in throw Boom() }
    }
    let error = try await #require(throws: ResponderError.self) {
      try await registry.makeSession().data(from: URL(string: "https://api.test/boom")!)
    }
    #expect(error.error is Boom)
    #expect(error.description.contains("UserCodeTests.swift:\(line + (async ? 0 : 2))"))
    let failures = registry.endScope(testName: "boom()", location: SourceLocation())
    #expect(failures.count == 1)
    #expect(failures.first?.location.line == line + (async ? 0 : 2))
    #expect(failures.first?.message.contains("threw: Boom()") == true)
  }

  @Test func whatAThrowingResponderSaysIsMaskedWhereverTheErrorIsPrinted() async throws {
    struct Refused: Error, CustomStringConvertible {
      var description: String {
        "refused Authorization: Bearer s3cr3t-responder-9 for token=s3cr3t-pair-9"
      }
    }
    let registry = StubRegistry()
    registry.beginScope(verifying: .default)
    registry.stub(.get("/refused")) { _ throws -> StubResponse in throw Refused() }
    let error = try await #require(throws: ResponderError.self) {
      try await registry.makeSession().data(from: URL(string: "https://api.test/refused")!)
    }
    let failures = registry.endScope(testName: "refused()", location: SourceLocation())
    for printed in [error.description, error.localizedDescription, "\(error)"]
      + failures.map(\.message)
    {
      #expect(!printed.contains("s3cr3t"), "\(printed)")
      #expect(printed.contains("refused Authorization: Bearer ••••("), "\(printed)")
    }
    // The error itself is still the responder's, for a test that inspects it.
    #expect("\(error.error)".contains("s3cr3t-responder-9"))
  }

  @Test func aPassThroughStubIsJournaledAsPassedThrough() async throws {
    let registry = StubRegistry()
    // Port 9 (discard) on the loopback interface refuses at once; nothing leaves the machine.
    let nowhere = PassThrough(baseURL: URL(string: "http://127.0.0.1:9")!)
    registry.stub(.get("/fixed"), .passThrough(nowhere))
    registry.stub(.get("/dynamic")) { _ in .passThrough(nowhere) }
    let session = registry.makeSession()
    _ = try? await session.data(from: URL(string: "https://api.test/fixed")!)
    _ = try? await session.data(from: URL(string: "https://api.test/dynamic")!)
    let outcomes = registry.journal.map(\.outcome)
    #expect(outcomes.count == 2)
    for outcome in outcomes {
      guard case .passedThrough = outcome else {
        Issue.record("expected .passedThrough, got \(outcome)")
        continue
      }
    }
  }
}
