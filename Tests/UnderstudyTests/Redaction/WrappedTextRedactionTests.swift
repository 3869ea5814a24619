import Foundation
import Testing

@testable import Understudy

/// Places the fifth blind attack of 2026-12-06 carried a value through, each read the way a
/// sibling place already was: an HTML table's header row names its columns as a CSV header row
/// does, a percent-encoded body is read as the text it holds as a base64 one is, and a value is
/// found in two more spellings of its bytes wherever its other spellings are searched for.
@Suite struct WrappedTextRedactionTests {
  static let secret = "Xq7Kp2Lm9Nb4Vc8Zx3QwRt6Y"

  @Test func anHTMLTablesHeaderRowNamesItsColumns() throws {
    let secret = plantedSecret("html th")
    let body =
      "<table><tr><th>User</th><th>Password</th></tr>"
      + "<tr><td>ada</td><td>\(secret)</td></tr>\n"
      + "<TR><TD>bob</TD><TD> <code>\(secret)2</code> </TD></TR></table>"
    let (har, text) = redactedResponse(body, mimeType: "text/html")
    #expect(
      text
        == "<table><tr><th>User</th><th>Password</th></tr>"
        + "<tr><td>ada</td><td>%3Credacted:Password%3E</td></tr>\n"
        + "<TR><TD>bob</TD><TD> %3Credacted:Password%3E </TD></TR></table>")
    #expect(try !har.encodedText.contains(secret))
    try SpelledSecretChecks.expectHidden(body, mimeType: "text/html", secrets: [secret])
    // A `<thead>` row names its columns in `<td>`s too (a blind attack of 2026-12-07).
    let spreadsheet =
      "<table><thead><tr><td>User</td><td>Password</td></tr></thead>"
      + "<tbody><tr><td>ada</td><td>Kittiwake1983$</td></tr></tbody></table>"
    #expect(
      redactedResponse(spreadsheet, mimeType: "text/html").1
        == "<table><thead><tr><td>User</td><td>Password</td></tr></thead>"
        + "<tbody><tr><td>ada</td><td>%3Credacted:Password%3E</td></tr></tbody></table>")
    // A header that names no credential keeps its table.
    let kept = "<table><tr><th>User</th><th>Plan</th></tr><tr><td>ada</td><td>pro</td></tr></table>"
    #expect(redactedResponse(kept, mimeType: "text/html").1 == kept)
  }

  @Test func aPercentEncodedBodyIsReadAsTheTextItHolds() throws {
    for encoded in [
      "%7B%22password%22%3A%22\(Self.secret)%22%7D",
      "%7b%22api_key%22%3a%22\(Self.secret)%22%7d",
      "user%3Dada%26password%3D\(Self.secret)",
      "token:%20\(Self.secret)",
    ] {
      try SpelledSecretChecks.expectHidden(encoded, mimeType: "text/plain", secrets: [Self.secret])
    }
    let (_, text) = redactedResponse(
      "%7B%22password%22%3A%22\(Self.secret)%22%7D", mimeType: "text/plain")
    #expect(text == "%7B%22password%22%3A%22%3Credacted%3Apassword%3E%22%7D")
    #expect(
      redactedResponse("%7b%22a%22%3a1%7d", mimeType: "text/plain").1 == "%7b%22a%22%3a1%7d")
  }

  /// Text wrapped in base64 or hex where a string or a path segment holds it: an AWS Lambda
  /// event's `body`, an OAuth `state`, a body in hex, hex inside a JSON string, base64url JSON as
  /// a path segment, and a pair as a segment. Each is opened, redacted and wrapped again.
  @Test func wrappedTextIsOpenedInStringsAndPathSegments() throws {
    for (index, secret) in CredentialLineTests.values(seed: 11).enumerated() {
      let form = "username=ada&password=\(secret)"
      let json = #"{"password":"\#(secret)","n":\#(index)}"#
      let hex = Data(json.utf8).map { String(format: "%02x", $0) }.joined()
      let base64URL = Data(json.utf8).base64EncodedString()
        .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
      let bodies = [
        (
          #"{"body":"\#(Data(form.utf8).base64EncodedString())","isBase64Encoded":true}"#,
          "application/json"
        ),
        (
          #"{"state":"\#(Data("token=\(secret)&n=1".utf8).base64EncodedString())"}"#,
          "application/json"
        ),
        (hex, "text/plain"), (hex.uppercased(), "text/plain"),
        (#"{"payload":"\#(hex)"}"#, "application/json"),
      ]
      // Every spelling an echo is searched in (base64 at each alignment, hex, …), so a wrapper
      // left closed is found.
      let spellings = RedactionEchoes.spelling([secret])
      for (body, type) in bodies {
        try SpelledSecretChecks.expectHidden(body, mimeType: type, secrets: [secret])
        let written = try redactedResponse(body, mimeType: type).0.encodedText
        #expect(spellings.maskedRanges(in: written).isEmpty, "\(body): \(written)")
      }
      for path in ["/callback/\(base64URL)/done", "/auth/token=\(secret)/x"] {
        let url = "https://api.example.test\(path)"
        let entry = HAR.Entry.sample(url: url)
        let redacted = Redaction.default.redact(HAR(entries: [entry]))
        let written = try redacted.encodedText
        #expect(!written.contains(secret), "\(path): \(written)")
        #expect(!written.contains(base64URL), "\(path): \(written)")
        #expect(Redaction.default.redact(redacted) == redacted)
        let request = InterceptedRequest(
          method: .get, url: try #require(URL(string: url)), headers: HTTPHeaders([:]), body: nil)
        #expect(CompiledRedaction(.default).mayChange(request), "\(path)")
      }
    }
    // Plain words, ids and hashes keep their bytes.
    for kept in [
      #"{"sha":"3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a","id":"AbCdEfGhIjKlMnOpQrStUvWx"}"#,
      "0123456789abcdef0123456789abcdef",
    ] {
      #expect(redactedResponse(kept, mimeType: "application/json").1 == kept)
    }
    let plain = HAR.Entry.sample(url: "https://api.example.test/users/AbCdEfGhIjKlMnOpQrStUvWx/a=b")
    #expect(Redaction.default.redact(plain).request.url == plain.request.url)
  }

  /// Strings of the archive no exporter fills with traffic still pass the rules: a request URL
  /// that is a `data:` URL holding a form, and the log's format version holding a known value.
  @Test func everyStringOfTheArchivePassesTheRules() throws {
    let secret = CredentialLineTests.values(seed: 21)[0]
    let form = Data("user=ada&password=\(secret)".utf8).base64EncodedString()
    let entry = HAR.Entry.sample(url: "data:text/plain;base64,\(form)")
    var har = HAR(entries: [entry])
    har.log.version = "1.2-\(secret)"
    let written = try Redaction.default.redactingValues(["build": "1.2-\(secret)"]).redact(har)
      .encodedText
    #expect(!written.contains(secret), "\(written)")
    let plain = try Redaction.default.redact(HAR(entries: [entry])).encodedText
    #expect(!plain.contains(form), "\(plain)")
    #expect(RedactionEchoes.spelling([secret]).maskedRanges(in: plain).isEmpty, "\(plain)")
  }

  /// An echo or a declared value written as its bytes' values: hex separated by spaces (a
  /// debug dump) and a list of decimal numbers (a JSON array, a C array).
  @Test func aValueIsFoundAsAListOfItsBytes() throws {
    let secret = EchoFormsTests.plant()
    let bytes = Array(secret.utf8)
    let hex = bytes.map { String(format: "%02x", $0) }.joined(separator: " ")
    let colons = hex.replacingOccurrences(of: " ", with: ":")
    let lists = [
      ("key bytes: \(hex)\n", "text/plain"), ("KEY \(hex.uppercased())\n", "text/plain"),
      ("fingerprint \(colons)\n", "text/plain"), ("MAC \(colons.uppercased())\n", "text/plain"),
      ("{\"bytes\": [\(bytes.map(String.init).joined(separator: ","))]}", "application/json"),
      ("{\"bytes\":[1, \(bytes.map(String.init).joined(separator: ", ")), 2]}", "application/json"),
      ("uint8_t k[] = {\(bytes.map(String.init).joined(separator: ", "))};\n", "text/x-c"),
    ]
    for (body, type) in lists {
      let har = HAR(entries: [
        EchoFormsTests.entry(
          secret: secret, content: HAR.Content(body: Data(body.utf8), mimeType: type))
      ])
      let redacted = Redaction.default.redact(har)
      let written = try redacted.encodedText
      let echoed = redacted.log.entries[0].response.content.text ?? ""
      #expect(!echoed.contains(hex) && !echoed.contains(hex.uppercased()), "\(echoed)")
      #expect(!echoed.lowercased().contains(colons), "\(echoed)")
      #expect(!echoed.contains(bytes.map(String.init).joined(separator: ",")), "\(echoed)")
      #expect(!echoed.contains(bytes.map(String.init).joined(separator: ", ")), "\(echoed)")
      #expect(!written.contains(secret))
      if type == "application/json" {
        #expect(JSONNode.container(in: echoed) != nil, "still JSON: \(echoed)")
      }
      #expect(Redaction.default.redact(redacted) == redacted)
      // Declared, the value is found the same way, and a log masks it.
      let declared = Redaction.default.redactingValues(["k": secret])
      let plain = HAR(entries: [
        HAR.Entry.sample(content: HAR.Content(body: Data(body.utf8), mimeType: type))
      ])
      let text = declared.redact(plain).log.entries[0].response.content.text ?? ""
      #expect(!text.contains(hex) && !text.contains(bytes.map(String.init).joined(separator: ",")))
    }
  }
}
