import Testing
import Understudy

/// The examples of Documentation/Responses.md (and its DocC article).
@Suite struct ResponsesExamples {
  let registry = StubRegistry()

  func get(_ path: String) async throws -> (String, HTTPURLResponse) {
    let url = URL(string: "https://api.example.com\(path)")!
    let (data, response) = try await registry.makeSession().data(from: url)
    return (String(decoding: data, as: UTF8.self), response as! HTTPURLResponse)
  }

  @Test func statusTextAndData() async throws {
    registry.stub(.get("/health"), .ok)
    registry.stub(.delete("/users/{id}"), .status(204))
    registry.stub(.get("/motd"), .text("Hello"))
    registry.stub(.get("/teapot"), .text("I'm a teapot", status: 418))
    registry.stub(
      .get("/logo.png"), .data(Data([0x89, 0x50, 0x4E, 0x47]), contentType: "image/png"))

    let (text, response) = try await get("/motd")
    #expect(text == "Hello")
    #expect(response.value(forHTTPHeaderField: "Content-Type") == "text/plain; charset=utf-8")
    #expect(response.value(forHTTPHeaderField: "Content-Length") == "5")
    #expect(try await get("/teapot").1.statusCode == 418)
  }

  @Test func json() async throws {
    registry.stub(.get("/users/{id}"), .json(User(id: 42, name: "Ada")))
    registry.stub(.get("/flags"), .json(["beta": true, "dark-mode": false]))
    registry.stub(.get("/raw"), .json(string: #"{"id": 1, "name": "Grace"}"#))
    registry.stub(.post("/users"), .json(User(id: 43, name: "Bob"), status: 201))

    let (body, response) = try await get("/users/42")
    #expect(try JSONDecoder().decode(User.self, from: Data(body.utf8)) == User(id: 42, name: "Ada"))
    #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
  }

  @Test func headers() async throws {
    registry.stub(
      .get("/users/{id}"),
      StubResponse.json(User(id: 42, name: "Ada"))
        .header("ETag", "\"v1\"")
        .header("Cache-Control", "no-store"))
    registry.stub(
      .get("/report.csv"), .text("a,b\n1,2", headers: ["Content-Type": "text/csv"]))

    #expect(try await get("/users/42").1.value(forHTTPHeaderField: "ETag") == "\"v1\"")
    #expect(try await get("/report.csv").1.value(forHTTPHeaderField: "Content-Type") == "text/csv")
  }

  @Test func caching() async throws {
    registry.cachesResponses = true
    let catalog = registry.stub(
      .get("/catalog"), StubResponse.text("v1").header("Cache-Control", "max-age=3600"))

    #expect(try await get("/catalog").0 == "v1")
    #expect(try await get("/catalog").0 == "v1")
    #expect(catalog.callCount == 1)
  }

  @Test func fixtures() async throws {
    // Fixtures/user.json sits beside this test file.
    registry.stub(.get("/users/42"), .fixture("Fixtures/user.json"))

    let client = UserClient(session: registry.makeSession())
    #expect(try await client.user(id: 42) == User(id: 42, name: "Ada"))
  }

  @Test func fixturesAtAURL() async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID()).json")
    try Data(#"{"id": 7, "name": "Grace"}"#.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }

    registry.stub(.get("/users/7"), .fixture(at: file))

    #expect(
      try await get("/users/7").1.value(forHTTPHeaderField: "Content-Type") == "application/json")
  }

  @Test func aMissingFixtureFailsWhereItIsDeclared() async throws {
    withKnownIssue {
      registry.stub(.get("/users/1"), .fixture("Fixtures/no-such-file.json"))
    } matching: { issue in
      "\(issue)".contains("cannot answer as declared: fixture file not found at ")
    }

    let error = await #expect(throws: URLError.self) { try await get("/users/1") }
    #expect(error?.code == .fileDoesNotExist)
  }

  @Test func templatedFixtures() async throws {
    // Fixtures/user-template.json: {"id": {{request.path.id}}, "name": "Ada"}
    registry.stub(.get("/users/{id}"), .fixture("Fixtures/user-template.json", templated: true))
    // Fixtures/created-user.json: {"id": {{counter}}, "name": "{{request.json.name}}"}
    registry.stub(
      .post("/users"), .fixture("Fixtures/created-user.json", status: 201, templated: true))

    let client = UserClient(session: registry.makeSession())
    #expect(try await client.user(id: 7) == User(id: 7, name: "Ada"))
    #expect(try await client.createUser(named: #"Lin "Q""#) == User(id: 1, name: #"Lin "Q""#))
    #expect(try await client.createUser(named: "Bo") == User(id: 2, name: "Bo"))
  }

