import Testing
import Understudy

/// The examples of Documentation/Verification.md (and its DocC article).
@Suite struct VerificationExamples {
  @Test func theNearMissReport() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/users/{id}") && .header("Accept", "application/json"), .ok)
    var request = URLRequest(url: URL(string: "https://api.example.com/users/42")!)
    request.setValue("text/html", forHTTPHeaderField: "Accept")

    let error = await #expect(throws: URLError.self) {
      try await registry.makeSession().data(for: request)
    }

    let underlying = error?.userInfo[NSUnderlyingErrorKey] as? UnmatchedRequestError
    let closest = try #require(underlying?.report.candidates.first)
    #expect(closest.mismatches.map(\.field) == ["header Accept"])
    guard case .unmatched(let report) = registry.journal.first?.outcome else {
      Issue.record("the journal has no unmatched entry")
      return
    }
    #expect(report.candidates.count == 1)
  }

  @Test func callCounts() async throws {
    let registry = StubRegistry()
    let login = registry.stub(.post("/login"), .json(["token": "t-1"]))
    let logout = registry.stub(.post("/logout"), .ok)
    var request = URLRequest(url: URL(string: "https://api.example.com/login")!)
    request.httpMethod = "POST"
    _ = try await registry.makeSession().data(for: request)

    #expect(login.callCount == 1)
    #expect(login.requests.first?.method == "POST")
    registry.verify(login, calledTimes: 1)
    registry.verify(logout, calledTimes: 0)
  }

  @Test func aFailedVerificationIsReportedAtTheCall() async throws {
    let registry = StubRegistry()
    let ping = registry.stub(.get("/ping"), .ok)
    _ = try await registry.makeSession().data(from: URL(string: "https://api.example.com/ping")!)

    withKnownIssue {
      registry.verify(ping, calledTimes: 2)
    } matching: { issue in
      "\(issue)".contains("was expected to answer 2 request(s) but answered 1")
    }
  }

  @Test func theJournal() async throws {
    let registry = StubRegistry()
    registry.stub(.post("/events"), .status(202))
    var request = URLRequest(url: URL(string: "https://api.example.com/events")!)
    request.httpMethod = "POST"
    request.httpBody = Data(#"{"type":"opened"}"#.utf8)
    _ = try await registry.makeSession().data(for: request)

    let entry = try #require(registry.journal.first)
    #expect(entry.request.body == Data(#"{"type":"opened"}"#.utf8))
    #expect(entry.response?.status == 202)
  }

  @Test func endingAScopeByHand() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/users/{id}"), .ok)
    registry.stub(.get("/teams/{id}"), .ok)
    _ = try await registry.makeSession().data(from: URL(string: "https://api.example.com/users/1")!)

    let failures = registry.endScope(testName: "loadsProfile()", verifying: [.allStubsUsed])

    #expect(
      failures.map(\.message) == [
        "Stub method == GET && path ~ /teams/{id} was never used. Remove it, or check why no request matched it."
      ])
  }
}

/// Saving a test's traffic (Documentation/Verification.md).
@Suite struct SavingTrafficExamples {
  @Test func savesTheTrafficAsHAR() async throws {
    let folder = FileManager.default.temporaryDirectory.appending(path: UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let registry = StubRegistry()
    registry.stub(.get("https://api.example.com/users/{id}"), .json(User(id: 42, name: "Ada")))
    var request = URLRequest(url: URL(string: "https://api.example.com/users/42")!)
    request.setValue("Bearer s3cr3t-t0ken-value", forHTTPHeaderField: "Authorization")
    _ = try await registry.makeSession().data(for: request)

    let traffic = HAR(journal: registry.journal, name: "checkout")
    try traffic.write(to: folder.appending(path: "checkout-traffic.har"))

    let written = try String(
      contentsOf: folder.appending(path: "checkout-traffic.har"), encoding: .utf8)
    #expect(written.contains("https://api.example.com/users/42"))
    #expect(!written.contains("s3cr3t-t0ken-value"))
  }
}
