import Testing

@testable import Understudy

/// `beforeRecord` and `beforeReplay` (VCR's `before_record` and `before_playback`): user code
/// that edits what is written and what is served, run off the work queue and reported at its
/// line when it throws or overruns; what a hook writes is still scanned for credentials.
@Suite struct CassetteHookTests {
  /// Records `paths` from `server` into a fresh cassette with `options` and returns the cassette
  /// (finished) with its failures.
  static func record(
    _ paths: [String], from server: LoopbackServer, authorization: String? = nil,
    options: CassetteOptions
  ) async throws -> (file: URL, failures: [ScopeFailure]) {
    let file = RecordReplayTests.temporaryCassette()
    let registry = StubRegistry()
    let cassette = Cassette(at: file, mode: .missing, options: options)
    registry.use(cassette)
    for path in paths {
      var request = URLRequest(url: server.url(path))
      request.setValue(authorization, forHTTPHeaderField: "Authorization")
      _ = try await registry.makeSession().data(for: request)
    }
    return (file, cassette.finish())
  }

  @Test func beforeRecordEditsAndDropsEntriesBeforeTheyAreWritten() async throws {
    let server = try await LoopbackServer.shared()
    let options = CassetteOptions().beforeRecord { entry in
      guard !entry.request.url.contains("/json") else { return nil }
      var edited = entry
      edited.comment = "checked"
      return edited
    }
    let (file, failures) = try await Self.record(
      ["/json", "/echo/kept"], from: server, options: options)
    #expect(failures.isEmpty)
    let entries = try HAR.load(contentsOf: file).log.entries
    #expect(entries.map { URL(string: $0.request.url)?.path } == ["/echo/kept"])
    #expect(entries.map(\.comment) == ["checked"])
  }

  @Test func beforeRecordSeesEntriesAfterRedaction() async throws {
    let server = try await LoopbackServer.shared()
    let seen = Locked<[String]>([])
    let options = CassetteOptions().beforeRecord { entry in
      seen.withLock {
        $0 += entry.request.headers.filter { $0.name == "Authorization" }.map(\.value)
      }
      return entry
    }
    let (_, failures) = try await Self.record(
      ["/echo/private"], from: server, authorization: FakeSecret.bearer, options: options)
    #expect(failures.isEmpty)
    #expect(seen.current.count == 1)
    #expect(seen.current.first?.hasPrefix("<redacted:authorization") == true)
  }

  @Test func aSecretAHookPutsBackStopsTheWrite() async throws {
    let server = try await LoopbackServer.shared()
    let options = CassetteOptions().beforeRecord { entry in
      var edited = entry
      edited.response.headers.append(HAR.Header(name: "X-Debug", value: FakeSecret.gitHub))
      return edited
    }
    let (file, failures) = try await Self.record(["/json"], from: server, options: options)
    #expect(failures.count == 1)
    #expect(failures.first?.message.contains("was not written") == true)
    #expect(failures.first?.message.contains("credential") == true)
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }

  /// A hook that copies a value redaction took out (a token the test holds) into another
  /// place: a header's value, a header's name, a URL in a `Link` header. Each copy is replaced,
  /// as an echo of the value in the entry would be.
  @Test func aValueAHookCopiesFromTheTestIsReplacedWhereverItPutsIt() async throws {
    let server = try await LoopbackServer.shared()
    let token = "tok" + String(repeating: "Zq7TnW2v", count: 3)
    let options = CassetteOptions().beforeRecord { entry in
      var edited = entry
      edited.response.headers += [
        HAR.Header(name: "X-Debug", value: token), HAR.Header(name: token, value: "1"),
        HAR.Header(name: "Link", value: "<https://api.test/next/\(token)>; rel=next"),
      ]
      return edited
    }
    let (file, failures) = try await Self.record(
      ["/echo/private"], from: server, authorization: "Bearer \(token)", options: options)
    #expect(failures.isEmpty)
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(!text.contains(token))
    #expect(!text.contains("Zq7TnW2v"))
    #expect(text.contains("X-Debug"))
  }

  @Test func aThrowingBeforeRecordHookIsReportedAtItsLineAndNothingIsWritten() async throws {
    struct Refused: Error {}
    let server = try await LoopbackServer.shared()
    let line = #line + 1
    let options = CassetteOptions().beforeRecord { _ in throw Refused() }
    let (file, failures) = try await Self.record(["/json"], from: server, options: options)
    #expect(failures.count == 1)
    #expect(failures.first?.location.line == line)
    #expect(failures.first?.message.contains("beforeRecord hook") == true)
    #expect(failures.first?.message.contains("Refused()") == true)
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }

