import Testing

@testable import Understudy

/// A stub builds its `HTTPURLResponse` once per URL and reuses it; reuse must never show a
/// request another request's URL, length or headers.
@Suite struct ResponseReuseTests {
  @Test func repeatedRequestsToOneURLShareTheResponseObject() async throws {
    let registry = StubRegistry()
    registry.stub(.get("https://api.test/items/1"), .text("one"))
    let session = registry.makeSession()
    let url = URL(string: "https://api.test/items/1")!
    let (_, first) = try await session.data(from: url)
    let (_, second) = try await session.data(from: url)
    #expect(first === second)
  }

  @Test func eachURLGetsItsOwnResponse() async throws {
    let registry = StubRegistry()
    registry.stub(.get("https://api.test/items/{id}"), .text("item"))
    let session = registry.makeSession()
    for id in [1, 2, 1, 3] {
      let (_, response) = try await session.data(
        from: URL(string: "https://api.test/items/\(id)")!)
      #expect(response.url?.absoluteString == "https://api.test/items/\(id)")
    }
  }

  @Test func aChangedResponseDoesNotReuseTheOriginalsHeaders() async throws {
    let registry = StubRegistry()
    let base = StubResponse.text("same")
    registry.stub(.get("https://api.test/plain"), base)
    registry.stub(.get("https://api.test/traced"), base.header("X-Trace", "abc"))
    let session = registry.makeSession()
    let (_, plain) = try await session.data(from: URL(string: "https://api.test/plain")!)
    let (_, traced) = try await session.data(from: URL(string: "https://api.test/traced")!)
    #expect((plain as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Trace") == nil)
    #expect((traced as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Trace") == "abc")
  }

  /// A response's fields live in storage its copies share; changing a copy must leave every
  /// other copy, and the stub declared with it, as it was.
  @Test func changingACopyLeavesTheOriginalAlone() async throws {
    let original = StubResponse.text("steady")
    var changed = original
    changed.delay = 0.25
    changed.bodyDelay = 0.5
    changed.bytesPerSecond = 64
    changed.dropAfterBytes = 3
    changed.chunks = [BodyChunk(size: 2, delay: 0.1)]
    let traced = changed.header("X-Trace", "on")
    #expect(original.delay == 0 && original.bodyDelay == 0)
    #expect(original.bytesPerSecond == nil && original.dropAfterBytes == nil)
    #expect(original.chunks == nil)
    #expect(changed.delay == 0.25 && changed.bytesPerSecond == 64 && changed.dropAfterBytes == 3)
    #expect(traced.delay == 0.25 && traced.headers["X-Trace"] == "on")
    #expect(changed.headers["X-Trace"] == nil && original.headers["X-Trace"] == nil)

    let registry = StubRegistry()
    registry.stub(.get("https://api.test/steady"), original)
    let session = registry.makeSession()
    let (data, response) = try await session.data(from: URL(string: "https://api.test/steady")!)
    #expect(String(decoding: data, as: UTF8.self) == "steady")
    #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Trace") == nil)
  }

  @Test func aFixtureThatChangesSizeGetsANewContentLength() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("understudy-reuse-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("body.txt")
    try Data("short".utf8).write(to: file)
    let registry = StubRegistry()
    registry.stub(.get("https://api.test/file"), .fixture(at: file))
    let session = registry.makeSession()
    let url = URL(string: "https://api.test/file")!
    let (_, before) = try await session.data(from: url)
    try Data("a longer body".utf8).write(to: file)
    let (data, after) = try await session.data(from: url)
    #expect(before.expectedContentLength == 5)
    #expect(after.expectedContentLength == 13)
    #expect(String(decoding: data, as: UTF8.self) == "a longer body")
  }

  /// Stubs declared alike (each test of a suite whose trait declares them) share the response
  /// they build; any difference in URL, status, headers or body length builds another.
  @Test func stubsDeclaredAlikeShareOneResponse() {
    let recent = RecentReadings<HTTPReply.ResponseShape, HTTPURLResponse>(capacity: 4)
    let url = URL(string: "https://api.test/items/1")!
    // Each reply has its own stub's cache, as two tests' registries would.
    func reply(
      _ url: URL = url, status: Int = 200, headers: HTTPHeaders = ["Content-Type": "text/plain"]
    ) -> HTTPReply {
      HTTPReply(
        url: url, status: status, headers: headers, body: .text("one"),
        responseCache: HTTPResponseCache())
    }
    let first = reply().httpResponse(bodyLength: 3, sharing: recent)
    #expect(reply().httpResponse(bodyLength: 3, sharing: recent) === first)
    #expect(first.statusCode == 200 && first.url == url)
    #expect(first.value(forHTTPHeaderField: "Content-Length") == "3")
    let others = [
      reply(URL(string: "https://api.test/items/2")!).httpResponse(bodyLength: 3, sharing: recent),
      reply(status: 201).httpResponse(bodyLength: 3, sharing: recent),
      reply(headers: ["Content-Type": "text/html"]).httpResponse(bodyLength: 3, sharing: recent),
      reply().httpResponse(bodyLength: 4, sharing: recent),
    ]
    for other in others { #expect(other !== first) }
    #expect(others[0].url?.absoluteString == "https://api.test/items/2")
    #expect(others[1].statusCode == 201)
    #expect(others[2].value(forHTTPHeaderField: "Content-Type") == "text/html")
    #expect(others[3].value(forHTTPHeaderField: "Content-Length") == "4")
  }
}
