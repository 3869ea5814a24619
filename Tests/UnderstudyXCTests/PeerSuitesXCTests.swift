import Understudy
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What Mocker's, Hippolyte's and Replay's own XCTest suites expect, answered under XCTest (the
/// Swift Testing forms are in `Tests/UnderstudyTests/PeerSuites`).
final class PeerSuitesXCTests: XCTestCase {
  private var folder: URL!

  override func setUpWithError() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("understudy-xctest-peers-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  /// Mocker's `testComposedURLMatch`.
  func testAURLComposedRelativeToABaseMatchesItsAbsoluteURL() async throws {
    let composed = URL(string: "resource", relativeTo: URL(string: "https://host.com/api/"))!
    try await withStubs { registry in
      registry.stub(.url(composed), .text("composed"))
      let (data, _) = try await registry.makeSession().data(
        from: URL(string: "https://host.com/api/resource")!)
      XCTAssertEqual(String(decoding: data, as: UTF8.self), "composed")
    }
  }

  /// Replay's archive names: `withCassette("orders.har")` opens `orders.har`.
  func testACassetteNamedWithItsExtensionIsThatFile() async throws {
    let entry = HAR.Entry(
      startedDateTime: Date(), time: 1,
      request: HAR.Request(method: "GET", url: "https://api.test/orders"),
      response: HAR.Response(
        status: 200, statusText: "OK",
        content: HAR.Content(body: Data("recorded".utf8), mimeType: "text/plain")))
    try HAR(entries: [entry]).write(to: folder.appendingPathComponent("orders.har"))
    try await withCassette("orders.har", location: .folder(folder)) { registry in
      let (data, _) = try await registry.makeSession().data(
        from: URL(string: "https://api.test/orders")!)
      XCTAssertEqual(String(decoding: data, as: UTF8.self), "recorded")
    }
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: folder.appendingPathComponent("orders.har.har").path))
  }

  /// Mocker's tests pass one configuration on more than once.
  func testAConfigurationPassedThroughTwiceKeepsOneProtocolClass() {
    let registry = StubRegistry()
    let twice = registry.makeSessionConfiguration(
      from: registry.makeSessionConfiguration())
    let ours = (twice.protocolClasses ?? []).filter { $0 == registry.protocolClass }
    XCTAssertEqual(ours.count, 1)
  }

  /// Replay's `MatcherTests`: `?key=1&key=2` is not `?key=1&key=3`, even once `key` is redacted.
  func testRedactedValuesStayDistinguishableOnReplay() async throws {
    let server = try LoopbackProcess()
    defer { server.stop() }
    let file = folder.appendingPathComponent("keys.har")
    let recording = StubRegistry()
    let recorder = Cassette(at: file, mode: .missing)
    recording.use(recorder)
    _ = try await recording.makeSession().data(
      from: server.baseURL.appendingPathComponent("echo/k").appending(queryItems: [
        URLQueryItem(name: "key", value: "one-11111"),
        URLQueryItem(name: "key", value: "three-333"),
      ]))
    XCTAssertTrue(recorder.finish().isEmpty)
    server.stop()

    let replaying = StubRegistry()
    replaying.use(Cassette(at: file, mode: .never))
    let session = replaying.makeSession()
    func url(_ values: String...) -> URL {
      server.baseURL.appendingPathComponent("echo/k").appending(
        queryItems: values.map { URLQueryItem(name: "key", value: $0) })
    }
    do {
      _ = try await session.data(from: url("one-11111", "two-22222"))
      XCTFail("a request with another redacted value replayed the recorded entry")
    } catch {}
    let (_, response) = try await session.data(from: url("one-11111", "three-333"))
    XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
  }

  /// Hippolyte's `RegexMatcher` over the whole URL.
  func testAWholeURLExpressionMatchesSchemeHostPathAndQuery() async throws {
    let registry = StubRegistry()
    registry.stub(.url(matching: #"^https://[^/]+\.test/img/.+\.png\?v=\d+$"#), .text("png"))
    let (data, _) = try await registry.makeSession().data(
      from: URL(string: "https://cdn.test/img/a.png?v=2")!)
    XCTAssertEqual(String(decoding: data, as: UTF8.self), "png")
  }

  /// Hippolyte's `testThatHippolyteCouldBePausedAndResumed` and `response(for:)`.
  func testPausingKeepsTheStubsAndTheLookupUsesNothingUp() async throws {
    let registry = StubRegistry()
    let url = URL(string: "https://api.test/paused")!
    let stub = registry.stub(.get("/paused"), .text("stubbed"))
    XCTAssertEqual(registry.stub(answering: URLRequest(url: url)), stub)
    registry.pause()
    do {
      _ = try await registry.makeSession().data(from: url)
      XCTFail("a paused registry answered")
    } catch {}
    registry.resume()
    let (data, _) = try await registry.makeSession().data(from: url)
    XCTAssertEqual(String(decoding: data, as: UTF8.self), "stubbed")
    XCTAssertEqual(stub.callCount, 1)
  }

  /// Hippolyte's `StubRequestTests` keep stubs in sets.
  func testStubsAreSetMembersByRegistration() {
    let registry = StubRegistry()
    let first = registry.stub(.get("/a"), .ok)
    let second = registry.stub(.get("/a"), .ok)
    XCTAssertEqual(Set([first, second, first]).count, 2)
    XCTAssertNotEqual(first, second)
  }

  /// Hippolyte's `testStubRequestsMatch` and its two `DoNotMatch` tests: patterns built alike are
  /// equal, and a different method or URL makes them differ.
  func testPatternsBuiltAlikeAreEqual() {
    let apple = URL(string: "http://www.apple.com")!
    let stub: RequestPattern = .method(.get) && .url(apple)
    XCTAssertEqual(stub, .method(.get) && .url(apple))
    XCTAssertEqual(stub, .url(apple) && .method(.get))
    XCTAssertNotEqual(stub, .method(.post) && .url(apple))
    XCTAssertNotEqual(stub, .method(.get) && .url(URL(string: "http://www.google.com")!))
    XCTAssertEqual(Set([stub, .url(apple) && .method(.get)]).count, 1)
  }

  /// Replay's `FilterTests` with `replacement: "[FILTERED]"`.
  func testARedactionWritesTheReplacementTextChosen() throws {
    let entry = HAR.Entry(
      request: InterceptedRequest(
        url: URL(string: "https://api.test/items?api_key=ak_8899aabbccdd&page=2")!,
        headers: ["Authorization": "Bearer tok_1122334455", "Accept": "text/plain"]),
      response: HAR.Response(status: 200, headers: [:], body: nil),
      startedDateTime: Date(timeIntervalSince1970: 0), duration: .zero)
    let written = Redaction.default.replacingValues(with: "[FILTERED]").redact(entry)
    XCTAssertEqual(
      written.request.headers.first { $0.name == "Authorization" }?.value, "[FILTERED]")
    XCTAssertEqual(written.request.headers.first { $0.name == "Accept" }?.value, "text/plain")
    XCTAssertEqual(written.request.url, "https://api.test/items?api_key=%5BFILTERED%5D&page=2")
    XCTAssertEqual(
      written.request.queryString.first { $0.name == "api_key" }?.value, "[FILTERED]")
  }

  /// Replay's `FragmentMatcherTests`, as a stub condition.
  func testAFragmentConditionTellsRequestsApart() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/callback") && .fragment("granted"), .text("granted"))
    registry.stub(.get("/callback") && .fragment(nil), .text("none"))
    let session = registry.makeSession()
    let (granted, _) = try await session.data(
      from: URL(string: "https://auth.test/callback#granted")!)
    XCTAssertEqual(String(decoding: granted, as: UTF8.self), "granted")
    let (none, _) = try await session.data(from: URL(string: "https://auth.test/callback")!)
    XCTAssertEqual(String(decoding: none, as: UTF8.self), "none")
  }

  /// Replay's `.headers(keeping:)`: only the named headers are written, and a left-out
  /// credential is still replaced where the server echoed it.
  func testAHeaderAllowListWritesOnlyTheNamedHeaders() throws {
    let token = "tok_9e8d7c6b5a4f3e2d1c0b"
    let entry = HAR.Entry(
      startedDateTime: Date(), time: 1,
      request: HAR.Request(
        method: "GET", url: "https://api.test/orders",
        headers: [
          HAR.Header(name: "Authorization", value: "Bearer \(token)"),
          HAR.Header(name: "X-Request-Id", value: "r-1"),
        ]),
      response: HAR.Response(
        status: 200, statusText: "OK",
        headers: [
          HAR.Header(name: "Server", value: "nginx"),
          HAR.Header(name: "content-type", value: "text/plain"),
        ],
        content: HAR.Content(body: Data("you sent \(token)".utf8), mimeType: "text/plain")))
    let written = Redaction.default.keepingOnlyHeaders("Content-Type", "x-request-id")
      .redact(HAR(entries: [entry]))
    let file = folder.appendingPathComponent("kept.har")
    try written.write(to: file)
    let text = try String(contentsOf: file, encoding: .utf8)
    XCTAssertEqual(written.log.entries[0].request.headers.map(\.name), ["X-Request-Id"])
    XCTAssertEqual(written.log.entries[0].response.headers.map(\.name), ["content-type"])
    XCTAssertFalse(text.contains(token))
    XCTAssertFalse(text.contains("nginx"))
  }

  /// Mocker's `cacheStoragePolicy`: a registry that caches responses answers a fresh `GET`
  /// from its cache without asking the stub again.
  func testACachedAnswerIsServedWithoutAskingTheStubAgain() async throws {
    try await withStubs { registry in
      registry.cachesResponses = true
      let stub = registry.stub(
        .get("https://api.test/catalog"),
        StubResponse.text("v1").header("Cache-Control", "max-age=3600"))
      for _ in 0..<2 {
        let (data, _) = try await registry.makeSession().data(
          from: URL(string: "https://api.test/catalog")!)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "v1")
      }
      XCTAssertEqual(stub.callCount, 1)
    }
  }
}
