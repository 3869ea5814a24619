import Testing

@testable import Understudy

/// Errors, dropped connections, empty replies and bodies that do not fit their content type.
@Suite struct FaultTests {
  let url = URL(string: "https://api.test/f")!

  @Test(arguments: API.allCases)
  func anyURLErrorReachesEveryAPI(api: API) async throws {
    let registry = StubRegistry()
    registry.stub(.get("/f"), .failure(URLError(.cannotFindHost)))
    let error = try await withWatchdog {
      try await errorOf { try await api.send(URLRequest(url: url), to: registry) }
    }
    #expect(error?.code == .cannotFindHost)
  }

  @Test func aCustomErrorTypeIsPassedThrough() async throws {
    struct Teapot: Error, Equatable {}
    let registry = StubRegistry()
    registry.stub(.get("/f"), .failure(Teapot()))
    await #expect(throws: Teapot.self) { try await registry.makeSession().data(from: url) }
  }

  @Test(arguments: API.allCases)
  func aConnectionDroppedMidBodyFailsAfterThePartialBody(api: API) async throws {
    let registry = StubRegistry()
    registry.stub(
      .get("/f"),
      StubResponse.text(String(repeating: "x", count: 1000)).droppingConnection(afterBytes: 300))
    do {
      _ = try await withWatchdog { try await api.send(URLRequest(url: url), to: registry) }
      Issue.record("expected a dropped connection")
    } catch let failure as DelegateFailure {
      #expect(failure.urlError?.code == .networkConnectionLost)
      #expect(failure.body.count == 300)
    } catch let error as URLError {
      #expect(error.code == .networkConnectionLost)
    }
  }

  @Test func anEmptyReplyFailsAsAServerThatSentNothing() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/f"), .emptyReply)
    let error = try await errorOf { try await registry.makeSession().data(from: url) }
    #expect(error?.code == .zeroByteResource)
  }

  @Test func aBodyThatDoesNotFitItsContentTypeIsDeliveredAsIs() async throws {
    struct Payload: Decodable { let id: Int }
    let registry = StubRegistry()
    registry.stub(.get("/f"), .data(Data("{\"id\": ".utf8), contentType: "application/json"))
    let (data, response) = try await registry.makeSession().data(from: url)
    #expect(
      (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type")
        == "application/json")
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(Payload.self, from: data) }
  }
}

/// Cancellation while a stub is delayed. Cancellation always lands well before the answer is
/// due: on Swift 6.3.x cancelling a Swift Task at the very instant its answer is delivered can
/// deadlock inside FoundationNetworking (swift-corelibs-foundation #5412, fixed in 6.4).
@Suite struct CancellationTests {
  let url = URL(string: "https://api.test/slow")!

  /// A registry whose stub signals `arrival` when a request reaches it and answers only after
  /// ``TestTiming/never``, so the cancellation under test always comes first.
  func slowRegistry(_ arrival: Arrival) -> StubRegistry {
    let registry = StubRegistry()
    registry.stub(.get("/slow")) { _ in
      arrival.signal()
      return StubResponse.text("too late").delayed(by: TestTiming.never)
    }
    return registry
  }

  @Test func taskCancelFailsWithCancelledAndTheStubNeverAnswers() async throws {
    let arrival = Arrival()
    let registry = slowRegistry(arrival)
    let session = registry.makeSession()
    let outcome = Locked<(error: URLError?, calls: Int)>((nil, 0))
    let task = session.dataTask(with: .heldOpen(url)) { _, _, error in
      outcome.withLock {
        $0.error = error as? URLError
        $0.calls += 1
      }
    }
    task.resume()
    try await arrival.wait(within: 20)
    task.cancel()
    try await eventually { outcome.current.calls > 0 }
    #expect(outcome.current.error?.code == .cancelled)
    #expect(registry.requestsInFlight.isEmpty)
    // The stub's pending answer was cancelled with the task: nothing more ever arrives.
    try await Task.sleep(nanoseconds: 500_000_000)
    #expect(outcome.current.calls == 1)
    #expect(registry.journal.first?.response?.status == nil)
  }

