import Foundation
import Testing

@testable import Understudy

/// An event stream's `data:` lines are one value joined by line breaks, so a JSON document a
/// server split over them is read whole (a blind attack of 2026-12-07: a member's name ending one line
/// and its value starting the next, nested or after another member).
@Suite struct SplitEventDataTests {
  static let secret = "Limestone2010*pebble"

  @Test(arguments: [
    "data: {\"a\":{\"refresh_token\":\ndata: \"\(secret)\"}}\n\n",
    "data: {\"x\":1,\"refresh_token\":\ndata: \"\(secret)\"}\n\n",
    "data: {\"jsonrpc\":\"2.0\",\"result\":{\"sessionToken\":\ndata: \"\(secret)\"}}\n\n",
    "id: 7\r\ndata: [{\"name\": \"ada\",\r\ndata:  \"password\": \"\(secret)\"}]\r\n\r\n",
    "event: update\ndata: {\"user\": {\ndata: \"api_key\":\ndata: \"\(secret)\"}}\n",
  ])
  func aJSONDocumentSplitOverDataLinesIsReadWhole(_ body: String) {
    let redacted = RedactionPlacesTests.redactedBody(body, "text/event-stream")
    #expect(!redacted.contains(Self.secret), "\(redacted)")
    // Each line stays a line of its own event.
    #expect(
      redacted.components(separatedBy: "data:").count == body.components(separatedBy: "data:").count
    )
  }

  @Test func eventsOfOneLineAndTextAcrossLinesAreKept() {
    let body = "data: {\"ok\": true}\n\ndata: first line\ndata: second line\n\n"
    #expect(RedactionPlacesTests.redactedBody(body, "text/event-stream") == body)
  }
}
