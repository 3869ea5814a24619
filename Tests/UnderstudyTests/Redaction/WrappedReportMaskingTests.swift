import Foundation
import Testing

@testable import Understudy

/// Reports open the wrappers cassettes open (held-out attack of 2026-12-06): JSON three levels
/// down in strings, base64 of base64 of a form, and MIME's base64 over lines, in a report's text
/// as in a recorded body.
@Suite struct WrappedReportMaskingTests {
  /// `value` as a JSON string, quotes and backslashes escaped.
  private func quoted(_ value: String) -> String {
    "\""
      + value.replacingOccurrences(of: "\\", with: #"\\"#)
      .replacingOccurrences(of: "\"", with: #"\""#) + "\""
  }

  @Test func jsonAtAnyDepthOfStringsIsMaskedInReports() throws {
    for name in ["password", "apiKey", "client_secret"] {
      let secret = plantedSecret("report depth \(name)")
      var document = #"{"\#(name)":"\#(secret)","n":1}"#
      for level in 1...4 {
        document = #"{"a\#(level)":\#(quoted(document))}"#
        let masked = LogRedaction.mask("body: " + document)
        #expect(!masked.contains(secret), "level \(level): \(masked)")
        try SpelledSecretChecks.expectHidden(
          document, mimeType: "application/json", secrets: [secret])
      }
    }
  }

  /// A value with an escaped quote inside it, one level down, is still masked whole.
  @Test func anEscapedQuoteInsideANestedValueIsMaskedWithIt() {
    let secret = plantedSecret("quote inside")
    let text = #"{"payload":"{\"password\":\"a\\\"\#(secret)\"}"}"#
    #expect(!LogRedaction.mask(text).contains(secret))
  }

  @Test func base64OfBase64OfAFormIsMaskedInReports() throws {
    let secret = plantedSecret("b64 b64")
    let form = "user=ada&password=\(secret)&x=1"
    var wrapped = form
    for level in 1...3 {
      wrapped = Data(wrapped.utf8).base64EncodedString()
      for text in [wrapped, "body: " + wrapped + " (sent)", #"{"blob":"\#(wrapped)"}"#] {
        let masked = LogRedaction.mask(text)
        for reading in SpelledSecretChecks.readings(of: masked) {
          #expect(!reading.contains(secret), "level \(level): \(masked)")
        }
      }
      try SpelledSecretChecks.expectHidden(wrapped, mimeType: "text/plain", secrets: [secret])
    }
  }

  /// Base64 of text with nothing secret in it is shown as it is.
  @Test func base64OfPlainTextIsShown() {
    let text = Data("just some plain words, nothing here at all".utf8).base64EncodedString()
    #expect(LogRedaction.mask("body: " + text) == "body: " + text)
  }

  /// MIME writes base64 76 characters a line; a credential pair or a declared value inside is
  /// found as in base64 on one line, in a whole body, in an e-mail's part and in a report.
  @Test(arguments: ["\r\n", "\n"])
  func mimeLineWrappedBase64IsOpened(lineBreak: String) throws {
    let secret = plantedSecret("mime \(lineBreak.count)")
    let text =
      String(repeating: "filler words here ", count: 8) + "password=\(secret) end "
      + String(repeating: "more filler ", count: 8)
    let options: Data.Base64EncodingOptions =
      lineBreak == "\n"
      ? [.lineLength76Characters, .endLineWithLineFeed]
      : [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed]
    let mime = Data(text.utf8).base64EncodedString(options: options)
    #expect(mime.contains(lineBreak))
    let email =
      "From: a@b.test\(lineBreak)Content-Transfer-Encoding: base64\(lineBreak)\(lineBreak)"
      + mime + lineBreak
    for body in [mime, email] {
      try SpelledSecretChecks.expectHidden(body, mimeType: "text/plain", secrets: [secret])
      try SpelledSecretChecks.expectHidden(body, mimeType: "message/rfc822", secrets: [secret])
    }
    let declared = plantedSecret("mime declared \(lineBreak.count)")
    let holding = Data(
      (String(repeating: "x", count: 70) + declared + String(repeating: "y", count: 70)).utf8
    )
    .base64EncodedString(options: options)
    try SpelledSecretChecks.expectHidden(
      "Content-Transfer-Encoding: base64\(lineBreak)\(lineBreak)" + holding, mimeType: "text/plain",
      secrets: [declared], redaction: .default.redactingValues(["mime": declared]), masking: false)
  }
}
