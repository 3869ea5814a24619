import Testing

@testable import Understudy

/// Recording through a real server on loopback, then replaying with the server gone.
@Suite struct RecordReplayTests {
  static func temporaryCassette() -> URL {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("understudy-cassettes-\(UUID().uuidString)")
      .appendingPathComponent("recorded.har")
  }

  @Test func recordThenReplayWithTheServerStopped() async throws {
    let server = try await LoopbackServer.start()
    let file = Self.temporaryCassette()
    let json = server.url("/json")
    let echo = server.url("/echo/items?b=2&a=1")

    let recording = StubRegistry()
    let recorder = Cassette(at: file, mode: .missing)
    recording.use(recorder)
    let session = recording.makeSession()
    let (recordedJSON, recordedResponse) = try await session.data(from: json)
    var post = URLRequest(url: echo)
    post.httpMethod = "POST"
    post.httpBody = Data(#"{"name":"Ada"}"#.utf8)
    let (recordedEcho, _) = try await session.data(for: post)
    #expect(recorder.finish().isEmpty)
    #expect(FileManager.default.fileExists(atPath: file.path))
    #expect(try await server.hits() == 2)
    server.stop()

    let replaying = StubRegistry()
    let player = Cassette(at: file, mode: .never)
    #expect(player.entryCount == 2)
    replaying.use(player)
    let replaySession = replaying.makeSession()
    let (replayedJSON, replayedResponse) = try await replaySession.data(from: json)
    #expect(replayedJSON == recordedJSON)
    #expect(
      (replayedResponse as? HTTPURLResponse)?.statusCode
        == (recordedResponse as? HTTPURLResponse)?.statusCode)
    #expect(
      (replayedResponse as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type")
        == (recordedResponse as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type"))
    // Query items in another order still match by default.
    post.url = server.url("/echo/items?a=1&b=2")
    let (replayedEcho, _) = try await replaySession.data(for: post)
    #expect(replayedEcho == recordedEcho)
    #expect(replaying.journal.allSatisfy { if case .replayed = $0.outcome { true } else { false } })
    #expect(player.finish().isEmpty)
  }

  @Test func recordsFromThePassThroughTargetUnderTheURLTheCodeAsked() async throws {
    let server = try await LoopbackServer.start()
    let file = Self.temporaryCassette()
    let production = URL(string: "https://api.production.test/json")!

    // The code under test calls production; recording goes to the local server instead.
    let recording = StubRegistry(
      unmatchedRequests: .passThrough(PassThrough(baseURL: server.baseURL)))
    let recorder = Cassette(at: file, mode: .missing)
    recording.use(recorder)
    let (recorded, _) = try await recording.makeSession().data(from: production)
    #expect(recorder.finish().isEmpty)
    #expect(try await server.hits() == 1)
    server.stop()
    let har = try HAR.load(contentsOf: file)
    #expect(har.log.entries.map(\.request.url) == [production.absoluteString])

    // Replayed with the server gone, under the production URL.
    let replaying = StubRegistry()
    replaying.use(Cassette(at: file, mode: .never))
    let (replayed, _) = try await replaying.makeSession().data(from: production)
    #expect(replayed == recorded)
  }

  @Test func recordingIntoABuiltBundleSaysTheRecordingWillBeLost() async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    let bundle = FileManager.default.temporaryDirectory
      .appendingPathComponent("understudy-\(UUID().uuidString)/App_AppTests.resources")
    let file = bundle.appendingPathComponent("__Cassettes__/loads.har")
    let registry = StubRegistry()
    let cassette = Cassette(at: file, mode: .missing)
    registry.use(cassette)
    _ = try await registry.makeSession().data(from: server.url("/json"))
    let failures = cassette.finish()
    #expect(failures.count == 1)
    #expect(failures.first?.message.contains("will be lost") == true)
    #expect(failures.first?.message.contains(bundle.path) == true)
    #expect(FileManager.default.fileExists(atPath: file.path), "written all the same")
  }

  @Test(arguments: [
    ("/App/Tests/AppTests/__Cassettes__/T/a.har", nil),
    ("/App/.build/debug/App_AppTests.resources/__Cassettes__/a.har", "/App/.build"),
    ("/Sim/App.app/PlugIns/AppTests.xctest/__Cassettes__/a.har", "/Sim/App.app"),
    ("/App/Cassettes/my.bundle.har", nil),
  ])
  func buildProductsAreRecognised(path: String, product: String?) {
    #expect(Cassette.buildProduct(containing: URL(fileURLWithPath: path)) == product)
  }

  @Test func neverModeWithoutACassetteFailsWithTheCommandThatRecordsIt() async throws {
    let file = Self.temporaryCassette()
    let registry = StubRegistry()
    let cassette = Cassette(
      at: file, mode: .never,
      recordCommand: "UNDERSTUDY_RECORD=missing swift test --filter 'Suite/test'")
    registry.use(cassette)
    let error = try await #require(throws: URLError.self) {
      try await registry.makeSession().data(from: URL(string: "https://api.test/x")!)
    }
    #expect(error.localizedDescription.contains("the cassette does not exist"))
    #expect(
      error.localizedDescription.contains(
        "UNDERSTUDY_RECORD=missing swift test --filter 'Suite/test'"))
    let failures = cassette.finish()
    #expect(failures.count == 1)
    #expect(failures[0].message.contains(file.path))
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }

  @Test func eachRecordModeRecordsOnlyWhatItShould() async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    let file = Self.temporaryCassette()
    func run(_ mode: RecordMode, _ paths: [String]) async throws -> [ScopeFailure] {
      let registry = StubRegistry()
      let cassette = Cassette(at: file, mode: mode)
      registry.use(cassette)
      for path in paths { _ = try? await registry.makeSession().data(from: server.url(path)) }
      return cassette.finish()
    }
    func recordedPaths() throws -> [String] {
      try HAR.load(contentsOf: file).log.entries.map { URL(string: $0.request.url)!.path }
    }

    // missing: records because the file does not exist yet.
    #expect(try await run(.missing, ["/json", "/bytes/8"]).isEmpty)
    #expect(try recordedPaths() == ["/json", "/bytes/8"])
    #expect(try await server.hits() == 2)
    // missing, file present: replays, records nothing, refuses what is not there.
    let refused = try await run(.missing, ["/json", "/status/204"])
    #expect(refused.isEmpty)
    #expect(try recordedPaths() == ["/json", "/bytes/8"])
    #expect(try await server.hits() == 2)
    // newEpisodes: replays /json, records and appends /status/204.
    #expect(try await run(.newEpisodes, ["/json", "/status/204"]).isEmpty)
    #expect(try recordedPaths() == ["/json", "/bytes/8", "/status/204"])
    #expect(try await server.hits() == 3)
    // all: records everything afresh.
    #expect(try await run(.all, ["/bytes/4"]).isEmpty)
    #expect(try recordedPaths() == ["/bytes/4"])
    #expect(try await server.hits() == 4)
    // never: replays, never touches the server.
    #expect(try await run(.never, ["/bytes/4", "/json"]).isEmpty)
    #expect(try await server.hits() == 4)
  }

  @Test func theEnvironmentOverridesTheModeInCode() {
    #expect(RecordMode.effective(.never, environment: ["UNDERSTUDY_RECORD": "all"]) == .all)
    #expect(
      RecordMode.effective(.all, environment: ["UNDERSTUDY_RECORD": "new_episodes"]) == .newEpisodes
    )
    #expect(
      RecordMode.effective(.never, environment: ["UNDERSTUDY_RECORD": "newEpisodes"])
        == .newEpisodes)
    #expect(RecordMode.effective(.missing, environment: [:]) == .missing)
    #expect(RecordMode.effective(.missing, environment: ["UNDERSTUDY_RECORD": "bogus"]) == .missing)
  }

  @Test func identicalRequestsAreAnsweredInRecordedOrder() async throws {
    let file = Self.temporaryCassette()
    let request = InterceptedRequest(url: URL(string: "https://api.test/counter")!)
    func entry(_ body: String) -> HAR.Entry {
      HAR.Entry(
        request: request,
        response: HAR.Response(
          status: 200, headers: ["Content-Type": "text/plain"], body: Data(body.utf8)),
        startedDateTime: Date(), duration: .milliseconds(3))
    }
    try HAR(entries: [entry("first"), entry("second")]).write(to: file)

    let registry = StubRegistry()
    registry.use(Cassette(at: file, options: CassetteOptions(reportsUnusedEntries: true)))
    let session = registry.makeSession()
    #expect(try await session.text(from: request.url) == "first")
    #expect(try await session.text(from: request.url) == "second")
    let error = try await #require(throws: URLError.self) {
      try await session.data(from: request.url)
    }
    #expect(error.localizedDescription.contains("already replayed"))

    let repeating = StubRegistry()
    repeating.use(Cassette(at: file, options: CassetteOptions(allowsRepeats: true)))
    let again = repeating.makeSession()
    #expect(try await again.text(from: request.url) == "first")
    #expect(try await again.text(from: request.url) == "second")
    #expect(try await again.text(from: request.url) == "second")
  }

  @Test func unusedEntriesAreReportedWhenAsked() throws {
    let file = Self.temporaryCassette()
    let request = InterceptedRequest(url: URL(string: "https://api.test/never-asked")!)
    try HAR(entries: [
      HAR.Entry(
        request: request, response: HAR.Response(status: 204, headers: [:], body: nil),
        startedDateTime: Date(), duration: .zero)
    ]).write(to: file)
    let failures = Cassette(at: file, options: CassetteOptions(reportsUnusedEntries: true)).finish()
    #expect(failures.count == 1)
    #expect(
      failures[0].message.contains("entry 0 (GET https://api.test/never-asked) was never replayed"))
  }

  @Test func aBrowserExportedHARReplaysAsItIs() async throws {
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../../Fixtures/HAR/chrome-export.har").standardizedFileURL
    let registry = StubRegistry()
    let cassette = Cassette(at: fixture, options: CassetteOptions(allowsRepeats: true))
    #expect(cassette.problem == nil)
    registry.use(cassette)
    let (_, response) = try await registry.makeSession().data(
      from: URL(string: "https://shop.example.com/?ref=home")!)
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
  }

  @Test func aMalformedCassetteNamesTheFileAndThePlace() async throws {
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../../Fixtures/HAR/malformed/wrong-type-status.har")
      .standardizedFileURL
    let registry = StubRegistry()
    let cassette = Cassette(at: fixture)
    registry.use(cassette)
    let problem = try #require(cassette.problem)
    #expect("\(problem)".contains("wrong-type-status.har"))
    #expect("\(problem)".contains("log.entries[1].response.status"))
    let error = try await #require(throws: URLError.self) {
      try await registry.makeSession().data(from: URL(string: "https://api.test/")!)
    }
    #expect(error.localizedDescription.contains("log.entries[1].response.status"))
  }

  @Test func stubsStillTakePrecedenceOverTheCassette() async throws {
    let file = Self.temporaryCassette()
    let request = InterceptedRequest(url: URL(string: "https://api.test/a")!)
    try HAR(entries: [
      HAR.Entry(
        request: request,
        response: HAR.Response(status: 200, headers: [:], body: Data("cassette".utf8)),
        startedDateTime: Date(), duration: .zero)
    ]).write(to: file)
    let registry = StubRegistry()
    registry.use(Cassette(at: file))
    registry.stub(.get("/a"), .text("stub"))
    #expect(try await registry.makeSession().text(from: request.url) == "stub")
  }
}

