import Foundation
import Testing

@testable import Understudy

/// Replay's `.headers(keeping:)` filter: a cassette keeps only the headers named, and what the
/// left-out headers carried is still redacted where the server echoed it.
@Suite struct HeaderAllowListTests {
  private let token = "tok_4f9a8b7c6d5e4f3a2b1c"

  private func entry() -> HAR.Entry {
    HAR.Entry(
      request: InterceptedRequest(
        url: URL(string: "https://api.test/orders")!,
        headers: [
          "Authorization": "Bearer \(token)", "Accept": "application/json",
          "Cookie": "sid=s3ss10nv4lue99", "X-Request-Id": "r-1",
        ]),
      response: HAR.Response(
        status: 200,
        headers: [
          "Content-Type": "text/plain", "Set-Cookie": "sid=n3wv4lue77; Path=/", "Server": "nginx",
          "x-request-id": "r-1",
        ],
        body: Data("you sent \(token)".utf8)),
      startedDateTime: Date(timeIntervalSince1970: 1_700_000_000), duration: .milliseconds(3))
  }

  @Test func onlyTheNamedHeadersAreWrittenInAnyCase() throws {
    let redaction = Redaction.default.keepingOnlyHeaders("content-type").keepingOnlyHeaders(
      "X-REQUEST-ID")
    let written = redaction.redact(entry())
    #expect(written.request.headers.map(\.name) == ["X-Request-Id"])
    #expect(Set(written.response.headers.map(\.name)) == ["Content-Type", "x-request-id"])
    #expect(written.request.cookies.isEmpty)
    #expect(written.response.cookies.isEmpty)
    #expect(redaction.keptHeaderNames == ["content-type", "X-REQUEST-ID"])
  }

  @Test func aLeftOutCredentialIsStillRedactedWhereItWasEchoed() throws {
    let har = HAR(entries: [entry()])
    let written = Redaction.default.keepingOnlyHeaders("Content-Type").redact(har)
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("understudy-kept-headers-\(UUID().uuidString).har")
    defer { try? FileManager.default.removeItem(at: file) }
    try written.write(to: file)
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(!text.contains(token))
    #expect(!text.contains("s3ss10nv4lue99"))
    #expect(!text.contains("Authorization"))
    #expect(text.contains("you sent <redacted:authorization"))
  }

  @Test func withoutAnAllowListEveryHeaderIsWritten() {
    let written = Redaction.default.redact(entry())
    #expect(written.request.headers.count == 4)
    #expect(written.response.headers.count == 4)
  }
}
