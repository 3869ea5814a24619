import Testing

@testable import Understudy

/// Pass-through to a real server on loopback, started by the test suite.
@Suite struct PassThroughTests {
  @Test func unmatchedRequestsCanPassThroughToTheNetwork() async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    let registry = StubRegistry(unmatchedRequests: .passThrough)
    registry.stub(.get("/json"), .text("stubbed"))
    let session = registry.makeSession()
    #expect(try await session.text(from: server.url("/json")) == "stubbed")
    let (data, response) = try await session.data(from: server.url("/bytes/10"))
    #expect(data == Data((0..<10).map { UInt8($0 % 251) }))
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
    #expect(try await server.hits() == 1)
    if case .passedThrough = registry.journal[1].outcome {
    } else {
      Issue.record("expected the second request to pass through")
    }
  }

  @Test func aStubCanRewriteTheRequestBeforeItGoesOut() async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    let registry = StubRegistry()
    registry.stub(
      .host("api.production.test"),
      .passThrough(PassThrough(baseURL: server.url("/echo"), addedHeaders: ["X-Env": "test"])))
    var request = URLRequest(url: URL(string: "https://api.production.test/users/7?full=1")!)
    request.httpMethod = "PUT"
    request.httpBody = Data("payload".utf8)
    let (data, _) = try await registry.makeSession().data(for: request)
    let echoed = try JSONDecoder().decode(EchoedRequest.self, from: data)
    #expect(echoed.method == "PUT")
    #expect(echoed.path == "/echo/users/7")
    #expect(echoed.query == "full=1")
    #expect(echoed.value(of: "X-Env") == "test")
    #expect(echoed.bodyText == "payload")
  }

  @Test func passThroughIsNeverInterceptedAgain() async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    let registry = StubRegistry(unmatchedRequests: .passThrough)
    for _ in 0..<5 { _ = try await registry.makeSession().data(from: server.url("/json")) }
    // One journal entry and one server hit per request: no loop back into the protocol.
    #expect(registry.journal.count == 5)
    #expect(try await server.hits() == 5)
  }

  @Test func strictByDefaultNothingReachesTheServer() async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    let registry = StubRegistry()
    await #expect(throws: URLError.self) {
      try await registry.makeSession().data(from: server.url("/json"))
    }
    #expect(try await server.hits() == 0)
  }

  @Test func realRedirectsArePassedThroughHopByHop() async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    let registry = StubRegistry(unmatchedRequests: .passThrough)
    let (data, response) = try await registry.makeSession().data(from: server.url("/redirect/2"))
    #expect(String(decoding: data, as: UTF8.self) == "done")
    #expect((response as? HTTPURLResponse)?.url?.path == "/redirect/0")
    #expect(registry.journal.map(\.request.path) == ["/redirect/2", "/redirect/1", "/redirect/0"])
  }
}

/// Cassettes bound by the trait.
@Suite struct CassetteTraitTests {
  static let chromeExport = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../Fixtures/HAR/chrome-export.har").standardizedFileURL

  @Test(.cassette(location: .file(chromeExport), options: CassetteOptions(allowsRepeats: true)))
  func theTraitReplaysItsCassette() async throws {
    let registry = try #require(StubRegistry.current)
    #expect(registry.cassette?.entryCount == 3)
    let (_, response) = try await registry.makeSession().data(
      from: URL(string: "https://shop.example.com/?ref=home")!)
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
  }

  @Test(arguments: ["Ada", "Grace Hopper"])
  func defaultNamesComeFromTheTestAndItsCase(name: String) throws {
    let arguments = TestCaseArguments.describe(Test.Case.current)
    #expect(arguments == [name])
    let cassetteName = CassetteName.forTest(named: "greets(name:)", arguments: arguments)
    // An exact slug stays as it was; one that lost the space gains a digest of the argument.
    #expect(cassetteName == (name == "Ada" ? "greets-Ada" : "greets-Grace-Hopper--24808e48"))
    let url = CassetteLocation.besideTestFile.url(
      forCassetteNamed: cassetteName, testFilePath: "/p/Tests/AppTests/GreetingTests.swift")
    #expect(url.path == "/p/Tests/AppTests/__Cassettes__/GreetingTests/\(cassetteName).har")
  }

  @Test func theRecordCommandNamesTheTest() {
    #expect(
      CassetteName.recordCommand(testNameComponents: ["ProfileTests", "loadsUser()"])
        == "UNDERSTUDY_RECORD=missing swift test --filter 'ProfileTests/loadsUser'")
  }
}