/// Secrets never reach a written cassette.
@Suite struct RecordingSecretsTests {
  /// Builds a credential-shaped value at run time so the source holds no secret-looking literal.
  static func fakeToken(_ label: String) -> String {
    ["tok", label, UUID().uuidString.replacingOccurrences(of: "-", with: "")].joined(separator: "_")
  }

  @Test func defaultRedactionRemovesHeaderQueryCookieAndJSONSecrets() async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    let file = RecordReplayTests.temporaryCassette()
    let bearer = Self.fakeToken("bearer")
    let apiKey = Self.fakeToken("query")
    let cookie = Self.fakeToken("cookie")
    let password = Self.fakeToken("password")

    let registry = StubRegistry()
    let cassette = Cassette(at: file, mode: .all)
    registry.use(cassette)
    var request = URLRequest(url: server.url("/json?api_key=\(apiKey)&page=2"))
    request.httpMethod = "POST"
    request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization")
    request.setValue("session=\(cookie)", forHTTPHeaderField: "Cookie")
    request.httpBody = Data(#"{"user":"ada","password":"\#(password)"}"#.utf8)
    _ = try await registry.makeSession().data(for: request)
    #expect(cassette.finish().isEmpty)

    let written = try String(contentsOf: file, encoding: .utf8)
    for secret in [bearer, apiKey, cookie, password] { #expect(!written.contains(secret)) }
    #expect(written.contains("<redacted:authorization:"))
    #expect(written.contains("page=2"))

    // Replaying with the same redaction still matches the live request carrying the secrets.
    let replaying = StubRegistry()
    replaying.use(Cassette(at: file))
    let (_, response) = try await replaying.makeSession().data(for: request)
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
  }

  @Test func aCredentialLeftInTheBodyStopsTheWriteAndSaysWhere() async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    let file = RecordReplayTests.temporaryCassette()
    let jwt = [
      "eyJhbGciOiJIUzI1NiJ9", "eyJzdWIiOiJ0ZXN0LXVzZXItMTIzNDU2In0",
      "c2lnbmF0dXJlLXRoYXQtaXMtbG9uZw",
    ]
    .joined(separator: ".")
    let registry = StubRegistry()
    let cassette = Cassette(at: file, mode: .all)
    registry.use(cassette)
    var request = URLRequest(url: server.url("/echo"))
    // The echo endpoint copies this header into its JSON body. No rule names the header, so
    // nothing redacts it or its echo; only the scan sees the JWT.
    request.setValue(jwt, forHTTPHeaderField: "X-Request-Context")
    _ = try await registry.makeSession().data(for: request)
    let failures = cassette.finish()
    #expect(failures.count == 1)
    #expect(failures.first?.message.contains("was not written") == true)
    #expect(failures.first?.message.contains("log.entries[0].response.content.text") == true)
    #expect(!FileManager.default.fileExists(atPath: file.path))
    // The advice survives the mask every printed line passes through.
    let printed = LogRedaction.mask(failures.first?.message ?? "", noting: true)
    #expect(printed.contains("set allowsCredentials to true to skip the scan."))

    // Allowing another value changes nothing; allowing this one lets the cassette be written.
    let otherAllowed = StubRegistry()
    let stillStrict = Cassette(
      at: file, mode: .all,
      options: CassetteOptions(redaction: .default.allowingCredentials(.value("not-this-one"))))
    otherAllowed.use(stillStrict)
    _ = try await otherAllowed.makeSession().data(for: request)
    #expect(stillStrict.finish().first?.message.contains("allowingCredentials") == true)
    #expect(!FileManager.default.fileExists(atPath: file.path))

    let allowed = StubRegistry()
    let withAllowance = Cassette(
      at: file, mode: .all,
      options: CassetteOptions(redaction: .default.allowingCredentials(.value(jwt))))
    allowed.use(withAllowance)
    _ = try await allowed.makeSession().data(for: request)
    #expect(withAllowance.finish().isEmpty)
    #expect(FileManager.default.fileExists(atPath: file.path))
    try FileManager.default.removeItem(at: file)

    let allowing = StubRegistry()
    let permissive = Cassette(
      at: file, mode: .all, options: CassetteOptions(allowsCredentials: true))
    allowing.use(permissive)
    _ = try await allowing.makeSession().data(for: request)
    #expect(permissive.finish().isEmpty)
    #expect(FileManager.default.fileExists(atPath: file.path))
  }