  /// Both ways of finishing: blocking (`finish()`) and awaiting, as the trait does.
  @Test(arguments: [false, true])
  func aBeforeRecordHookThatOverrunsItsTimeoutIsReported(awaiting: Bool) async throws {
    let server = try await LoopbackServer.shared()
    let gate = SlowUserCodeTests.Gate()
    defer { gate.open() }
    let line = #line + 1
    let options = CassetteOptions(hookTimeout: .milliseconds(200)).beforeRecord { entry in
      gate.block()
      return entry
    }
    let file = RecordReplayTests.temporaryCassette()
    let registry = StubRegistry()
    let cassette = Cassette(at: file, mode: .missing, options: options)
    registry.use(cassette)
    _ = try await registry.makeSession().data(from: server.url("/json"))
    let failures = awaiting ? await cassette.finishAwaitingHooks() : cassette.finish()
    #expect(!gate.hasReleased, "reported while the hook still ran")
    #expect(failures.map(\.location.line) == [line])
    #expect(failures.first?.message.contains("hookTimeout") == true)
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }

  /// A cassette with one entry for `url`, answering `body` with a `Date` header.
  static func cassette(answering url: String, body: String, recordedAt date: Date = Date())
    throws -> URL
  {
    let file = RecordReplayTests.temporaryCassette()
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    var entry = HAR.Entry.sample(
      url: url, responseHeaders: [HAR.Header(name: "Date", value: "Thu, 01 Jan 2026 00:00:00 GMT")],
      content: HAR.Content(body: Data(body.utf8), mimeType: "text/plain"))
    entry.startedDateTime = date
    try HAR(entries: [entry]).write(to: file)
    return file
  }

  @Test func beforeReplayAdjustsTheAnswerBeforeItIsServed() async throws {
    let file = try Self.cassette(answering: "https://api.test/today", body: "recorded")
    let options = CassetteOptions().beforeReplay { entry in
      var adjusted = entry
      adjusted.response.headers = [HAR.Header(name: "Date", value: "Wed, 25 Nov 2026 12:00:00 GMT")]
      adjusted.response.content.text = "adjusted"
      return adjusted
    }
    let registry = StubRegistry()
    registry.use(Cassette(at: file, options: options))
    let (data, response) = try await registry.makeSession().data(
      from: URL(string: "https://api.test/today")!)
    #expect(String(decoding: data, as: UTF8.self) == "adjusted")
    #expect(
      (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Date")
        == "Wed, 25 Nov 2026 12:00:00 GMT")
    #expect(
      registry.journal.map(\.outcome).allSatisfy { if case .replayed = $0 { true } else { false } })
  }

  @Test func aThrowingBeforeReplayHookFailsTheRequestAndIsReportedAtItsLine() async throws {
    struct Stale: Error {}
    let file = try Self.cassette(answering: "https://api.test/today", body: "recorded")
    let line = #line + 1
    let options = CassetteOptions().beforeReplay { _ in throw Stale() }
    let registry = StubRegistry()
    registry.beginScope(verifying: .default)
    registry.use(Cassette(at: file, options: options))
    let error = try await #require(throws: URLError.self) {
      try await registry.makeSession().data(from: URL(string: "https://api.test/today")!)
    }
    #expect(error.localizedDescription.contains("beforeReplay hook"))
    let failures = registry.endScope(testName: "t", location: SourceLocation())
    #expect(failures.map(\.location.line) == [line])
    #expect(failures.first?.message.contains("Stale()") == true)
  }

  @Test func aBlockingBeforeReplayHookIsBoundedByTheRequestTimeout() async throws {
    let file = try Self.cassette(answering: "https://api.test/today", body: "recorded")
    let gate = SlowUserCodeTests.Gate()
    let line = #line + 1
    let options = CassetteOptions().beforeReplay { entry in
      gate.block()
      return entry
    }
    let registry = StubRegistry()
    registry.beginScope(verifying: .default)
    registry.use(Cassette(at: file, options: options))
    var request = URLRequest(url: URL(string: "https://api.test/today")!)
    request.timeoutInterval = 0.3
    let error = try await withWatchdog { [request] in
      try await errorOf { try await registry.makeSession().data(for: request) }
    }
    #expect(!gate.hasReleased)
    #expect(error?.code == .timedOut)
    #expect(error?.localizedDescription.contains("beforeReplay hook") == true)
    try await eventually { registry.scopeState.withLock { $0.userCodeFailures }?.isEmpty == false }
    gate.open()
    let failures = registry.endScope(testName: "t", location: SourceLocation())
    #expect(failures.map(\.location.line) == [line])
  }
}
