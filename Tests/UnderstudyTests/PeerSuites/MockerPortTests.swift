import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Mocker's public suite (`MockerTests`, `MockTests`) in Understudy's words, as a regression net
/// for users migrating: each test keeps its peer's scenario and assertions, on fake hosts, with a
/// registry of its own. Callbacks are in `MockerPortTests+Callbacks.swift`, requests nothing
/// mocks in `MockerPortTests+Unmocked.swift`.
@Suite struct MockerPortTests {
  /// The first bytes of a PNG file: what the peer's avatar fixture stands for.
  static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D])
  /// The peer's `example.json` fixture, written here.
  static let exampleJSON = Data(#"{"name": "Mocker", "owner": "WeTransfer"}"#.utf8)

  /// The document `exampleJSON` describes.
  struct Framework: Decodable, Equatable {
    let name: String?
    let owner: String?
  }

  private func header(_ response: URLResponse, _ name: String) -> String? {
    (response as? HTTPURLResponse)?.value(forHTTPHeaderField: name)
  }

  /// Mocker's `testImageURLDataRequest`.
  @Test func anImageStubAnswersItsBytesForItsURL() async throws {
    let registry = StubRegistry()
    let url = URL(string: "https://avatars.test/u/26250426?v=4&s=400")!
    registry.stub(.method(.get) && .url(url), .data(Self.png, contentType: "image/png"))
    let (data, response) = try await registry.makeSession().data(from: url)
    #expect(data == Self.png)
    #expect(header(response, "Content-Type") == "image/png")
  }

  /// Mocker's `testImageExtensionDataRequest`.
  @Test func aStubForAFileExtensionAnswersAnyURLWithIt() async throws {
    let registry = StubRegistry()
    registry.stub(
      .method(.get) && .path(matching: #"\.png$"#), .data(Self.png, contentType: "image/png"))
    let (data, _) = try await registry.makeSession().data(
      from: URL(string: "https://www.wetransfer.test/sample-image.png")!)
    #expect(data == Self.png)
  }

  /// Mocker's `testSpecificURLOverGenericMocks`.
  @Test func aStubForTheURLAnswersBeforeAStubForItsExtension() async throws {
    let registry = StubRegistry()
    let url = URL(string: "https://www.wetransfer.test/sample-image.png")!
    registry.stub(.method(.get) && .path(matching: #"\.png$"#), .status(400))
    registry.stub(.get(url.absoluteString), .data(Self.png, contentType: "image/png"))
    let (data, response) = try await registry.makeSession().data(from: url)
    #expect(data == Self.png)
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
  }

  /// Mocker's `testIgnoreQueryMocking`.
  @Test func aTargetWithAQueryAcceptsFurtherItems() async throws {
    let registry = StubRegistry()
    let mocked = "https://www.wetransfer.test/sample-image.png?width=200&height=200"
    registry.stub(.get(mocked), .data(Self.png, contentType: "image/png"))
    let sent = URL(string: mocked + "&" + UUID().uuidString)!
    let (data, _) = try await registry.makeSession().data(from: sent)
    #expect(data == Self.png)
  }

  /// Mocker's `testJSONRequest`.
  @Test func aJSONStubDecodes() async throws {
    let registry = StubRegistry()
    let url = URL(string: "https://www.wetransfer.test/example.json")!
    registry.stub(
      .get(url.absoluteString), .data(Self.exampleJSON, contentType: "application/json"))
    let (data, _) = try await registry.makeSession().data(from: url)
    let framework = try JSONDecoder().decode(Framework.self, from: data)
    #expect(framework == Framework(name: "Mocker", owner: "WeTransfer"))
  }

  /// Mocker's `testNoContentType`.
  @Test func aStatusAloneHasAnEmptyBodyAndNoContentType() async throws {
    let registry = StubRegistry()
    var request = URLRequest(url: URL(string: "https://www.wetransfer.test/api/foobar")!)
    request.httpMethod = "PUT"
    registry.stub(.put("https://www.wetransfer.test/api/foobar"), .status(202))
    let (data, response) = try await registry.makeSession().data(for: request)
    #expect((response as? HTTPURLResponse)?.statusCode == 202)
    #expect(data == Data())
    #expect(header(response, "Content-Type") == nil)
  }

  /// Mocker's `testAdditionalHeaders`.
  @Test func aStubsHeadersReachTheCaller() async throws {
    let registry = StubRegistry()
    let url = URL(string: "https://mocker.test/headers")!
    registry.stub(
      .get(url.absoluteString), StubResponse.json([String]()).header("Testkey", "testvalue"))
    let (_, response) = try await registry.makeSession().data(from: url)
    #expect(header(response, "Testkey") == "testvalue")
  }

  /// Mocker's `testMockOverriding`.
  @Test func aStubRegisteredLaterForTheSameRequestAnswersInstead() async throws {
    let registry = StubRegistry()
    let url = URL(string: "https://mocker.test/override")!
    registry.stub(
      .get(url.absoluteString), StubResponse.json([String]()).header("testkey", "testvalue"))
    registry.stub(
      .get(url.absoluteString), StubResponse.json([String]()).header("Newkey", "newvalue"))
    let (_, response) = try await registry.makeSession().data(from: url)
    #expect(header(response, "Newkey") == "newvalue")
    #expect(header(response, "testkey") == nil)
  }

  /// Mocker's `testCustomURLSession`: a session the caller builds from a configuration.
  @Test func aSessionBuiltFromTheRegistrysConfigurationIsAnswered() async throws {
    let registry = StubRegistry()
    registry.stub(
      .method(.get) && .path(matching: #"\.png$"#), .data(Self.png, contentType: "image/png"))
    let configuration = registry.makeSessionConfiguration(from: .default)
    let session = URLSession(configuration: configuration)
    let (data, _) = try await session.data(
      from: URL(string: "https://www.wetransfer.test/sample-image.png")!)
    #expect(data == Self.png)
  }

  /// Mocker's `testDelayedMockCancelation`.
  @Test func aDelayedAnswerCanBeCancelled() async throws {
    let registry = StubRegistry()
    let url = URL(string: "https://mocker.test/slow")!
    // A delay no loaded machine outlasts: under the thread sanitizer a test has waited 98 s
    // between two of its steps, and a 5 s answer came before the cancel.
    registry.stub(
      .get(url.absoluteString), StubResponse.json([String]()).delayed(by: TestTiming.never))
    let session = registry.makeSession()
    let task = Task { try await session.data(for: .heldOpen(url)) }
    // Cancel once the request is in flight, well before the answer (see NetworkRealism.md).
    _ = try await registry.request(matching: .get(url.absoluteString), timeout: .seconds(600))
    task.cancel()
    let error = try await errorOf { try await task.value }
    #expect(error?.code == .cancelled)
  }

  /// Mocker's `testDelayedMock`: the delayed answer, asked first, has not arrived when the
  /// immediate one has. Its delay is one no loaded machine outlasts (a 1 s delay came first
  /// when the test waited its turn), so the test cancels it rather than wait for it.
  @Test func aDelayedAnswerArrivesAfterAnImmediateOne() async throws {
    let registry = StubRegistry()
    let target = "https://mocker.test/timing"
    registry.stub(.get(target), StubResponse.json([String]()).delayed(by: TestTiming.never))
    registry.stub(.post(target), .json([String]()))
    let session = registry.makeSession()
    let finished = Locked<[String]>([])
    var post = URLRequest(url: URL(string: target)!)
    post.httpMethod = "POST"
    let delayed = Task {
      _ = try await session.data(for: .heldOpen(URL(string: target)!))
      finished.withLock { $0.append("GET") }
    }
    _ = try await registry.request(matching: .get(target), timeout: .seconds(600))
    _ = try await session.data(for: post)
    finished.withLock { $0.append("POST") }
    #expect(finished.current == ["POST"])
    delayed.cancel()
    let error = try await errorOf { try await delayed.value }
    #expect(error?.code == .cancelled)
  }

  /// Mocker's `testRedirectResponse`: a 302 with a Location, followed to the JSON it names.
  @Test func aRedirectIsFollowedToItsTarget() async throws {
    let registry = StubRegistry()
    let start = URL(string: "https://we.test/redirect")!
    registry.stub(
      .get(start.absoluteString),
      StubResponse(
        status: 302,
        headers: [
          "Content-Type": "text/html;charset=utf-8",
          "Location": "https://wetransfer.test/redirect",
        ]))
    registry.stub(
      .get("https://wetransfer.test/redirect"),
      .data(Self.exampleJSON, contentType: "application/json"))
    let (data, response) = try await registry.makeSession().data(from: start)
    #expect(response.url?.absoluteString == "https://wetransfer.test/redirect")
    let framework = try JSONDecoder().decode(Framework.self, from: data)
    #expect(framework == Framework(name: "Mocker", owner: "WeTransfer"))
  }

  /// Mocker's `testMockReturningError`: the caller gets the stub's own error, and no response.
  @Test func aStubsOwnErrorReachesTheCaller() async throws {
    enum ExampleError: Error, LocalizedError, Equatable {
      case example
      var errorDescription: String? { "example" }
    }
    let registry = StubRegistry()
    let url = URL(string: "https://www.wetransfer.test/example.json")!
    registry.stub(.get(url.absoluteString), .failure(ExampleError.example))
    await #expect(throws: ExampleError.example) {
      try await registry.makeSession().data(from: url)
    }
    #expect(registry.journal.first?.response?.status == nil)
  }

  /// Mocker's `testMockCachePolicy`, with its `Cache-Control` of several directives (the other
  /// cache rules are in `ResponseCachingTests`).
  @Test func anImmutablePublicAnswerIsKeptInTheCache() async throws {
    let registry = StubRegistry()
    registry.cachesResponses = true
    let url = URL(string: "https://www.wetransfer.test/example.json")!
    let stub = registry.stub(
      .get(url.absoluteString),
      .data(
        Self.exampleJSON, contentType: "application/json",
        headers: ["Cache-Control": "public, max-age=31557600, immutable"]))
    let session = registry.makeSession()
    #expect(try await session.data(from: url).0 == Self.exampleJSON)
    #expect(try await session.data(from: url).0 == Self.exampleJSON)
    #expect(stub.callCount == 1)
  }

  /// Mocker's `testRemoveAll`.
  @Test func removingAllStubsLeavesNone() {
    let registry = StubRegistry()
    registry.stub(.get("https://mocker.test/any"), .json([String]()))
    registry.removeAllStubs()
    #expect(registry.stubs.isEmpty)
  }

  /// Mocker's `testDifferentHTTPMethodSameURL`.
  @Test func twoStubsForOneURLAndTwoMethodsBothAnswer() {
    let registry = StubRegistry()
    let url = URL(string: "https://mocker.test/\(UUID().uuidString)")!
    let get = registry.stub(.get(url.absoluteString), .json([String]()))
    let put = registry.stub(.put(url.absoluteString), .json([String]()))
    var request = URLRequest(url: url)
    request.httpMethod = "GET"
    #expect(registry.stub(answering: request) === get)
    request.httpMethod = "PUT"
    #expect(registry.stub(answering: request) === put)
  }

  /// Mocker's `MockTests.testFileExtensionMocksComparing`: what a stub matches is its pattern,
  /// whatever it answers; patterns for the same extension are equal, another extension differs.
  @Test func patternsForTheSameExtensionAreEqual() {
    let registry = StubRegistry()
    let ok = registry.stub(.method(.put) && .path(matching: #"\.png$"#), .status(200))
    let again = registry.stub(.method(.put) && .path(matching: #"\.png$"#), .status(200))
    let bad = registry.stub(.method(.put) && .path(matching: #"\.png$"#), .status(400))
    let jpeg = registry.stub(.method(.put) && .path(matching: #"\.jpeg$"#), .status(200))
    #expect(ok.pattern == again.pattern)
    #expect(ok.pattern == bad.pattern)
    #expect(ok.pattern != jpeg.pattern)
  }

  /// Mocker's `MockTests.testMethodsComparing`: methods listed in any order make equal patterns.
  @Test func patternsListingTheSameMethodsInAnyOrderAreEqual() {
    let url = URL(string: "https://mocked.wetransfer.test")!
    let methods: [HTTPMethod] = [
      .options, .get, .head, .post, .put, .patch, .delete, .trace, .connect,
    ]
    func pattern(_ order: [HTTPMethod]) -> RequestPattern {
      .url(url) && order.dropFirst().reduce(RequestPattern.method(order[0])) { $0 || .method($1) }
    }
    #expect(pattern(methods.shuffled()) == pattern(methods.shuffled()))
    #expect(pattern(methods) == pattern(methods.reversed()))
  }
}

// Not ported here, with the reason:
//
// - `testComposedURLMatch`: already ported as `RelativeURLTests`; not duplicated.
// - The `MockingURLProtocol.canInit(with:)` assertions in `testIgnoreURLs`,
//   `testMockerOptoutMode` and `testMockerOptinMode`, on scheme-less URLs
//   (`www.wetransfer.com`): they ask Mocker's protocol class whether it would claim a request.
//   The ports in `MockerPortTests+Unmocked.swift` send each request and check where it went.
