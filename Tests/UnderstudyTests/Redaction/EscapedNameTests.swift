import Foundation
import Testing

@testable import Understudy

/// A credential's name spelled in an escape its reader undoes: JavaScript's `\u{61}`, Python's
/// `\x61`, a MIME header's encoded word (RFC 2047) naming a multipart part, and a
/// `multipart/related` part named by its `Content-ID` (the fourteenth blind attack found each
/// written to the cassette, the traffic attachment and reports).
@Suite struct EscapedNameTests {
  static let boundary = "b0undary7"

  /// Bodies as a function of the value, with their type.
  static let bodies: [(String, @Sendable (String) -> String)] = [
    ("text/javascript", { "const cfg = {\"p\\u{61}ssword\": \"\($0)\"};\n" }),
    ("text/javascript", { "const cfg = {\"\\u{70}\\u{61}ss\\u{77}ord\": \"\($0)\"};\n" }),
    ("text/x-python", { "cfg = {'p\\x61ssword': '\($0)', 'user': 'ada'}\n" }),
    ("text/javascript", { "login({\"api\\u{5f}key\": \"\($0)\"})\n" }),
    (
      "multipart/form-data; boundary=\(boundary)",
      {
        "--\(boundary)\r\nContent-Disposition: form-data; name=\"=?UTF-8?B?cGFzc3dvcmQ=?=\"\r\n\r\n"
          + "\($0)\r\n--\(boundary)--\r\n"
      }
    ),
    (
      "multipart/form-data; boundary=\(boundary)",
      {
        "--\(boundary)\r\nContent-Disposition: form-data; name=\"=?utf-8?q?api=5Ftoken?=\"\r\n\r\n"
          + "\($0)\r\n--\(boundary)--\r\n"
      }
    ),
    (
      "multipart/related; boundary=\(boundary)",
      {
        "--\(boundary)\r\nContent-Type: application/json\r\nContent-ID: <meta>\r\n\r\n{}\r\n"
          + "--\(boundary)\r\nContent-Type: text/plain\r\nContent-ID: <password>\r\n\r\n"
          + "\($0)\r\n--\(boundary)--\r\n"
      }
    ),
    (
      "multipart/related; boundary=\(boundary)",
      {
        "--\(boundary)\r\nContent-Type: text/plain\r\nContent-ID: <client_secret@auth.example>"
          + "\r\n\r\n\($0)\r\n--\(boundary)--\r\n"
      }
    ),
  ]

  @Test func aNameSpelledInEscapesIsJudgedAsItsReaderReadsIt() throws {
    for (index, (mimeType, write)) in Self.bodies.enumerated() {
      let secret = "Gardenia\(1990 + index)!"
      let body = write(secret)
      try SpelledSecretChecks.expectHidden(body, mimeType: mimeType, secrets: [secret])
      let request = InterceptedRequest(
        method: .post, url: URL(string: "https://api.test/config")!,
        headers: ["Content-Type": mimeType], body: Data(body.utf8))
      let registry = StubRegistry()
      registry.stub(.post("https://api.test/config") && .body(containing: "nothing like it"), .ok)
      let report = NearMissReport(request: request, stubs: registry.stubs).description
      #expect(!report.contains(secret), "near miss: \(report)")
    }
  }

  /// The decoding is the judgement's own: every escape form names the same word, and a name
  /// that decodes to an everyday word stays everyday.
  @Test func everySpellingOfANameIsJudgedOnce() {
    let names = CredentialName([], readingWordsAt: .jsonMember)
    for spelling in [
      "p\\u0061ssword", "p\\u{61}ssword", "p\\x61ssword", "pass%77ord", "&#x70;assword",
      "p&#97;ssword", "=?UTF-8?B?cGFzc3dvcmQ=?=", "=?iso-8859-1?Q?pass=77ord?=",
      "api\\u{5F}key", "%70%61%73%73%77%6F%72%64",
    ] {
      #expect(names.matches(spelling), "\(spelling)")
      #expect(CredentialName.isCredential(spelling, at: .jsonMember), "\(spelling)")
    }
    for everyday in ["p\\u{61}ge", "=?UTF-8?B?cGFnZQ==?=", "sort%5Fkey", "&#x6E;ame"] {
      #expect(!names.matches(everyday), "\(everyday)")
    }
    #expect(RedactionPlaceholder.name(from: "p\\u{61}ssword") == "password")
  }

  /// A part named by its `Content-ID` that says nothing, and a part whose encoded name is an
  /// everyday word, are kept.
  @Test func everydayPartsAreKept() {
    let body =
      "--\(Self.boundary)\r\nContent-Type: text/plain\r\nContent-ID: <image001.png@01D9>\r\n\r\n"
      + "kept-one\r\n--\(Self.boundary)\r\nContent-Disposition: form-data; "
      + "name=\"=?UTF-8?B?bm90ZQ==?=\"\r\n\r\nkept-two\r\n--\(Self.boundary)--\r\n"
    let (_, redacted) = redactedResponse(
      body, mimeType: "multipart/related; boundary=\(Self.boundary)")
    #expect(redacted.contains("kept-one") && redacted.contains("kept-two"), "\(redacted)")
  }
}