  @Test func swiftTaskCancellationFailsWithCancelled() async throws {
    let arrival = Arrival()
    let registry = slowRegistry(arrival)
    let session = registry.makeSession()
    let work = Task { try await session.data(for: .heldOpen(url)) }
    try await arrival.wait(within: 20)
    work.cancel()
    let error = try await withWatchdog { try await errorOf { try await work.value } }
    #expect(error?.code == .cancelled)
    #expect(registry.requestsInFlight.isEmpty)
  }

  @Test func invalidateAndCancelCancelsDelayedStubs() async throws {
    let arrival = Arrival()
    let registry = slowRegistry(arrival)
    let session = registry.makeSession()
    let work = Task { try await session.data(for: .heldOpen(url)) }
    try await arrival.wait(within: 20)
    session.invalidateAndCancel()
    let error = try await withWatchdog { try await errorOf { try await work.value } }
    #expect(error?.code == .cancelled)
    #expect(registry.requestsInFlight.isEmpty)
  }

  enum Cancelling: String, CaseIterable, Sendable {
    case theTask, theSwiftTask, theSession
  }

  /// An async responder may await a request of its own; cancelling the outer request cancels the
  /// responder, and with it that inner request. Cancelling it where `stopLoading` runs (the work
  /// queue) crashed the process: the inner task's cancel waits for that very queue.
  @Test(arguments: Cancelling.allCases)
  func cancellingARequestWhoseResponderAwaitsAnotherNeitherCrashesNorHangs(
    cancelling: Cancelling
  ) async throws {
    let registry = StubRegistry()
    registry.stub(.get("/inner"), StubResponse.text("inner").delayed(by: TestTiming.never))
    let session = registry.makeSession()
    let innerCancelled = Locked(false)
    registry.stub(.get("/outer")) { _ async throws in
      do {
        var inner = URLRequest(url: URL(string: "https://api.test/inner")!)
        inner.timeoutInterval = TestTiming.never
        _ = try await session.data(for: inner)
      } catch {
        innerCancelled.withLock { $0 = (error as? URLError)?.code == .cancelled }
        throw error
      }
      return .text("outer")
    }
    // Only the cancel may end either request: the test's next step waits its turn on the executor
    // every test shares, and took over the default 60 s under the thread sanitizer.
    var outer = URLRequest(url: URL(string: "https://api.test/outer")!)
    outer.timeoutInterval = TestTiming.never
    let error: URLError?
    switch cancelling {
    case .theTask:
      let outcome = Locked<(URLError?, Bool)>((nil, false))
      let task = session.dataTask(with: outer) { _, _, error in
        outcome.withLock { $0 = (error as? URLError, true) }
      }
      task.resume()
      try await eventually(within: 20) { registry.isInFlight("/inner") }
      task.cancel()
      try await eventually { outcome.current.1 }
      error = outcome.current.0
    case .theSwiftTask, .theSession:
      let work = Task { [outer] in try await session.data(for: outer) }
      try await eventually(within: 20) { registry.isInFlight("/inner") }
      if cancelling == .theSwiftTask { work.cancel() } else { session.invalidateAndCancel() }
      error = try await withWatchdog { try await errorOf { try await work.value } }
    }
    #expect(error?.code == .cancelled)
    try await eventually { innerCancelled.current }
  }

  /// `invalidateAndCancel()` cancels the outer request and the responder's own request at
  /// once. Cancelling the responder's Swift task as well deadlocked the process's URLSession
  /// work queue within one or two rounds (swift-corelibs-foundation #5412): every later
  /// request anywhere in the process hung.
  @Test func invalidatingTheSessionOfAResponderAwaitingItsOwnRequestNeverDeadlocks()
    async throws
  {
    for round in 0..<50 {
      let registry = StubRegistry()
      registry.stub(.get("/inner"), StubResponse.text("inner").delayed(by: TestTiming.never))
      let session = registry.makeSession()
      let innerError = Locked<URLError?>(nil)
      registry.stub(.get("/outer")) { _ async throws in
        do {
          _ = try await session.data(for: .heldOpen(URL(string: "https://api.test/inner")!))
        } catch {
          innerError.withLock { $0 = error as? URLError }
          throw error
        }
        return .text("outer")
      }
      let work = Task {
        try await session.data(for: .heldOpen(URL(string: "https://api.test/outer")!))
      }
      // Not sooner: a request the responder made on the session after it was invalidated would
      // never start, and time out.
      try await eventually(within: 20) { registry.isInFlight("/inner") }
      session.invalidateAndCancel()
      let error = try await withWatchdog { try await errorOf { try await work.value } }
      #expect(error?.code == .cancelled, "round \(round)")
      try await eventually { innerError.current != nil }
      #expect(innerError.current?.code == .cancelled, "round \(round)")
    }
  }

