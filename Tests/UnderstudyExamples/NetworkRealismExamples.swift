import Testing
import Understudy

/// The examples of Documentation/NetworkRealism.md and the NetworkRealism article.
@Suite struct NetworkRealismExamples {
  let registry = StubRegistry()
  let url = URL(string: "https://api.example.com/feed")!

  @Test func latencyAndBandwidth() async throws {
    registry.stub(.get("/feed"), StubResponse.text("slow").delayed(by: 0.2))
    registry.stub(
      .get("/video"), StubResponse.data(Data(count: 20_000)).throttled(bytesPerSecond: 100_000))
    registry.stub(.get("/stream"), StubResponse.text("body").bodyDelayed(by: 0.1))

    let start = Date()
    _ = try await registry.makeSession().data(from: url)
    #expect(Date().timeIntervalSince(start) >= 0.19)
  }

  @Test func streamedBodies() async throws {
    registry.stub(
      .get("/events"),
      .streaming(
        [
          (Data("data: 1\n\n".utf8), after: 0),
          (Data("data: 2\n\n".utf8), after: 0.05),
        ],
        headers: ["Content-Type": "text/event-stream"]))

    let (data, _) = try await registry.makeSession().data(
      from: URL(string: "https://api.example.com/events")!)
    #expect(String(decoding: data, as: UTF8.self) == "data: 1\n\ndata: 2\n\n")
  }

  @Test func timeouts() async throws {
    registry.stub(.get("/feed"), StubResponse.text("too late").delayed(by: 5))

    var request = URLRequest(url: url)
    request.timeoutInterval = 0.2
    let error = await #expect(throws: URLError.self) {
      try await registry.makeSession().data(for: request)
    }

    #expect(error?.code == .timedOut)
  }

  @Test func sessionTimeouts() async throws {
    registry.stub(.get("/feed"), StubResponse.text("too late").delayed(by: 5))

    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 0.2
    let session = registry.makeSession(configuration: configuration)

    let error = await #expect(throws: URLError.self) { try await session.data(from: url) }
    #expect(error?.code == .timedOut)
  }

  @Test func redirects() async throws {
    registry.stub(.get("/feed"), .redirect(to: "https://cdn.example.com/feed.json", status: 302))
    registry.stub(.get("https://cdn.example.com/feed.json"), .json(["items": [String]()]))

    let (_, response) = try await registry.makeSession().data(from: url)

    #expect(response.url?.absoluteString == "https://cdn.example.com/feed.json")
    #expect(registry.journal.map { $0.response?.status } == [302, 200])
  }

  @Test func faults() async throws {
    registry.stub(.get("/feed"), .failure(URLError(.networkConnectionLost)))
    registry.stub(
      .get("/big"),
      StubResponse.text(String(repeating: "x", count: 1_000)).droppingConnection(afterBytes: 300))
    registry.stub(.get("/nothing"), .emptyReply)

    let big = URL(string: "https://api.example.com/big")!
    let error = await #expect(throws: URLError.self) {
      try await registry.makeSession().data(from: big)
    }
    #expect(error?.code == .networkConnectionLost)
  }

  @Test func cookies() async throws {
    registry.stub(.post("/login"), StubResponse.ok.header("Set-Cookie", "session=abc123; Path=/"))
    registry.stub(
      .get("/me") && .header("Cookie", containing: "session=abc123"), .text("signed in"))
    let session = registry.makeSession()

    var login = URLRequest(url: URL(string: "https://api.example.com/login")!)
    login.httpMethod = "POST"
    _ = try await session.data(for: login)
    let (data, _) = try await session.data(from: URL(string: "https://api.example.com/me")!)

    #expect(String(decoding: data, as: UTF8.self) == "signed in")
  }

  @Test func cancellation() async throws {
    registry.stub(.get("/feed"), StubResponse.text("late").delayed(by: 3600))
    let session = registry.makeSession()

    let task = Task { try await session.data(for: URLRequest(url: url, timeoutInterval: 3600)) }
    _ = try await registry.request(matching: .get("/feed"), timeout: .seconds(600))
    task.cancel()

    let error = await #expect(throws: URLError.self) { try await task.value }
    #expect(error?.code == .cancelled)
  }

  @Test func uploads() async throws {
    registry.stub(.post("/photos") && .body(containing: "JPEG"), .status(201))
    var request = URLRequest(url: URL(string: "https://api.example.com/photos")!)
    request.httpMethod = "POST"

    let (_, response) = try await registry.makeSession().upload(
      for: request, from: Data("JPEG…".utf8))

    #expect((response as? HTTPURLResponse)?.statusCode == 201)
    #expect(registry.requests.first?.body == Data("JPEG…".utf8))
  }

  #if canImport(FoundationNetworking)
    @Test func downloadsAreRefusedOnLinux() async throws {
      registry.stub(.get("/archive.zip"), .data(Data([0x50, 0x4B])))
      let archive = URL(string: "https://api.example.com/archive.zip")!

      let error = await #expect(throws: URLError.self) {
        try await registry.makeSession().download(from: archive)
      }

      #expect(error?.code == .unsupportedURL)
    }
  #endif

  @Test func basicChallengesDoNotHang() async throws {
    registry.stub(
      .get("/private"),
      StubResponse.status(401).header("WWW-Authenticate", #"Basic realm="api""#))

    let (_, response) = try await registry.makeSession().data(
      from: URL(string: "https://api.example.com/private")!)
    let challenge = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "WWW-Authenticate")

    #expect((response as? HTTPURLResponse)?.statusCode == 401)
    #expect(challenge?.trimmingCharacters(in: .whitespaces) == #"Basic realm="api""#)
  }
}