  @Test func placeholdersCanBeRestoredOnReplay() async throws {
    let file = RecordReplayTests.temporaryCassette()
    let request = InterceptedRequest(url: URL(string: "https://api.test/token")!)
    try HAR(entries: [
      HAR.Entry(
        request: request,
        response: HAR.Response(
          status: 200, headers: ["Content-Type": "application/json"],
          body: Data(#"{"access_token":"<redacted:access_token>"}"#.utf8)),
        startedDateTime: Date(), duration: .zero)
    ]).write(to: file)
    let registry = StubRegistry()
    registry.use(
      Cassette(at: file, options: CassetteOptions(restoring: ["access_token": "test-token"])))
    #expect(
      try await registry.makeSession().text(from: request.url) == #"{"access_token":"test-token"}"#)
  }
}

/// Comparing live answers with the cassette without writing it.
@Suite struct DriftCheckTests {
  @Test func driftIsReportedAndTheCassetteLeftAlone() async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    let file = RecordReplayTests.temporaryCassette()
    let recording = StubRegistry()
    let recorder = Cassette(at: file, mode: .all)
    recording.use(recorder)
    var request = URLRequest(url: server.url("/echo/drift"))
    request.setValue("one", forHTTPHeaderField: "X-Version")
    _ = try await recording.makeSession().data(for: request)
    _ = try await recording.makeSession().data(from: server.url("/json"))
    #expect(recorder.finish().isEmpty)
    let before = try Data(contentsOf: file)

    let checking = StubRegistry()
    let checker = Cassette(at: file, mode: .driftCheck)
    checking.use(checker)
    request.setValue("two", forHTTPHeaderField: "X-Version")
    _ = try await checking.makeSession().data(for: request)
    _ = try await checking.makeSession().data(from: server.url("/json"))
    let failures = checker.finish()
    #expect(failures.count == 1)
    #expect(failures.first?.message.contains("/echo/drift (entry 0): body") == true)
    #expect(try Data(contentsOf: file) == before)
  }

  /// A key one request sent, echoed in a later request's URL that the cassette lacks (a
  /// redirect's next hop), is masked in that drift line too (second blind attack, P182).
  /// A live answer that hands out a token the next request sends as a bearer: its drift line,
  /// which quotes the token cut short, masks it, as the cassette would replace it.
  @Test func aTokenALaterRequestSendsIsMaskedInAnEarlierDriftLine() async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    let file = RecordReplayTests.temporaryCassette()
    var first = URLRequest(url: server.url("/echo/handout"))
    first.setValue("Rec0rdedValueAbcdefghij1", forHTTPHeaderField: "X-Trace")
    let recording = StubRegistry()
    let recorder = Cassette(at: file, mode: .all)
    recording.use(recorder)
    _ = try await recording.makeSession().data(for: first)
    #expect(recorder.finish().isEmpty)

    // Longer than the 40 characters a difference quotes, and no shape a mask knows.
    let token = "correct-horse-battery-staple-" + "purple-monkey-dishwasher"
    let checking = StubRegistry()
    let checker = Cassette(at: file, mode: .driftCheck)
    checking.use(checker)
    first.setValue(token, forHTTPHeaderField: "X-Trace")
    _ = try await checking.makeSession().data(for: first)
    var next = URLRequest(url: server.url("/echo/me"))
    next.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    _ = try await checking.makeSession().data(for: next)
    let messages = checker.finish().map(\.message)
    #expect(messages.contains { $0.contains("first difference") }, "\(messages)")
    #expect(!messages.joined().contains(token.prefix(14)), "\(messages)")
  }

