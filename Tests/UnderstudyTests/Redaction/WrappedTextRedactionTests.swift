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
}
