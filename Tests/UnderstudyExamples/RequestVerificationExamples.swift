import Testing
import Understudy
import XCTest

/// The examples of "Verifying what was sent" and "Waiting for a request" in
/// Documentation/Verification.md.
@Suite struct RequestVerificationExamples {
  @Test func verifyingWhatWasSent() async throws {
    let registry = StubRegistry()
    registry.stub(.post("/events"), .status(202))
    let session = registry.makeSession()
    for type in ["opened", "closed"] {
      var request = URLRequest(url: URL(string: "https://api.example.com/events")!)
      request.httpMethod = "POST"
      request.httpBody = Data(#"{"type":"\#(type)"}"#.utf8)
      _ = try await session.data(for: request)
    }

    registry.verify(.post("/events"), .exactly(2))
    registry.verify(.post("/events") && .jsonBody(subset: ["type": "opened"]), .once)
    registry.verify(.delete("/events"), .never)
  }

  @Test func tooFewRequestsListTheClosest() async throws {
    let registry = StubRegistry()
    registry.stub(.any, .ok)
    _ = try await registry.makeSession().data(from: URL(string: "https://api.example.com/event")!)

    withKnownIssue {
      registry.verify(.get("/events"), .atLeast(1))
    } matching: { issue in
      "\(issue)".contains("✗ path: expected == /events, got /event")
    }
  }

  @Test func waitingForABackgroundRequest() async throws {
    let registry = StubRegistry()
    registry.stub(.post("/analytics"), .status(204))
    let session = registry.makeSession()
    // Code under test that fires a request and does not wait for it.
    Task.detached {
      var request = URLRequest(url: URL(string: "https://api.example.com/analytics")!)
      request.httpMethod = "POST"
      request.httpBody = Data(#"{"event":"launch"}"#.utf8)
      _ = try? await session.data(for: request)
    }

    let sent = try await registry.request(matching: .post("/analytics"), timeout: .seconds(30))
    #expect(sent.body == Data(#"{"event":"launch"}"#.utf8))
  }

  @Test func watchingTrafficAsItHappens() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/poll"), .ok)
    let session = registry.makeSession()
    let entries = registry.journalEntries()  // before the traffic starts
    Task.detached {
      for _ in 0..<3 {
        _ = try? await session.data(from: URL(string: "https://api.example.com/poll")!)
      }
    }

    var polls = 0
    for await entry in entries where entry.request.url.path == "/poll" {
      polls += 1
      if polls == 3 { break }
    }
    #expect(polls == 3)
  }
}

/// The same, in XCTest.
final class RequestVerificationXCTestExamples: StubbedTestCase {
  func testSendsTwoEvents() async throws {
    stubs.stub(.post("/events"), .status(202))
    var request = URLRequest(url: URL(string: "https://api.example.com/events")!)
    request.httpMethod = "POST"
    _ = try await stubs.makeSession().data(for: request)
    _ = try await stubs.makeSession().data(for: request)

    stubs.verify(.post("/events"), .exactly(2))
    let sent = try await stubs.request(matching: .post("/events"), timeout: .seconds(2))
    XCTAssertEqual(sent.method, "POST")
  }
}
