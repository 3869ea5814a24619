import Testing

@testable import Understudy

/// Replay matching that leaves out what changes on every run: JSON paths in bodies, query items
/// and headers, for every request or for those a pattern matches.
@Suite struct ReplayIgnoringTests {
  /// A cassette with one `POST https://api.test/<path>` entry whose body is `body`, and the
  /// headers `headers`.
  static func cassette(path: String, body: String, headers: [HAR.Header] = []) throws -> URL {
    let file = RecordReplayTests.temporaryCassette()
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    let entry = HAR.Entry.sample(
      method: "POST", url: "https://api.test/\(path)", requestHeaders: headers,
      postData: HAR.PostData(mimeType: "application/json", text: body))
    try HAR(entries: [entry]).write(to: file)
    return file
  }

  /// Whether a `POST` of `body` (with `headers`) to `path` replays from `file` under `matching`;
  /// the error's description when it does not.
  static func replay(
    _ file: URL, _ matching: ReplayMatching, path: String, body: String,
    headers: [String: String] = [:]
  ) async -> String? {
    let registry = StubRegistry()
    registry.use(Cassette(at: file, options: CassetteOptions(matching: matching)))
    var request = URLRequest(url: URL(string: "https://api.test/\(path)")!)
    request.httpMethod = "POST"
    request.httpBody = Data(body.utf8)
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    do {
      _ = try await registry.makeSession().data(for: request)
      return nil
    } catch {
      return error.localizedDescription
    }
  }

  @Test func anIgnoredJSONPathLetsAChangedTimestampReplayButNotAChangedField() async throws {
    let file = try Self.cassette(
      path: "orders", body: #"{"item":"book","sentAt":"2026-01-01T00:00:00Z"}"#)
    let matching = ReplayMatching([.method, .url, .jsonBody]).ignoring(jsonPaths: ["$.sentAt"])
    let newTime = #"{"item":"book","sentAt":"2026-11-25T16:00:00Z"}"#
    let otherItem = #"{"item":"pen","sentAt":"2026-01-01T00:00:00Z"}"#
    #expect(await Self.replay(file, matching, path: "orders", body: newTime) == nil)
    let miss = await Self.replay(file, matching, path: "orders", body: otherItem)
    #expect(miss?.contains("JSON body (ignoring JSON paths $.sentAt)") == true)
    // Without the ignore, the changed timestamp does not replay.
    let strict = ReplayMatching([.method, .url, .jsonBody])
    #expect(await Self.replay(file, strict, path: "orders", body: newTime) != nil)
  }

  @Test func ignoresScopedByAPatternApplyToTheRequestsItMatchesOnly() async throws {
    let body = #"{"amount":5,"idempotencyKey":"k-1"}"#
    let changed = #"{"amount":5,"idempotencyKey":"k-2"}"#
    let matching = ReplayMatching([.method, .url, .jsonBody])
      .ignoring(jsonPaths: ["$.idempotencyKey"], for: .post("/payments"))
    let payments = try Self.cassette(path: "payments", body: body)
    let refunds = try Self.cassette(path: "refunds", body: body)
    #expect(await Self.replay(payments, matching, path: "payments", body: changed) == nil)
    #expect(await Self.replay(refunds, matching, path: "refunds", body: changed) != nil)
  }

  @Test func aCustomMatcherMayScopeIgnores() async throws {
    let body = #"{"amount":5,"idempotencyKey":"k-1"}"#
    let changed = #"{"amount":5,"idempotencyKey":"k-2"}"#
    let matching = ReplayMatching([.method, .url, .jsonBody])
      .ignoring(
        jsonPaths: ["$.idempotencyKey"],
        for: .custom("a payment") { $0.url.path.hasSuffix("/payments") })
    let payments = try Self.cassette(path: "payments", body: body)
    let refunds = try Self.cassette(path: "refunds", body: body)
    #expect(Cassette(at: payments, options: CassetteOptions(matching: matching)).problem == nil)
    #expect(await Self.replay(payments, matching, path: "payments", body: changed) == nil)
    #expect(await Self.replay(refunds, matching, path: "refunds", body: changed) != nil)
  }

  @Test func ignoredQueryItemsAndHeadersAreLeftOutOfTheirRules() async throws {
    let file = try Self.cassette(
      path: "search?q=swift&ts=1", body: "{}",
      headers: [
        HAR.Header(name: "X-Request-Id", value: "a"), HAR.Header(name: "X-Team", value: "ios"),
      ])
    let matching = ReplayMatching([.method, .url, .allHeaders])
      .ignoring(queryItems: ["ts"], headers: ["x-request-id", "Content-Type", "Content-Length"])
    // Foundation adds headers the recorded entry lacks; leave those out as well.
    let same = ["X-Request-Id": "b", "X-Team": "ios"]
    #expect(
      await Self.replay(file, matching, path: "search?q=swift&ts=2", body: "{}", headers: same)
        == nil)
    let otherTeam = ["X-Request-Id": "b", "X-Team": "android"]
    let miss = await Self.replay(
      file, matching, path: "search?q=swift&ts=2", body: "{}", headers: otherTeam)
    #expect(miss?.contains("header X-Team") == true)
    let otherQuery = await Self.replay(
      file, matching, path: "search?q=rust&ts=1", body: "{}", headers: same)
    #expect(otherQuery?.contains("differs in URL") == true)
  }

  @Test func matchingThatCannotWorkIsACassetteProblem() throws {
    let file = try Self.cassette(path: "orders", body: "{}")
    let cases: [(ReplayMatching, String)] = [
      (ReplayMatching([.method, .url, .jsonBody]).ignoring(jsonPaths: ["sentAt"]), "start with $"),
      (ReplayMatching.default.ignoring(jsonPaths: ["$.sentAt"]), "add .jsonBody"),
      (ReplayMatching([.method, .path]).ignoring(queryItems: ["ts"]), "add .url"),
      (ReplayMatching.default.ignoring(headers: ["Date"]), "add .allHeaders"),
    ]
    for (matching, expected) in cases {
      let problem = Cassette(at: file, options: CassetteOptions(matching: matching)).problem
      #expect(problem?.description.contains(expected) == true, "\(String(describing: problem))")
    }
  }

  @Test(arguments: [
    ("$.ts", #"{"a":1,"ts":2}"#, #"{"a":1}"#),
    ("$..nonce", #"{"a":{"nonce":1,"b":[{"nonce":2,"c":3}]}}"#, #"{"a":{"b":[{"c":3}]}}"#),
    (
      "$.items[*].at", #"{"items":[{"at":1,"n":1},{"at":2,"n":2}]}"#,
      #"{"items":[{"n":1},{"n":2}]}"#
    ),
    ("$.items[1]", #"{"items":[1,2,3]}"#, #"{"items":[1,null,3]}"#),
    ("$.user.*", #"{"user":{"a":1},"x":2}"#, #"{"user":{},"x":2}"#),
    ("$.missing.path", #"{"a":1}"#, #"{"a":1}"#),
  ])
  func jsonPathsRemoveWhatTheySelect(path: String, json: String, expected: String) throws {
    let value = try JSONValue(parsing: json)
    #expect(value.removing(try Redaction.JSONPath(path)) == (try JSONValue(parsing: expected)))
  }
}
