import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A credential pair written in text that is no form, after a space or at the start of the text
/// (`level=info token=…` in a log line, a sentence in a JSON string, a header): redaction read
/// pairs only after `?`, `&`, `;` or `#`, so a cassette kept these while a printed report masked
/// them (found 2026-11-28).
@Suite struct TextPairRedactionTests {
  static func logLines(_ token: String, _ secret: String) -> String {
    "2026-11-28T03:00:00Z level=info msg=\"signed in\" token=\(token)\n"
      + "client_secret=\(secret) retry=2\n"
  }

  @Test func aPairInAPlainTextBodyIsRedactedAndScanned() throws {
    let token = plantedSecret("text token")
    let secret = plantedSecret("text secret")
    let entry = HAR.Entry.sample(
      method: "POST",
      postData: HAR.PostData(mimeType: "text/plain", text: Self.logLines(token, secret)),
      content: HAR.Content(body: Data(Self.logLines(token, secret).utf8), mimeType: "text/plain"))
    #expect(CredentialScanner().scan(HAR(entries: [entry])).count >= 2)
    let redacted = Redaction.default.redact(HAR(entries: [entry]))
    let text = try redacted.encodedText
    #expect(!text.contains(token) && !text.contains(secret))
    #expect(try Redaction.default.redact(redacted).encodedText == text, "redacting is idempotent")
    // The request is redacted first; the response then meets the same values as echoes.
    #expect(
      redacted.log.entries[0].request.postData?.text
        == "2026-11-28T03:00:00Z level=info msg=\"signed in\" token=%3Credacted:token%3E\n"
        + "client_secret=%3Credacted:client_secret%3E retry=2\n")
    #expect(
      redacted.log.entries[0].response.content.text
        == "2026-11-28T03:00:00Z level=info msg=\"signed in\" token=<redacted:token>\n"
        + "client_secret=<redacted:client_secret> retry=2\n")
    #expect(CredentialScanner().scan(redacted).isEmpty)
  }

  /// A password holds `#`, `;` and `&` as often as any character: the part after one reached
  /// the cassette and the printed report (found 2026-11-29). A value now runs on over one that
  /// starts no pair; a query's next pair and a page's `&amp;` still end it.
  @Test func aValueRunsOnOverADelimiterThatStartsNoPair() throws {
    let afterHash = plantedSecret("after a hash")
    let afterSemicolon = plantedSecret("after a semicolon")
    let afterAmpersand = plantedSecret("after an ampersand")
    let text =
      "password=P@ss#\(afterHash)\ndb.password=Ab1;\(afterSemicolon)\n"
      + "token=Ab1&\(afterAmpersand) next=1\n<a href=\"/cb?code=abc&amp;page=2\">next</a>"
    let (written, body) = redactedResponse(text, mimeType: "text/plain")
    #expect(
      body
        == "password=%3Credacted:password%3E\ndb.password=%3Credacted:db.password%3E\n"
        + "token=%3Credacted:token%3E next=1\n"
        + "<a href=\"/cb?code=%3Credacted:code%3E&amp;page=2\">next</a>")
    let printed = LogRedaction.mask(text)
    for secret in [afterHash, afterSemicolon, afterAmpersand] {
      #expect(!printed.contains(secret), "printed: \(printed)")
      #expect(try !written.encodedText.contains(secret))
    }
    #expect(printed.contains("&amp;page=2"), "printed: \(printed)")
  }

  @Test func pairsThatNameNoCredentialAreKept() throws {
    let text = "level=info user=ada page=2 a==b =c token= done"
    let entry = HAR.Entry.sample(
      content: HAR.Content(body: Data(text.utf8), mimeType: "text/plain"))
    let redacted = Redaction.default.redact(HAR(entries: [entry]))
    #expect(redacted.log.entries[0].response.content.text == text)
  }

  /// Recorded through a real server, written, then replayed with the body compared byte for
  /// byte: the live request is redacted the same way, so it still finds its entry.
  @Test func aRecordedLogLineReplaysByItsRedactedBody() async throws {
    let token = plantedSecret("replayed token")
    try await expectRecordedAndReplayed(
      keeping: token, matching: ReplayMatching([.method, .path, .body])
    ) { server in
      var post = URLRequest(url: server.url("/echo/log"))
      post.httpMethod = "POST"
      post.httpBody = Data("level=debug token=\(token)".utf8)
      post.setValue("text/plain", forHTTPHeaderField: "Content-Type")
      return post
    }
  }
}
