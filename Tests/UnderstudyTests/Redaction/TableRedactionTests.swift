import Foundation
import Testing

@testable import Understudy

/// Table bodies: a CSV or tab-separated export names its secrets once, in its header row
/// (`id,email,api_key`), and holds them in the rows below, where no name stands beside them.
/// Until 2026-11-29 every such cell reached the cassette raw.
@Suite struct TableRedactionTests {
  @Test func cellsUnderACredentialHeaderAreRedactedAndScanned() throws {
    let bare = plantedSecret("csv bare")
    let quoted = plantedSecret("csv quoted")
    let doubled = plantedSecret("csv doubled")
    let body =
      "id,email,api_key,note\r\n"
      + "1,ada@example.test,\(bare),first\r\n"
      + "2,bob@example.test,\"\(quoted),x\",\"has, comma\"\r\n"
      + "3,cy@example.test,\"\(doubled)\"\"q\",\r\n"
      + "4,dee@example.test,,empty\r\n"
    let entry = HAR.Entry.sample(
      content: HAR.Content(body: Data(body.utf8), mimeType: "text/csv; charset=utf-8"))
    #expect(CredentialScanner().scan(HAR(entries: [entry])).count == 3)
    let (har, text) = redactedResponse(body, mimeType: "text/csv; charset=utf-8")
    #expect(
      text
        == "id,email,api_key,note\r\n"
        + "1,ada@example.test,<redacted:api_key>,first\r\n"
        + "2,bob@example.test,\"<redacted:api_key>\",\"has, comma\"\r\n"
        + "3,cy@example.test,\"<redacted:api_key>\",\r\n"
        + "4,dee@example.test,,empty\r\n")
    let encoded = try har.encodedText
    for secret in [bare, quoted, doubled] { #expect(!encoded.contains(secret)) }
    #expect(try Redaction.default.redact(har).encodedText == encoded, "redacting is idempotent")
    #expect(CredentialScanner().scan(redacted: har).isEmpty)
  }

  @Test func aTabSeparatedExportAndAQuotedHeaderAreReadToo() throws {
    let secret = plantedSecret("tsv")
    let (_, tsv) = redactedResponse(
      "user\tpassword\nada\t\(secret)\n", mimeType: "text/tab-separated-values")
    #expect(tsv == "user\tpassword\nada\t<redacted:password>\n")
    let other = plantedSecret("csv header")
    let (_, csv) = redactedResponse(
      "\"name\",\" client_secret \"\n\"ada\",\"\(other)\"", mimeType: "text/csv")
    #expect(csv == "\"name\",\" client_secret \"\n\"ada\",\"<redacted:client_secret>\"")
  }

  /// Rows that name nothing before the header (a comment, Excel's `sep=,`, a title, a blank
  /// line) leave the header row where it is, up to five of them.
  @Test(arguments: [
    ["# exported 2026-12-06 by admin, v2"], ["sep=,"], ["Users", ""],
    ["# tool: export", "# rows: 2", "sep=,", "", "Report of users"],
  ])
  func rowsBeforeTheHeaderLeaveItTheHeader(preamble: [String]) throws {
    let secret = plantedSecret("csv preamble")
    let head = preamble.map { $0 + "\n" }.joined()
    let (har, text) = redactedResponse(
      head + "id,email,password\n1,ada@example.test,\(secret)\n", mimeType: "text/csv")
    #expect(text == head + "id,email,password\n1,ada@example.test,<redacted:password>\n")
    #expect(try !har.encodedText.contains(secret))
  }

  @Test func aCellInALaterRowEchoedElsewhereIsRedactedThere() throws {
    let secret = plantedSecret("csv echo")
    let (har, _) = redactedResponse(
      "id,token\n1,\(secret)\n\nsee 1: \(secret)\n", mimeType: "text/csv")
    #expect(try !har.encodedText.contains(secret))
  }

  /// A cell with text after its closing quote (`"Ab1"Cd2`) is read by CSV readers as one value
  /// (`Ab1Cd2`); the part after the quote was written raw when only the quoted part was replaced.
  @Test func aCellWithTextAfterItsClosingQuoteIsReplacedWhole() throws {
    let secret = plantedSecret("csv after quote")
    let (har, text) = redactedResponse(
      "id,api_key,n\n1,\"Ab1\"\(secret),2\n", mimeType: "text/csv")
    #expect(text == "id,api_key,n\n1,<redacted:api_key>,2\n")
    #expect(try !har.encodedText.contains(secret))
  }

  @Test func aTableWhoseHeaderNamesNoCredentialIsKept() throws {
    let body = "id,name,note\n1,token,\"password, reset\"\n"
    let (_, text) = redactedResponse(body, mimeType: "text/csv")
    #expect(text == body)
  }
}