  @Test func manyCancellationsLongBeforeTheAnswerNeitherCrashNorHang() async throws {
    let arrival = Arrival()
    let registry = slowRegistry(arrival)
    let session = registry.makeSession()
    for _ in 0..<40 {
      let work = Task { try await session.data(for: .heldOpen(url)) }
      try await arrival.wait(within: 20)
      work.cancel()
      let error = try await withWatchdog { try await errorOf { try await work.value } }
      #expect(error?.code == .cancelled)
    }
    #expect(registry.journal.count == 40)
  }
}

/// Set-Cookie stored in the session's cookie storage and sent on later requests.
@Suite struct CookieTests {
  @Test func setCookieIsStoredAndSentOnLaterMatchingRequests() async throws {
    let registry = StubRegistry()
    registry.stub(.post("/login"), StubResponse.ok.header("Set-Cookie", "session=abc123; Path=/"))
    registry.stub(
      .get("/me") && .header("Cookie", containing: "session=abc123"), .text("signed in"))
    registry.stub(.get("/me") && .noHeader("Cookie"), .text("anonymous"))
    let session = registry.makeSession()
    let me = URL(string: "https://api.test/me")!
    #expect(try await session.text(from: me) == "anonymous")
    var login = URLRequest(url: URL(string: "https://api.test/login")!)
    login.httpMethod = "POST"
    _ = try await session.data(for: login)
    #expect(session.configuration.httpCookieStorage?.cookies(for: me)?.first?.value == "abc123")
    #expect(try await session.text(from: me) == "signed in")
  }

  @Test func cookiesSetDuringARedirectReachTheNextHop() async throws {
    let registry = StubRegistry()
    registry.stub(
      .get("/start"), StubResponse.redirect(to: "/next").header("Set-Cookie", "step=1; Path=/"))
    registry.stub(.get("/next")) { .text($0.headers["Cookie"] ?? "none") }
    #expect(
      try await registry.makeSession().text(from: URL(string: "https://api.test/start")!)
        == "step=1")
  }
}

/// Upload and download tasks, and 401 challenges.
@Suite struct TaskKindTests {
  #if canImport(FoundationNetworking)
    @Test func downloadTasksFailAtOnceWithAnExplanationOnLinux() async throws {
      let registry = StubRegistry()
      registry.stub(.get("/file.zip"), .data(Data([1, 2, 3])))
      let error = try await withWatchdog {
        try await errorOf {
          try await registry.makeSession().download(from: URL(string: "https://api.test/file.zip")!)
        }
      }
      #expect(error?.code == .unsupportedURL)
      #expect(
        error?.localizedDescription.contains("download tasks cannot be stubbed on Linux") == true)
    }
  #endif

  @Test(arguments: API.allCases)
  func aStubbed401WithABasicChallengeNeitherHangsNorEscapes(api: API) async throws {
    let registry = StubRegistry()
    registry.stub(
      .get("/secret"),
      StubResponse.text("who are you?", status: 401).header(
        "WWW-Authenticate", #"Basic realm="test""#))
    let (data, response, _) = try await withWatchdog {
      try await api.send(URLRequest(url: URL(string: "https://api.test/secret")!), to: registry)
    }
    #expect(response.statusCode == 401)
    #expect(String(decoding: data, as: UTF8.self) == "who are you?")
    let challenge = response.value(forHTTPHeaderField: "WWW-Authenticate")
    #expect(challenge?.trimmingCharacters(in: .whitespaces) == #"Basic realm="test""#)
    #expect(registry.journal.count == 1)
  }
}

extension StubRegistry {
  /// Whether a request for `path` is in flight: the cancel a test sends next reaches it.
  func isInFlight(_ path: String) -> Bool {
    requestsInFlight.contains { $0.url.path == path }
  }
}
