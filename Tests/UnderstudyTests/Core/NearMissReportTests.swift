import Testing

@testable import Understudy

/// What an unmatched request tells the developer.
@Suite struct NearMissReportTests {
  @Test func theReportNamesTheRequestTheClosestStubsTheirDifferencesAndWhereTheyWereDeclared()
    async throws
  {
    let registry = StubRegistry()
    let line = #line + 1
    registry.stub(.get("/users/{id}") && .header("Accept", "application/json"), .ok)
    registry.stub(.post("/orders"), .ok)
    registry.stub(.get("https://elsewhere.test/health"), .ok)

    var request = URLRequest(url: URL(string: "https://api.test/users/7")!)
    request.setValue("text/html", forHTTPHeaderField: "Accept")
    let error = try await #require(throws: URLError.self) {
      try await registry.makeSession().data(for: request)
    }
    #expect(error.code == .resourceUnavailable)
    let report = try #require(registry.unmatchedReports.first)
    #expect(error.localizedDescription == report.description)
    let text = report.description
    #expect(text.hasPrefix("Understudy: no stub matched GET https://api.test/users/7"))
    #expect(text.contains("Accept: text/html"))
    #expect(text.contains("Closest stubs (3 of 3), best first:"))
    #expect(
      text.contains("1. method == GET && path ~ /users/{id} && header Accept == application/json"))
    #expect(text.contains("declared at UnderstudyTests/NearMissReportTests.swift:\(line)"))
    #expect(text.contains("✗ header Accept: expected == application/json, got text/html"))
    // The closest stub ranks first: everything but one header matched.
    #expect(report.candidates.first?.stub.location.line == line)
    #expect(report.candidates.first?.mismatches.map(\.field) == ["header Accept"])
    #expect(report.candidates[1].score < report.candidates[0].score)
  }

  @Test func anEmptyRegistrySaysSoAndSuggestsAStub() async throws {
    let registry = StubRegistry()
    var request = URLRequest(url: URL(string: "https://api.test/things?x=1")!)
    request.httpMethod = "DELETE"
    request.httpBody = Data("{\"why\":\"cleanup\"}".utf8)
    _ = try? await registry.makeSession().data(for: request)
    let text = try #require(registry.unmatchedReports.first).description
    #expect(text.contains("no stub matched DELETE https://api.test/things?x=1"))
    #expect(text.contains("body (17 bytes): {\"why\":\"cleanup\"}"))
    #expect(text.contains("No stubs are registered"))
    #expect(text.contains("registry.stub(.delete(\"/things\"), .ok)"))
  }

  @Test func theUnderlyingErrorCarriesTheStructuredReport() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/a"), .ok)
    let error = try await #require(throws: URLError.self) {
      try await registry.makeSession().data(from: URL(string: "https://api.test/b")!)
    }
    let underlying = try #require(error.userInfo[NSUnderlyingErrorKey] as? UnmatchedRequestError)
    #expect(underlying.report.request.path == "/b")
    #expect(underlying.report.candidates.count == 1)
  }
}

/// Fixture files, small and large, present and missing.
@Suite struct FixtureTests {
  @Test func aFixtureBesideTheTestFileIsServedWithAGuessedContentType() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/users/1"), .fixture("../Fixtures/user.json"))
    let (data, response) = try await registry.makeSession().data(
      from: URL(string: "https://api.test/users/1")!)
    #expect(String(decoding: data, as: UTF8.self) == "{\"id\": 1, \"name\": \"Ada\"}\n")
    let http = try #require(response as? HTTPURLResponse)
    #expect(http.value(forHTTPHeaderField: "Content-Type") == "application/json")
    #expect(http.expectedContentLength == Int64(data.count))
  }

  @Test func aLargeFixtureIsStreamedToDelegatesInChunksAndWholeToAsyncCallers() async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "understudy-large-\(UUID().uuidString).bin")
    let size = 9 * 1024 * 1024 + 123
    try Data((0..<size).map { UInt8($0 % 251) }).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }

    let registry = StubRegistry()
    registry.stub(.get("/big"), .fixture(at: file))
    let delegate = CollectingDelegate()
    let session = registry.makeSession(delegate: delegate)
    session.dataTask(with: URL(string: "https://api.test/big")!).resume()
    let streamed = try await delegate.result()
    #expect(streamed.body.count == size)
    #expect(streamed.body == (try Data(contentsOf: file)))
    #expect(streamed.chunks > 1)

    let (whole, _) = try await registry.makeSession().data(
      from: URL(string: "https://api.test/big")!)
    #expect(whole.count == size)
    #expect(whole.last == UInt8((size - 1) % 251))
  }

  @Test func aMissingFixtureIsReportedWhereTheStubIsDeclaredAndFailsItsRequests() async throws {
    let registry = StubRegistry()
    let line = #line + 2
    withKnownIssue {
      registry.stub(.get("/missing"), .fixture("Fixtures/does-not-exist.json"))
    } matching: { issue in
      issue.sourceLocation?.line == line
        && "\(issue)".contains("Fixtures/does-not-exist.json")
    }
    let error = try await #require(throws: URLError.self) {
      try await registry.makeSession().data(from: URL(string: "https://api.test/missing")!)
    }
    #expect(error.code == .fileDoesNotExist)
    #expect(error.localizedDescription.contains("fixture file not found at "))
    #expect(error.localizedDescription.contains("Core/Fixtures/does-not-exist.json"))
  }

  @Test func anInvalidPatternIsReportedAtItsStubAndNeverMatches() async throws {
    let registry = StubRegistry()
    withKnownIssue {
      registry.stub(.path(matching: "([unclosed"), .ok)
    } matching: { issue in
      "\(issue)".contains("cannot answer as declared")
    }
    await #expect(throws: URLError.self) {
      try await registry.makeSession().data(from: URL(string: "https://api.test/x")!)
    }
  }
}

