import Testing
import Understudy

/// The examples of Documentation/Matching.md and the Matching article.
@Suite struct MatchingExamples {
  let session: URLSession
  let registry: StubRegistry

  init() {
    registry = StubRegistry()
    session = registry.makeSession()
  }

  func send(_ method: String, _ url: String, body: String? = nil) async throws -> String {
    String(decoding: try await exchange(method, url, body: body).0, as: UTF8.self)
  }

  func status(_ method: String, _ url: String, body: String? = nil) async throws -> Int {
    (try await exchange(method, url, body: body).1 as? HTTPURLResponse)?.statusCode ?? 0
  }

  func exchange(_ method: String, _ url: String, body: String?) async throws -> (Data, URLResponse)
  {
    var request = URLRequest(url: URL(string: url)!)
    request.httpMethod = method
    request.httpBody = body.map { Data($0.utf8) }
    return try await session.data(for: request)
  }

  @Test func methodsAndTargets() async throws {
    registry.stub(.get("/users/{id}"), .text("any host"))
    registry.stub(.post("https://api.example.com/users"), .text("created"))
    registry.stub(.request("PURGE", "/cache/{key}"), .text("purged"))
    registry.stub(.get("/search?q=swift"), .text("results"))

    #expect(try await send("GET", "https://staging.example.com/users/7") == "any host")
    #expect(try await send("POST", "https://api.example.com/users") == "created")
    #expect(try await send("PURGE", "https://cdn.example.com/cache/logo") == "purged")
    #expect(try await send("GET", "https://api.example.com/search?page=2&q=swift") == "results")
  }

  @Test func pathTemplatesCaptureParameters() async throws {
    registry.stub(.get("/users/{id}/posts/{post}")) { request in
      .text("post \(request.pathParameters["post"]!) of user \(request.pathParameters["id"]!)")
    }
    registry.stub(.get("/files/{path...}")) { request in
      .text("file \(request.pathParameters["path"]!)")
    }

    #expect(try await send("GET", "https://api.example.com/users/7/posts/3") == "post 3 of user 7")
    #expect(try await send("GET", "https://api.example.com/files/a/b.txt") == "file a/b.txt")
  }