  @Test func aMisspelledPlaceholderFailsWhereItIsDeclared() async throws {
    withKnownIssue {
      registry.stub(
        .get("/users/{id}"), .fixture("Fixtures/misspelled-template.json", templated: true))
    } matching: { issue in
      "\(issue)".contains("misspelled-template.json:3:12: unknown placeholder")
    }

    let error = await #expect(throws: URLError.self) { try await get("/users/1") }
    #expect(error?.code == .fileDoesNotExist)
  }

  @Test func failures() async throws {
    registry.stub(.get("/offline"), .failure(URLError(.notConnectedToInternet)))
    registry.stub(.get("/dns"), .failure(URLError(.cannotFindHost)))
    registry.stub(.get("/empty"), .emptyReply)
    registry.stub(.get("/users/{id}"), .failure(URLError(.timedOut)))

    let client = UserClient(session: registry.makeSession())
    let error = await #expect(throws: URLError.self) { try await client.user(id: 1) }
    #expect(error?.code == .timedOut)
  }

  @Test func requestAwareResponders() async throws {
    registry.stub(.post("/users")) { request in
      let body = try JSONDecoder().decode([String: String].self, from: request.body ?? Data())
      return .json(User(id: 99, name: body["name"] ?? "?"), status: 201)
    }

    let client = UserClient(session: registry.makeSession())
    #expect(try await client.createUser(named: "Lin") == User(id: 99, name: "Lin"))
  }

  @Test func aThrowingResponderFailsTheRequest() async throws {
    registry.stub(.post("/users")) { request in
      let body = try JSONDecoder().decode([String: String].self, from: request.body ?? Data())
      return .json(User(id: 99, name: body["name"] ?? "?"), status: 201)
    }

    var request = URLRequest(url: URL(string: "https://api.example.com/users")!)
    request.httpMethod = "POST"
    request.httpBody = Data("not json".utf8)
    let error = await #expect(throws: ResponderError.self) {
      try await registry.makeSession().data(for: request)
    }
    #expect(
      error?.description.contains("the responder of stub method == POST && path == /users") == true)
  }

  @Test func asyncResponders() async throws {
    let directory = Directory()
    registry.stub(.get("/users/{id}")) { request in
      let id = Int(request.pathParameters["id"] ?? "") ?? 0
      return .json(await directory.user(id: id))
    }

    let client = UserClient(session: registry.makeSession())
    #expect(try await client.user(id: 7) == User(id: 7, name: "Ada"))
  }

  @Test func respondersMaySendRequestsOfTheirOwn() async throws {
    registry.stub(.post("https://hooks.example.com/user-created"), .status(204))
    let hooks = registry.makeSession()
    registry.stub(.post("/users")) { request in
      var hook = URLRequest(url: URL(string: "https://hooks.example.com/user-created")!)
      hook.httpMethod = "POST"
      hook.httpBody = request.body
      _ = try await hooks.data(for: hook)
      return .json(User(id: 99, name: "Lin"), status: 201)
    }

    let client = UserClient(session: registry.makeSession())
    #expect(try await client.createUser(named: "Lin") == User(id: 99, name: "Lin"))
    #expect(registry.requests.contains { $0.url.host == "hooks.example.com" })
  }

  @Test func aSlowResponderIsBoundedByTheTimeout() async throws {
    registry.stub(.get("/users/{id}")) { _ in
      try await Task.sleep(nanoseconds: 30_000_000_000)
      return .json(User(id: 1, name: "Ada"))
    }

    var request = URLRequest(url: URL(string: "https://api.example.com/users/1")!)
    request.timeoutInterval = 0.5
    let error = await #expect(throws: URLError.self) {
      try await registry.makeSession().data(for: request)
    }
    #expect(error?.code == .timedOut)
  }

  @Test func sequences() async throws {
    registry.stub(.get("/job/1"), sequence: [.json(["state": "queued"]), .json(["state": "done"])])

    #expect(try await get("/job/1").0 == #"{"state":"queued"}"#)
    #expect(try await get("/job/1").0 == #"{"state":"done"}"#)
  }

  @Test func redirects() async throws {
    registry.stub(.get("/old"), .redirect(to: "/new", status: 301))
    registry.stub(.get("/new"), .text("moved here"))

    let (body, response) = try await get("/old")
    #expect(body == "moved here")
    #expect(response.url?.path == "/new")
  }

  @Test func passThroughRewritesAndForwards() {
    let localServer = URL(string: "http://127.0.0.1:8080")!
    registry.stub(.path(prefix: "/api/"), .passThrough(PassThrough(baseURL: localServer)))
    let permissive = StubRegistry(unmatchedRequests: .passThrough)

    #expect(registry.stubs.count == 1)
    #expect(permissive.unmatchedRequests.isPassThrough)
  }
}

extension UnmatchedRequestPolicy {
  fileprivate var isPassThrough: Bool {
    if case .passThrough = self { return true }
    return false
  }
}

/// Where the async responder example looks its users up: any actor will do.
actor Directory {
  func user(id: Int) -> User { User(id: id, name: "Ada") }
}
