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
}
