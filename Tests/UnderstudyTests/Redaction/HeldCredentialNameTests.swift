import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Objects that hold a credential's name in one member and the credential in another
/// (`{"name":"DB_PASSWORD","value":"…"}`): recorded through a real loopback server and printed
/// through the report masking, neither may keep the credential.
@Suite struct HeldCredentialNameTests {
  /// Held names the member-name judgement calls credentials', in the spellings services use.
  static let heldNames = [
    "DB_PASSWORD", "api_token", "/prod/db/password", "DbPassword", "client_secret",
    "GITHUB_TOKEN", "stripe-api-key", "arn:aws:ssm:eu-west-1:1:parameter/prod/jwt", "API key",
  ]
  /// Name and value member spellings: Kubernetes, AWS SSM, CloudFormation, Postman, Keycloak's
  /// `type`, a form's `field`, a vault's `label` and `title`, JSON Patch's `path`.
  static let shapes = [
    ("name", "value"), ("Name", "Value"), ("ParameterKey", "ParameterValue"), ("key", "value"),
    ("type", "value"), ("field", "value"), ("fieldName", "value"), ("label", "value"),
    ("title", "value"), ("path", "value"),
  ]

  /// One object per held name and shape, in both member orders and with a member between,
  /// at `depth` levels of nesting; each value planted in `corpus`.
  static func body(depth: Int, corpus: SecretCorpusTests.Corpus) -> String {
    var objects: [String] = []
    for held in heldNames {
      for (nameKey, valueKey) in shapes {
        let place = "\(nameKey)/\(valueKey)=\(held) depth \(depth)"
        objects.append(
          #"{"\#(nameKey)":"\#(held)","\#(valueKey)":"\#(corpus.plant(place))"}"#)
        objects.append(
          #"{"\#(valueKey)": "\#(corpus.plant(place + " reversed"))", "\#(nameKey)": "\#(held)"}"#)
        objects.append(
          #"{"\#(nameKey)":"\#(held)","kind":"SecureString","meta":{"v":[1,{"a":2}]},"\#(valueKey)":"\#(corpus.plant(place + " apart"))"}"#
        )
      }
      // An OpenTelemetry attribute's typed value, a list of pairs, and an etcd key in base64.
      objects.append(
        #"{"key":"\#(held)","value":{"stringValue":"\#(corpus.plant(held + " typed value"))"}}"#)
      objects.append(#"["\#(held)","\#(corpus.plant(held + " in a pair"))"]"#)
      let encoded = Data("/registry/app/\(held)".utf8).base64EncodedString()
      objects.append(#"{"key":"\#(encoded)","value":"\#(corpus.plant(held + " base64 key"))"}"#)
    }
    // Azure's listKeys: a `keyName` names a key.
    objects.append(
      #"{"keyName":"key1","value":"\#(corpus.plant("keyName key1"))","permissions":"FULL"}"#)
    var body = "[" + objects.joined(separator: ",\n") + "]"
    for level in 0..<depth { body = #"{"level\#(level)":\#(body)}"# }
    return body
  }

  /// Objects that must keep their values: names that are no credential's, a name and a value in
  /// different objects, and `id`, which is not a name member.
  static func keptBody(_ kept: String) -> String {
    #"[{"name":"page_size","value":"\#(kept)1"},"#
      + #"{"name":"password"},{"value":"\#(kept)2"},"#
      + #"{"name":"password","inner":{"value":"\#(kept)3"}},"#
      + #"{"id":"token","value":"\#(kept)4"},"#
      + #"{"Name":"/prod/db/host","Value":"\#(kept)5"},"#
      + #"{"type":"key","value":"\#(kept)9"},{"keyName":"sort","value":"\#(kept)10"},"#
      + #"["sort","\#(kept)11"],{"label":"Name","value":"\#(kept)12"},"#
      + #"{"type":"text","value":{"stringValue":"\#(kept)13"}}]"#
  }

  /// XML that holds a credential's name in an element or attribute: a plist's `<key>`, SOAP's
  /// `<Name>`, an HTML password field; and XML whose names are no credential's.
  static func xmlBodies(corpus: SecretCorpusTests.Corpus, kept: String) -> [(String, String)] {
    [
      (
        "application/xml",
        "<plist><dict><key>password</key><string>\(corpus.plant("plist key"))</string>"
          + "<key>page_size</key><string>\(kept)6</string></dict></plist>"
      ),
      (
        "text/xml",
        "<soap:Body><Param><Name>/prod/db/password</Name>\n  <Value>"
          + "\(corpus.plant("SOAP Name"))</Value></Param>"
          + "<Param><Name>host</Name><Value>\(kept)7</Value></Param></soap:Body>"
      ),
      (
        "text/html",
        #"<form><input type="password" name="pw" value="\#(corpus.plant("HTML password"))">"#
          + #"<input type="text" name="q" value="\#(kept)8"></form>"#
      ),
      // Pages that show settings as a label and a value beside it.
      (
        "text/html",
        "<dl><dt>API key</dt>\n<dd>\(corpus.plant("definition list"))</dd>"
          + "<dt>Region</dt><dd>\(kept)9</dd></dl>"
      ),
      (
        "text/html",
        #"<table><tr><td>PASSWORD</td><td class="code"><pre>'\#(corpus.plant("table row"))'"#
          + #"</pre></td></tr><tr><th scope="row">Name</th><td>\#(kept)10</td></tr></table>"#
      ),
      (
        "text/html",
        "<p><b>Secret:</b> <code>\(corpus.plant("bold label"))</code></p>"
          + "<p><label>Plan</label><span>\(kept)11</span></p>"
      ),
    ]
  }

  @Test func recordingRedactsTheValueAHeldNameMakesACredential() async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    let folder = SecretCorpusTests.folder()
    let file = folder.appendingPathComponent("held.har")
    let corpus = SecretCorpusTests.Corpus()
    let registry = StubRegistry()
    let cassette = Cassette(at: file, mode: .all)
    registry.use(cassette)
    let session = registry.makeSession()
    func reply(_ type: String, _ body: String) async throws {
      var request = URLRequest(url: server.url("/reply?type=\(type)"))
      request.httpMethod = "POST"
      request.httpBody = Data(body.utf8)
      request.setValue(type, forHTTPHeaderField: "Content-Type")
      _ = try await session.data(for: request)
    }
    for depth in [0, 1, 4] {
      try await reply("application/json", Self.body(depth: depth, corpus: corpus))
    }
    // Nested past what the walk reads: the text's neighbouring members are still found.
    let deep = 600
    try await reply(
      "application/json",
      String(repeating: "[", count: deep)
        + #"{"name":"DB_PASSWORD","value":"\#(corpus.plant("past the walk's depth"))"}"#
        + String(repeating: "]", count: deep))
    let kept = "kept" + UUID().uuidString.prefix(8)
    try await reply("application/json", Self.keptBody(kept))
    for (type, body) in Self.xmlBodies(corpus: corpus, kept: kept) {
      try await reply(type, body)
    }

    let failures = cassette.finish()
    #expect(failures.isEmpty, "\(failures.map(\.message))")
    let written = try String(contentsOf: file, encoding: .utf8)
    #expect(written.contains("<redacted:DB_PASSWORD"))
    #expect(written.contains("<redacted:password"), "a path is named after its last segment")
    #expect(written.contains("<redacted:DbPassword"))
    let leaks = try SecretCorpusTests.leaks(of: corpus, under: folder)
    #expect(leaks.isEmpty, "\(leaks.count) secrets leaked:\n\(leaks.joined(separator: "\n"))")
    for index in 1...13 {
      #expect(written.contains("\(kept)\(index)"), "kept value \(index) was redacted")
    }
    try? FileManager.default.removeItem(at: folder)
  }

  @Test func reportsMaskTheValueAHeldNameMakesACredential() throws {
    let corpus = SecretCorpusTests.Corpus()
    for depth in [0, 1, 4] {
      let printed = LogRedaction.mask(Self.body(depth: depth, corpus: corpus))
      for (place, secret) in corpus.planted where !place.hasSuffix(" apart") {
        #expect(!printed.contains(secret), "\(place) printed")
      }
    }
    let kept = "kept" + UUID().uuidString.prefix(8)
    let xml = Self.xmlBodies(corpus: corpus, kept: kept).map(\.1).joined(separator: "\n")
    let printed = LogRedaction.mask(Self.keptBody(kept) + "\n" + xml)
    for (place, secret) in corpus.planted where !place.hasSuffix(" apart") {
      #expect(!printed.contains(secret), "\(place) printed")
    }
    for index in 1...13 {
      #expect(printed.contains("\(kept)\(index)"), "kept value \(index) was masked")
    }
  }

  /// With a JSON path among the rules the body is read as a tree; the held name is judged there
  /// as in the walk.
  @Test func theTreeReadingRedactsAsTheWalkDoes() throws {
    let corpus = SecretCorpusTests.Corpus()
    var rules = Redaction.default
    rules.jsonPaths = [try Redaction.JSONPath("$.unrelated")]
    let entry = HAR.Entry.sample(
      content: HAR.Content(
        body: Data(Self.body(depth: 1, corpus: corpus).utf8), mimeType: "application/json"))
    let text = rules.redact(HAR(entries: [entry])).log.entries[0].response.content.text ?? ""
    for (place, secret) in corpus.planted {
      #expect(!text.contains(secret), "\(place) kept")
    }
    #expect(text.contains("<redacted:GITHUB_TOKEN"))
  }
}
