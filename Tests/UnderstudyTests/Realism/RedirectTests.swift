import Testing

@testable import Understudy

/// Redirects followed inside the protocol through the same registry (Linux), with each status
/// code's method and body rules, a hop limit, and the delegate's decision.
@Suite struct RedirectTests {
  func post(_ path: String, body: String = "payload") -> URLRequest {
    var request = URLRequest(url: URL(string: "https://api.test\(path)")!)
    request.httpMethod = "POST"
    request.httpBody = Data(body.utf8)
    request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
    return request
  }

  @Test(arguments: API.allCases)
  func aChainIsFollowedToTheFinalURL(api: API) async throws {
    let registry = StubRegistry()
    registry.stub(.get("/a"), .redirect(to: "/b", status: 301))
    registry.stub(.get("/b"), .redirect(to: "https://other.test/c", status: 302))
    registry.stub(.get("https://other.test/c"), .text("final"))
    let (data, response, _) = try await withWatchdog {
      try await api.send(URLRequest(url: URL(string: "https://api.test/a")!), to: registry)
    }
    #expect(String(decoding: data, as: UTF8.self) == "final")
    #expect(response.statusCode == 200)
    #expect(response.url?.absoluteString == "https://other.test/c")
    #expect(
      registry.journal.map(\.request.url.absoluteString) == [
        "https://api.test/a", "https://api.test/b", "https://other.test/c",
      ])
    #expect(registry.journal.map { $0.response?.status } == [301, 302, 200])
  }

  @Test(arguments: [(301, "GET"), (302, "GET"), (303, "GET"), (307, "POST"), (308, "POST")])
  func eachStatusKeepsOrChangesTheMethodAndBody(status: Int, expectedMethod: String) async throws {
    let registry = StubRegistry()
    registry.stub(.post("/start"), .redirect(to: "/end", status: status))
    registry.stub(.path("/end")) { request in
      .text("\(request.method) \(request.bodyText ?? "<no body>")")
    }
    let (data, _, _) = try await withWatchdog {
      try await API.async.send(post("/start"), to: registry)
    }
    let expectedBody = expectedMethod == "POST" ? "payload" : "<no body>"
    #expect(String(decoding: data, as: UTF8.self) == "\(expectedMethod) \(expectedBody)")
  }

  /// An answer that comes later (an async responder, a delay) is concluded off the work queue;
  /// whether a delegate is asked is still decided there, from the task.
  @Test(arguments: [false, true])
  func aRedirectAnsweredLaterIsFollowedOrAsked(withDelegate: Bool) async throws {
    let registry = StubRegistry()
    registry.stub(.get("/a")) { _ async in
      try? await Task.sleep(for: .milliseconds(20))
      return .redirect(to: "/b", status: 302)
    }
    registry.stub(.get("/b"), .text("arrived"))
    // The watchdog, not the default 60 s, bounds the wait: the responder's wake-up from its sleep
    // waits its turn on the executor every test shares, which took longer than that under the
    // thread sanitizer.
    var request = URLRequest(url: URL(string: "https://api.test/a")!)
    request.timeoutInterval = TestTiming.never
    if withDelegate {
      let delegate = CollectingDelegate { $0 }
      let session = registry.makeSession(delegate: delegate)
      session.dataTask(with: request).resume()
      let result = try await withWatchdog { try await delegate.result() }
      #expect(result.status == 200)
      #expect(delegate.redirectStatuses == [302])
    } else {
      let (data, response) = try await withWatchdog { [request] in
        try await registry.makeSession().data(for: request)
      }
      #expect(String(decoding: data, as: UTF8.self) == "arrived")
      #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }
    #expect(registry.journal.map(\.request.url.path) == ["/a", "/b"])
  }

  @Test func aRedirectLoopStopsAtTheHopLimit() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/loop"), .redirect(to: "/loop"))
    let error = try await withWatchdog {
      try await errorOf {
        try await registry.makeSession().data(from: URL(string: "https://api.test/loop")!)
      }
    }
    #expect(error?.code == .httpTooManyRedirects)
    #expect(registry.journal.count == Redirect.maximumHops + 1)
  }

  @Test func theDelegateCanRefuseARedirect() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/a"), .redirect(to: "/b", status: 307))
    let target = registry.stub(.get("/b"), .text("never"))
    let delegate = CollectingDelegate { _ in nil }
    let session = registry.makeSession(delegate: delegate)
    session.dataTask(with: URL(string: "https://api.test/a")!).resume()
    let result = try await withWatchdog { try await delegate.result() }
    #expect(result.status == 307)
    #expect(result.response?.value(forHTTPHeaderField: "Location") == "/b")
    #expect(delegate.redirectStatuses == [307])
    #expect(target.callCount == 0)
  }

  @Test func theDelegateCanRewriteTheRedirect() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/a"), .redirect(to: "/b"))
    registry.stub(.get("/c"), .text("rewritten"))
    let delegate = CollectingDelegate { request in
      var changed = request
      changed.url = URL(string: "https://api.test/c")
      return changed
    }
    registry.makeSession(delegate: delegate).dataTask(with: URL(string: "https://api.test/a")!)
      .resume()
    let result = try await withWatchdog { try await delegate.result() }
    #expect(String(decoding: result.body, as: UTF8.self) == "rewritten")
    #expect(result.response?.url?.path == "/c")
  }

  /// The delegate is asked on the session's delegate queue, as URLSession asks it: one that
  /// starts a task of its own (a token refresh before following) and waits for it crashed the
  /// process when it was asked on the work queue.
  @Test func theDelegateMayStartATaskAndWaitForItBeforeAnswering() async throws {
    let tokens = StubRegistry()
    tokens.stub(.get("https://auth.test/token"), .text("t-1"))
    let tokenSession = tokens.makeSession()
    let registry = StubRegistry()
    registry.stub(.get("/a"), .redirect(to: "/b"))
    registry.stub(.get("/b") && .header("Authorization", "Bearer t-1"), .text("followed"))
    let delegate = CollectingDelegate { request in
      var next = request
      let token = blockingGet(URL(string: "https://auth.test/token")!, through: tokenSession)
      next.setValue("Bearer \(token ?? "none")", forHTTPHeaderField: "Authorization")
      return next
    }
    registry.makeSession(delegate: delegate).dataTask(with: URL(string: "https://api.test/a")!)
      .resume()
    let result = try await withWatchdog { try await delegate.result() }
    #expect(String(decoding: result.body, as: UTF8.self) == "followed")
    #expect(delegate.redirectStatuses == [302])
  }

  @Test func credentialsDoNotFollowARedirectToAnotherHost() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/a"), .redirect(to: "https://elsewhere.test/b"))
    registry.stub(.get("https://elsewhere.test/b")) { request in
      .text(request.headers["Authorization"] ?? "no credentials")
    }
    var request = URLRequest(url: URL(string: "https://api.test/a")!)
    request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
    let signed = request
    let (data, _, _) = try await withWatchdog { try await API.async.send(signed, to: registry) }
    #expect(String(decoding: data, as: UTF8.self) == "no credentials")
  }
}