extension NearMissReportTests {
  @Test(arguments: [
    (StubResponse.status(2000), "the status 2000 is not an HTTP status code"),
    (.status(0), "the status 0 is not an HTTP status code"),
    (.ok.header("X-Bad\r\nInjected", "1"), "is not a valid HTTP field name"),
    (.ok.header("X Bad", "1"), "is not a valid HTTP field name"),
    (.ok.header("X-Split", "a\r\nInjected: 1"), "holds a line break or a NUL"),
    (.text("hello", status: 204), "a 204 response has no body, but this one has 5 bytes"),
    (.text("hello", status: 304), "a 304 response has no body"),
    (
      .text("hello").header("Content-Length", "10"),
      "the Content-Length 10 disagrees with the body's 5 bytes"
    ),
    (.text("hello").header("content-length", "3"), "or send fewer bytes with .droppingConnection"),
    (.ok.header("Content-Length", "ten"), "the Content-Length \"ten\" is not a number of bytes"),
    (.ok.header("Content-Length", "-1"), "is not a number of bytes"),
    (.redirect(to: ""), "the redirect's Location is empty"),
    (.redirect(to: "http://[::1"), #"the redirect's Location "http://[::1" is not a URL"#),
    (.ok.delayed(by: .nan), "a delay is not a number (NaN)"),
    (.ok.bodyDelayed(by: .nan), "a delay is not a number (NaN)"),
    (.text("hello").throttled(bytesPerSecond: 0), "bytesPerSecond is 0, which sends nothing"),
    (.text("hello").throttled(bytesPerSecond: -5), "bytesPerSecond is -5"),
    (.text("hello").droppingConnection(afterBytes: -1), "dropAfterBytes is -1; give the bytes"),
  ])
  func aResponseNoServerCouldSendIsReportedAtItsStub(response: StubResponse, problem: String)
    throws
  {
    let registry = StubRegistry()
    let issues = Locked<[String]>([])
    withKnownIssue {
      registry.stub(.get("/x"), response)
      registry.stub(.get("/y"), sequence: [.ok, response])
    } matching: { issue in
      issues.withLock { $0.append("\(issue)") }
      return true
    }
    #expect(issues.current.count == 2)
    #expect(
      issues.current.allSatisfy {
        $0.contains("cannot answer as declared: ") && $0.contains(problem)
      }
    )
  }

  /// What a server may send and a stub may therefore say: a length that matches its body, a
  /// length with no body (a HEAD's or a 304's answer), a bodiless 204, and a length a dropped
  /// connection cuts short.
  @Test(arguments: [
    StubResponse.text("hello").header("Content-Length", "5"),
    .text("hello").header("Content-Length", " 5 "),
    .ok.header("Content-Length", "1024"),
    .status(304).header("Content-Length", "1024"),
    .status(204),
    .text("hello").droppingConnection(afterBytes: 2),
    .text("hello").droppingConnection(afterBytes: 0),
    .text("hello").throttled(bytesPerSecond: 1),
    .streaming([(Data("a".utf8), after: 0), (Data("b".utf8), after: 0)]),
  ])
  func aResponseAServerCouldSendIsNotReported(response: StubResponse) {
    #expect(response.problem == nil)
    let registry = StubRegistry()
    registry.stub(.get("/x"), response)
  }
}

/// Requests that outlive the registry their session belongs to.
@Suite struct StragglerTests {
  @Test func aSessionWhoseRegistryIsGoneRefusesInsteadOfAnsweringFromAnother() async throws {
    var registry: StubRegistry? = StubRegistry()
    registry!.stub(.get("/x"), .text("from the old registry"))
    let session = registry!.makeSession()
    registry = nil
    let newer = StubRegistry()
    newer.stub(.get("/x"), .text("from the new registry"))
    let error = try await #require(throws: URLError.self) {
      try await session.data(from: URL(string: "https://api.test/x")!)
    }
    #expect(error.localizedDescription.contains("arrived after its StubRegistry"))
    #expect(error.localizedDescription.contains("was deallocated"))
  }
}
