import Foundation
import Testing

@testable import Understudy

/// A server that answers with a base64 blob holding what the request sent (an echo endpoint,
/// a queued job's payload): the blob that holds a redacted value is replaced whole, so no piece
/// of it is left for the credential scan to take for a key, and the cassette is written.
@Suite struct Base64BlobEchoTests {
  @Test(arguments: 0..<24)
  func aBlobHoldingARedactedValueIsReplacedWholeAndTheCassetteIsWritten(padding: Int) throws {
    let password = "pw-\(padding)-Kq7Wz3Rt9Pl2Mn5V"
    let sent = #"{"user":"ada","password":"\#(password)"}"#
    // The value at every offset of a base64 group, inside JSON whose words include `secret`.
    let inner =
      String(repeating: "x", count: padding)
      + #"{"secret_question":"first pet","sent":\#(sent),"note":"\#(String(repeating: "ok ", count: 30))"}"#
    let blob = Data(inner.utf8).base64EncodedString()
    let entry = HAR.Entry(
      request: InterceptedRequest(
        method: .post, url: URL(string: "https://api.test/echo")!,
        headers: ["Content-Type": "application/json"], body: Data(sent.utf8)),
      response: HAR.Response(
        status: 200, headers: ["Content-Type": "application/json"],
        body: Data(#"{"echo":"\#(blob)","kind":"base64"}"#.utf8)),
      startedDateTime: Date(timeIntervalSince1970: 1_700_000_000), duration: .milliseconds(3))
    let redacted = Redaction.default.redact(HAR(entries: [entry]))
    let written = String(decoding: try redacted.encoded(), as: UTF8.self)
    for form in ValueSpellings.of(password) {
      #expect(!written.contains(form.text), "\(form.text)")
    }
    #expect(CredentialScanner().scan(redacted: redacted).isEmpty)
    let body = redacted.log.entries[0].response.content.text ?? ""
    #expect(body.contains(#""echo":"<redacted:password>""#), "\(body)")
  }
}