  /// Where the cassette holds a placeholder (the token an answer handed out, which the next
  /// request sent as a bearer), the live server's new token is masked in the drift line, though
  /// no request of the check sends it.
  @Test func aLiveValueWhereTheCassetteHoldsAPlaceholderIsMaskedInADriftLine() async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    let file = RecordReplayTests.temporaryCassette()
    let recorded = "Rec0rdedTokenAbcdefgh1234"
    var first = URLRequest(url: server.url("/echo/handout"))
    first.setValue(recorded, forHTTPHeaderField: "X-Trace")
    var next = URLRequest(url: server.url("/echo/me"))
    next.setValue("Bearer \(recorded)", forHTTPHeaderField: "Authorization")
    let recording = StubRegistry()
    let recorder = Cassette(at: file, mode: .all)
    recording.use(recorder)
    _ = try await recording.makeSession().data(for: first)
    _ = try await recording.makeSession().data(for: next)
    #expect(recorder.finish().isEmpty)

    let fresh = "09pykd9trQCUfSbKYiLSKnzV"
    let checking = StubRegistry()
    let checker = Cassette(at: file, mode: .driftCheck)
    checking.use(checker)
    first.setValue(fresh, forHTTPHeaderField: "X-Trace")
    _ = try await checking.makeSession().data(for: first)
    let messages = checker.finish().map(\.message)
    #expect(messages.contains { $0.contains("first difference") }, "\(messages)")
    #expect(!messages.joined().contains(fresh.prefix(8)), "\(messages)")
  }

  /// A replay miss for a request whose path holds a new token where the cassette's entry holds
  /// a placeholder (an invite token that only the next request named): the report masks it.
  @Test func aLiveValueWhereAnEntryHoldsAPlaceholderIsMaskedInAMissReport() async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    let file = RecordReplayTests.temporaryCassette()
    let invite = "8jl2GOaAy9lDYg91xv4O"
    let recording = StubRegistry()
    let recorder = Cassette(at: file, mode: .all)
    recording.use(recorder)
    _ = try await recording.makeSession().data(from: server.url("/echo/invite/\(invite)/accept"))
    var login = URLRequest(url: server.url("/echo/login"))
    login.httpMethod = "POST"
    login.httpBody = Data(#"{"user":"ada","password":"\#(invite)"}"#.utf8)
    login.setValue("application/json", forHTTPHeaderField: "Content-Type")
    _ = try await recording.makeSession().data(for: login)
    #expect(recorder.finish().isEmpty)

    let fresh = "Zq4wN8vB2mK6pR1tY7uE"
    let replaying = StubRegistry()
    replaying.use(Cassette(at: file, mode: .never))
    do {
      _ = try await replaying.makeSession().data(from: server.url("/echo/invite/\(fresh)/accept"))
      Issue.record("a request the cassette does not hold was answered")
    } catch {
      let shown = [String(describing: error), "\((error as NSError).userInfo)"]
      #expect(shown.contains { $0.contains("no recorded answer") }, "\(shown)")
      for text in shown { #expect(!text.contains(fresh.prefix(10)), "\(text)") }
    }
  }

  @Test func aKeyAnEarlierRequestSentIsMaskedInALaterDriftLine() async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    let key = "Psex90pZZHCuYnatQJomVIGb"
    let file = RecordReplayTests.temporaryCassette()
    var request = URLRequest(url: server.url("/echo/keyed"))
    request.setValue(key, forHTTPHeaderField: "X-Api-Key")
    let recording = StubRegistry()
    let recorder = Cassette(at: file, mode: .all)
    recording.use(recorder)
    _ = try await recording.makeSession().data(for: request)
    #expect(recorder.finish().isEmpty)

    let checking = StubRegistry()
    let checker = Cassette(at: file, mode: .driftCheck)
    checking.use(checker)
    _ = try await checking.makeSession().data(for: request)
    _ = try await checking.makeSession().data(from: server.url("/json?ref=\(key)"))
    let messages = checker.finish().map(\.message)
    #expect(messages.contains { $0.contains("not in the cassette") }, "\(messages)")
    #expect(!messages.joined().contains(key), "\(messages)")
  }
}
