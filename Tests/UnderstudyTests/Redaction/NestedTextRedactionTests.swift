import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Text inside text that an attacker who read only the guides found written to cassettes
/// (2026-12-06): JSON two and more escape levels deep in a JSON string, XML in a JSON string, a
/// base64 body of form text, triple-quoted values, a credential header quoted in a command, and
/// a pair starting an array's string.
@Suite struct NestedTextRedactionTests {
  /// `body` as a request's and a response's body under `mimeType`, redacted; expects no secret
  /// in the archive as written, and redacting it again to change nothing.
  private func expectRedacted(
    _ body: String, mimeType: String, secrets: [String],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws {
    let entry = HAR.Entry.sample(
      method: "POST", postData: HAR.PostData(mimeType: mimeType, text: body),
      content: HAR.Content(body: Data(body.utf8), mimeType: mimeType))
    let redacted = Redaction.default.redact(HAR(entries: [entry]))
    let text = try redacted.encodedText
    // A body of base64 is searched decoded too, in either alphabet.
    let bodies = [
      redacted.log.entries[0].request.postData?.body, redacted.log.entries[0].response.content.body,
    ].map { String(decoding: $0 ?? Data(), as: UTF8.self) }
    let decoded = bodies.map { body in
      var standard = body.replacingOccurrences(of: "-", with: "+")
        .replacingOccurrences(of: "_", with: "/")
      while standard.utf8.count % 4 != 0 { standard += "=" }
      return Data(base64Encoded: standard).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
    for secret in secrets {
      for written in [text] + decoded {
        #expect(
          !written.contains(secret), "\(body) kept \(secret): \(written)",
          sourceLocation: sourceLocation)
      }
    }
    #expect(
      try Redaction.default.redact(redacted).encodedText == text, "redacting is idempotent",
      sourceLocation: sourceLocation)
    if mimeType.hasSuffix("json"), body.hasPrefix("{") || body.hasPrefix("["),
      let written = redacted.log.entries[0].response.content.text
    {
      #expect(
        (try? JSONSerialization.jsonObject(with: Data(written.utf8))) != nil,
        "still JSON: \(written)", sourceLocation: sourceLocation)
    }
  }

  /// `value` as a JSON string, quotes, backslashes and line breaks escaped.
  private func quoted(_ value: String) -> String {
    "\""
      + value.replacingOccurrences(of: "\\", with: #"\\"#)
      .replacingOccurrences(of: "\"", with: #"\""#)
      .replacingOccurrences(of: "\n", with: #"\n"#) + "\""
  }

  @Test func jsonInsideJSONStringsIsRedactedAtAnyDepth() throws {
    for name in ["password", "apiKey", "client_secret"] {
      let secret = plantedSecret("depth \(name)")
      var document = #"{"\#(name)":"\#(secret)","n":1}"#
      for level in 1...4 {
        document = #"{"a\#(level)":\#(quoted(document))}"#
        if level >= 2 {
          try expectRedacted(document, mimeType: "application/json", secrets: [secret])
        }
      }
      // An array at depth, and a string that is an array of objects.
      let inArray = #"{"jobs":[\#(quoted(#"[{"x":\#(quoted(#"{"\#(name)":"\#(secret)"}"#))}]"#))]}"#
      try expectRedacted(inArray, mimeType: "application/json", secrets: [secret])
    }
  }

  @Test func xmlInsideAJSONStringIsRedacted() throws {
    let secret = plantedSecret("xml in json")
    let deeper = plantedSecret("xml deeper")
    let attribute = plantedSecret("xml attribute")
    let body =
      #"{"xml":"<config><apiKey>\#(secret)</apiKey></config>","#
      + #""inner":\#(quoted(#"{"doc":"<r><password>\#(deeper)</password><auth token=\"\#(attribute)\"/></r>"}"#))}"#
    try expectRedacted(body, mimeType: "application/json", secrets: [secret, deeper, attribute])
  }

  @Test func aPairStartingAnArraysStringIsRedacted() throws {
    let first = plantedSecret("array pair")
    let second = plantedSecret("array pair later")
    let nested = plantedSecret("array pair nested")
    let body =
      #"{"cookies":["session_token=\#(first)","x"],"list":[1, "token=\#(second)&a=b"],"#
      + #""deep":[["access_token=\#(nested)"]]}"#
    try expectRedacted(body, mimeType: "application/json", secrets: [first, second, nested])
    let top = plantedSecret("top array pair")
    try expectRedacted(#"["api_key=\#(top)","x"]"#, mimeType: "application/json", secrets: [top])
  }

  @Test func base64BodiesOfTextAreRedactedAsText() throws {
    for mimeType in ["text/plain", "application/octet-stream", "application/json", ""] {
      let form = plantedSecret("base64 form")
      let json = plantedSecret("base64 json")
      let assignment = plantedSecret("base64 assignment")
      for text in [
        "user=ada&password=\(form)", #"{"user":"ada","apiKey":"\#(json)"}"#,
        "user = ada\nsecret = \(assignment)\n",
      ] {
        let standard = Data(text.utf8).base64EncodedString()
        let urlSafe = standard.replacingOccurrences(of: "+", with: "-")
          .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        for encoded in [standard, urlSafe] {
          try expectRedacted(encoded, mimeType: mimeType, secrets: [form, json, assignment])
        }
      }
    }
  }

  @Test func tripleQuotedValuesAreQuotedValues() throws {
    let single = plantedSecret("triple single")
    let double = plantedSecret("triple double")
    let python = plantedSecret("triple python")
    let body =
      "[db]\nsecret = '''\(single)'''\npassword = \"\"\"\(double)\"\"\"\n"
      + "API_KEY = \"\"\"\n  \(python)\n\"\"\"\n"
    for mimeType in ["text/plain", "application/toml", "text/x-python"] {
      try expectRedacted(body, mimeType: mimeType, secrets: [single, double, python])
    }
    let (_, written) = redactedResponse(body, mimeType: "text/plain")
    #expect(written.contains("secret = '''<redacted:secret>'''"), "\(written)")
  }

  @Test func aCredentialHeaderQuotedInACommandIsRedacted() throws {
    var secrets: [String] = []
    var lines: [String] = []
    for (index, command) in [
      #"git -c http.extraheader="X-Auth-Token: %@" clone https://git.test/r"#,
      "git -c http.extraHeader='Authorization: Bearer %@' fetch",
      #"wget --header="Private-Token: %@" https://x.test/"#,
      #"docker login --password-stdin; echo "Authorization: Basic %@" > hdr"#,
      "http GET x.test 'X-Api-Key: %@' page==2",
    ].enumerated() {
      let secret = plantedSecret("quoted header \(index)")
      secrets.append(secret)
      lines.append(command.replacingOccurrences(of: "%@", with: secret))
    }
    try expectRedacted(lines.joined(separator: "\n"), mimeType: "text/plain", secrets: secrets)
    try expectRedacted(
      #"{"script":\#(quoted(lines.joined(separator: "\n")))}"#, mimeType: "application/json",
      secrets: secrets)
  }

  /// Recorded through a real server: the cassette file, not only the archive in memory.
  @Test func aRecordedNestedBodyLeavesNoFileWithTheSecret() async throws {
    let secret = plantedSecret("recorded nested")
    let body =
      #"{"a":\#(quoted(#"{"b":\#(quoted(#"{"password":"\#(secret)"}"#))}"#)),"#
      + #""xml":"<config><apiKey>\#(secret)</apiKey></config>","c":["token=\#(secret)"]}"#
    try await expectRecordedAndReplayed(
      keeping: secret, matching: ReplayMatching([.method, .path, .body])
    ) { server in
      var post = URLRequest(url: server.url("/echo/nested"))
      post.httpMethod = "POST"
      post.httpBody = Data(body.utf8)
      post.setValue("application/json", forHTTPHeaderField: "Content-Type")
      return post
    }
  }
}