  @Test func prefixesAndRegularExpressions() async throws {
    registry.stub(.path(prefix: "/v2/"), .status(410))
    registry.stub(.path(matching: #"^/orders/(?<number>\d+)$"#)) { request in
      .text("order \(request.pathParameters["number"]!)")
    }

    #expect(try await send("GET", "https://api.example.com/orders/1234") == "order 1234")
  }

  @Test func exactURLs() async throws {
    registry.stub(.url("https://api.example.com/search?q=swift&page=2"), .text("page 2"))

    // Query order and the default port do not matter; every item must be there.
    #expect(try await send("GET", "https://api.example.com:443/search?page=2&q=swift") == "page 2")
  }

  @Test func queries() async throws {
    registry.stub(.get("/search") && .query("q", "swift testing"), .text("by value"))
    registry.stub(.get("/feed") && .query("cursor"), .text("next page"))
    registry.stub(
      .get("/items") && .query(containing: ["sort": "asc", "page": "2"]), .text("some"))
    registry.stub(
      .get("/export") && .query(exactly: [URLQueryItem(name: "format", value: "csv")]),
      .text("exactly"))

    #expect(try await send("GET", "https://api.example.com/search?q=swift%20testing") == "by value")
    #expect(try await send("GET", "https://api.example.com/feed?cursor=abc") == "next page")
    #expect(try await send("GET", "https://api.example.com/items?page=2&x=1&sort=asc") == "some")
    #expect(try await send("GET", "https://api.example.com/export?format=csv") == "exactly")
  }

  @Test func headers() async throws {
    registry.stub(.get("/me") && .header("Accept", "application/json"), .text("json"))
    registry.stub(.post("/upload") && .header("Content-Type", containing: "multipart"), .ok)
    registry.stub(
      .get("/me") && .header("Authorization", matching: "^Bearer [A-Za-z0-9._-]+$"), .ok)
    registry.stub(.get("/traced") && .header("X-Request-ID"), .ok)
    registry.stub(.get("/public") && .noHeader("Authorization"), .text("anonymous"))

    var request = URLRequest(url: URL(string: "https://api.example.com/me")!)
    request.setValue("application/json", forHTTPHeaderField: "accept")
    let (data, _) = try await session.data(for: request)
    #expect(String(decoding: data, as: UTF8.self) == "json")
    #expect(try await send("GET", "https://api.example.com/public") == "anonymous")
  }

  @Test func bodies() async throws {
    registry.stub(.post("/echo") && .body("ping"), .text("exact"))
    registry.stub(.post("/log") && .body(containing: "ERROR"), .text("contains"))
    registry.stub(.post("/sms") && .body(matching: #"^\+\d{11}$"#), .text("regex"))
    registry.stub(.post("/blob") && .body(Data([0xCA, 0xFE])), .text("bytes"))
    registry.stub(.post("/login") && .formBody(["user": "ann", "remember": "on"]), .text("form"))

    #expect(try await send("POST", "https://api.example.com/echo", body: "ping") == "exact")
    #expect(try await send("POST", "https://api.example.com/sms", body: "+14155550100") == "regex")
    #expect(
      try await send("POST", "https://api.example.com/login", body: "user=ann&remember=on&x=1")
        == "form")
  }

  /// A `multipart/form-data` upload of `parts` (name, file name, Content-Type, content).
  func upload(_ path: String, _ parts: [(String, String?, String?, Data)]) async throws -> Int {
    let boundary = "example-boundary"
    var body = Data()
    for (name, filename, type, content) in parts {
      var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\""
      if let filename { head += "; filename=\"\(filename)\"" }
      if let type { head += "\r\nContent-Type: \(type)" }
      body += Data((head + "\r\n\r\n").utf8) + content + Data("\r\n".utf8)
    }
    body += Data("--\(boundary)--\r\n".utf8)
    var request = URLRequest(url: URL(string: "https://api.example.com\(path)")!)
    request.httpMethod = "POST"
    request.setValue(
      "multipart/form-data; boundary=\(boundary)", forHTTPHeaderField: "Content-Type")
    let (_, response) = try await registry.makeSession().upload(for: request, from: body)
    return (response as! HTTPURLResponse).statusCode
  }

  @Test func multipartParts() async throws {
    let png = Data([0x89, 0x50, 0x4E, 0x47])
    registry.stub(
      .post("/avatar")
        && .multipartPart("avatar", filename: "me.png", contentType: "image/png")
        && .multipartPart("meta", content: .jsonSubset(["user": "ann"])),
      .status(201))
    registry.stub(
      .post("/notes") && .multipartPart("text", content: .text("hello"))
        && .multipartPart("file", content: .data(png)),
      .status(202))

    let meta = Data(#"{"user":"ann","crop":[0,0,64,64]}"#.utf8)
    #expect(
      try await upload(
        "/avatar",
        [("meta", nil, "application/json", meta), ("avatar", "me.png", "image/png", png)])
        == 201)
    #expect(
      try await upload(
        "/notes", [("text", nil, nil, Data("hello".utf8)), ("file", "a.bin", nil, png)])
        == 202)
  }

  @Test func multipartMismatchesNameThePart() {
    let pattern: RequestPattern = .post("/avatar") && .multipartPart("avatar", filename: "me.png")
    let boundary = "b"
    let body =
      "--b\r\nContent-Disposition: form-data; name=\"avatar\"; filename=\"you.png\"\r\n\r\nx\r\n"
      + "--b\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\nhunter2\r\n--b--\r\n"
    let request = InterceptedRequest(
      method: "POST", url: URL(string: "https://api.example.com/avatar")!,
      headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"], body: Data(body.utf8))

    #expect(request.multipartParts?.map(\.name) == ["avatar", "password"])
    #expect(
      pattern.explain(request).mismatches.map(\.description)
        == [#"part avatar: expected filename "me.png", got filename "you.png""#])
  }

  @Test func jsonBodies() async throws {
    struct NewUser: Encodable, Sendable {
      var name: String
      var role: String
    }
    registry.stub(.post("/users") && .jsonBody(["name": "Ann", "tags": ["a", "b"]]), .status(201))
    registry.stub(.post("/admins") && .jsonBody(subset: ["role": "admin"]), .status(201))
    registry.stub(.post("/staff") && .jsonBody(encoding: NewUser(name: "Ann", role: "dev")), .ok)

    let body = #"{ "tags": ["a", "b"], "name": "Ann" }"#
    #expect(try await status("POST", "https://api.example.com/users", body: body) == 201)
    let admin = #"{"name":"Bob","role":"admin"}"#
    #expect(try await status("POST", "https://api.example.com/admins", body: admin) == 201)
  }

  @Test func customPredicates() async throws {
    registry.stub(
      .post("/batch")
        && .custom("at most 3 lines") {
          String(decoding: $0.body ?? Data(), as: UTF8.self).split(separator: "\n").count <= 3
        },
      .ok)

    #expect(try await send("POST", "https://api.example.com/batch", body: "a\nb") == "")
  }

  @Test func combining() async throws {
    let either: RequestPattern = .get("/health") || .get("/status")
    let notAdmin: RequestPattern = .path(prefix: "/admin/") && !.header("X-Admin", "yes")
    registry.stub(either, .text("up"))
    registry.stub(notAdmin, .status(403))

    #expect(try await send("GET", "https://api.example.com/status") == "up")
    #expect("\(notAdmin)" == "path has prefix /admin/ && !(header X-Admin == yes)")
  }

  @Test func laterStubsTakePrecedence() async throws {
    registry.stub(.get("/users/{id}"), .json(User(id: 0, name: "Anyone")))
    registry.stub(.get("/users/7"), .json(User(id: 7, name: "Grace")))

    let client = UserClient(session: session)
    #expect(try await client.user(id: 7).name == "Grace")
    #expect(try await client.user(id: 8).name == "Anyone")
  }

  @Test func limitsAndSequences() async throws {
    registry.stub(.get("/token"), .text("fallback"))
    registry.stub(.get("/token"), .text("first"), limit: .once)
    registry.stub(.get("/flaky"), sequence: [.status(503), .status(503), .text("ok")])

    #expect(try await send("GET", "https://api.example.com/token") == "first")
    #expect(try await send("GET", "https://api.example.com/token") == "fallback")
    #expect(try await status("GET", "https://api.example.com/flaky") == 503)
    #expect(try await status("GET", "https://api.example.com/flaky") == 503)
    #expect(try await send("GET", "https://api.example.com/flaky") == "ok")
  }

  @Test func scenarios() async throws {
    registry.stub(.get("/cart"), .json([String]()), scenario: ScenarioStep("cart", when: "started"))
    registry.stub(
      .post("/cart/items"), .status(201),
      scenario: ScenarioStep("cart", when: "started", then: "filled"))
    registry.stub(.get("/cart"), .json(["book"]), scenario: ScenarioStep("cart", when: "filled"))

    #expect(try await send("GET", "https://api.example.com/cart") == "[]")
    _ = try await send("POST", "https://api.example.com/cart/items", body: "book")
    #expect(try await send("GET", "https://api.example.com/cart") == #"["book"]"#)
    #expect(registry.state(ofScenario: "cart") == "filled")
  }

  @Test func explainingAMismatch() {
    let pattern: RequestPattern = .get("/users/{id}") && .header("Accept", "application/json")
    let request = InterceptedRequest(
      url: URL(string: "https://api.example.com/users/7")!, headers: ["Accept": "text/html"])

    let explanation = pattern.explain(request)

    #expect(!explanation.isMatch)
    #expect(explanation.matchedFields == ["method", "path"])
    #expect(
      explanation.mismatches.map(\.description) == [
        "header Accept: expected == application/json, got text/html"
      ])
  }

  @Test func problemsInPatterns() {
    let pattern: RequestPattern = .get("/users/{id")

    #expect(
      pattern.problems == [
        #"Path template "/users/{id" has an unbalanced "{" in "{id"; close each placeholder, as in "{id}"."#
      ])
  }
}
