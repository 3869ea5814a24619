import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Credentials a text body names without JSON members or a form: a YAML or TOML configuration,
/// an `.env` file, a script, an HTML form's hidden field, a page's meta tag, and a GraphQL
/// query's arguments inside a JSON string. An audit (2026-11-28)
/// found every one of these written to cassettes raw, and all but the YAML ones printed raw; an
/// INI or .properties line with spaces around its `=` was still written raw after that.
@Suite struct TextAssignmentRedactionTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var mimeType: String
    var body: @Sendable (String) -> String
    var redacted: String
    var testDescription: String { mimeType + " " + redacted.prefix(30) }
  }

  static let cases: [Case] = [
    Case(
      mimeType: "application/yaml", body: { "apiVersion: v1\npassword: \($0) # rotated\n" },
      redacted: "apiVersion: v1\npassword: %3Credacted:password%3E\n"),
    Case(
      mimeType: "application/yaml", body: { "db:\n  client_secret: '\($0)'\n" },
      redacted: "db:\n  client_secret: '<redacted:client_secret>'\n"),
    Case(
      mimeType: "application/toml", body: { "[db]\npassword = \"\($0)\"\n" },
      redacted: "[db]\npassword = \"<redacted:password>\"\n"),
    Case(
      mimeType: "text/plain", body: { "export API_SECRET=\"\($0)\"\n" },
      redacted: "export API_SECRET=\"<redacted:API_SECRET>\"\n"),
    Case(
      mimeType: "application/javascript", body: { "const config = { apiKey: '\($0)' };" },
      redacted: "const config = { apiKey: '<redacted:apiKey>' };"),
    Case(
      mimeType: "text/plain", body: { "user: ada password: \($0)" },
      redacted: "user: ada password: %3Credacted:password%3E"),
    Case(
      mimeType: "text/html",
      body: { "<form><input type=hidden name=authenticity_token value=\($0)></form>" },
      redacted:
        "<form><input type=hidden name=authenticity_token value=%3Credacted:authenticity_token%3E></form>"
    ),
    Case(
      mimeType: "text/html", body: { "<head><meta name=\"csrf-token\" content=\"\($0)\"></head>" },
      redacted: "<head><meta name=\"csrf-token\" content=\"%3Credacted:csrf-token%3E\"></head>"),
    Case(
      mimeType: "application/json",
      body: {
        #"{"query":"mutation { login(email: \"a@b.test\", password: \"\#($0)\") { id } }"}"#
      },
      redacted:
        #"{"query":"mutation { login(email: \"a@b.test\", password: \"<redacted:password>\") { id } }"}"#
    ),
    Case(
      mimeType: "application/json", body: { #"{"config":"password: \#($0)","v":1}"# },
      redacted: #"{"config":"password: %3Credacted:password%3E","v":1}"#),
    Case(
      mimeType: "application/xml",
      body: { #"<appSettings><add key="ApiKey" value="\#($0)"/></appSettings>"# },
      redacted: #"<appSettings><add key="ApiKey" value="%3Credacted:ApiKey%3E"/></appSettings>"#),
    Case(
      mimeType: "application/xml",
      body: { #"<properties><entry key="db.password">\#($0)</entry></properties>"# },
      redacted:
        #"<properties><entry key="db.password">%3Credacted:db.password%3E</entry></properties>"#
    ),
    Case(
      mimeType: "text/plain", body: { "[database]\npassword = \($0)\nport = 5432\n" },
      redacted: "[database]\npassword = %3Credacted:password%3E\nport = 5432\n"),
    Case(
      mimeType: "text/x-java-properties", body: { "db.user=ada\ndb.password =\t\($0)\n" },
      redacted: "db.user=ada\ndb.password =\t%3Credacted:db.password%3E\n"),
    Case(
      mimeType: "text/plain", body: { "run --db-password=\"\($0)\" now" },
      redacted: "run --db-password=\"<redacted:db-password>\" now"),
    // A password may hold `,`, `;` and brackets: YAML and INI read a bare value to its line's
    // end. The part after the first of them was written raw until 2026-11-29.
    Case(
      mimeType: "application/yaml", body: { "password: \($0),Cd2;Ef3(Gh4)!\nport: 1\n" },
      redacted: "password: %3Credacted:password%3E\nport: 1\n"),
    Case(
      mimeType: "text/plain", body: { "[db]\npassword = \($0);Cd2,[Ef3]\n" },
      redacted: "[db]\npassword = %3Credacted:password%3E\n"),
    Case(
      mimeType: "application/json", body: { #"{"config":"secret: \#($0),Cd2","v":1}"# },
      redacted: #"{"config":"secret: %3Credacted:secret%3E","v":1}"#),
    // Where a script, a query or markup closes the value, it ends there still.
    Case(
      mimeType: "application/javascript", body: { "const c = { apiKey: \($0), retries: 2 };" },
      redacted: "const c = { apiKey: %3Credacted:apiKey%3E, retries: 2 };"),
    Case(
      mimeType: "application/graphql", body: { "mutation { login(password: \($0)) { id } }" },
      redacted: "mutation { login(password: %3Credacted:password%3E) { id } }"),
    Case(
      mimeType: "text/html", body: { "<td>password: \($0),Cd2</td><td>next</td>" },
      redacted: "<td>password: %3Credacted:password%3E</td><td>next</td>"),
    // Written and printed raw until 2026-11-29: a name in quotes (a PHP or Ruby array, a Python
    // dict), `=>`, a YAML block scalar's lines, a command line's `--password …`, and a URL's
    // user information in a one-line `.env` body, which is read as a form.
    Case(
      mimeType: "application/x-httpd-php",
      body: { "<?php return ['password' => '\($0)', 'host' => 'db'];" },
      redacted: "<?php return ['password' => '<redacted:password>', 'host' => 'db'];"),
    Case(
      mimeType: "text/x-ruby", body: { "{ \"password\" => \"\($0)\", \"pool\" => 5 }" },
      redacted: "{ \"password\" => \"<redacted:password>\", \"pool\" => 5 }"),
    Case(
      mimeType: "text/x-python", body: { "cfg = {'password': '\($0)', 'port': 5432}" },
      redacted: "cfg = {'password': '<redacted:password>', 'port': 5432}"),
    Case(
      mimeType: "application/yaml",
      body: { "stringData:\n  password: |\n    \($0)\n    second line\n  user: ada\n" },
      redacted: "stringData:\n  password: %3Credacted:password%3E\n  user: ada\n"),
    Case(
      mimeType: "application/yaml",
      body: { "password: >-\r\n\r\n  \($0)\r\n\r\n  more\r\nnext: 1" },
      redacted: "password: %3Credacted:password%3E\r\nnext: 1"),
    Case(
      mimeType: "text/plain", body: { "$ deploy --password \($0) --user ada\n" },
      redacted: "$ deploy --password %3Credacted:password%3E --user ada\n"),
    Case(
      mimeType: "text/plain", body: { "mysql --user=ada --api-key \"\($0)\" db" },
      redacted: "mysql --user=ada --api-key \"<redacted:api-key>\" db"),
    Case(
      mimeType: "text/plain", body: { "DATABASE_URL=postgres://ada:\($0)@db/app" },
      redacted: "DATABASE_URL=postgres://%3Credacted:userinfo%3E@db/app"),
    // A key of words with spaces between: its last word alone (`passe`, `key`) names nothing.
    Case(
      mimeType: "application/yaml", body: { "db:\n  mot de passe: \($0)\n" },
      redacted: "db:\n  mot de passe: %3Credacted:mot_de_passe%3E\n"),
    Case(
      mimeType: "text/plain", body: { "[service]\nAPI key = \($0)\n" },
      redacted: "[service]\nAPI key = %3Credacted:API_key%3E\n"),
    Case(
      mimeType: "application/yaml", body: { "users:\n  - Mot De Passe: '\($0)'\n" },
      redacted: "users:\n  - Mot De Passe: '<redacted:Mot_De_Passe>'\n"),
  ]

  @Test(arguments: cases)
  func aCredentialNamedInATextBodyIsRedactedScannedAndMasked(_ example: Case) throws {
    let secret = plantedSecret("assignment")
    var body = example.body(secret)
    let entry = HAR.Entry.sample(
      content: HAR.Content(body: Data(body.utf8), mimeType: example.mimeType))
    #expect(CredentialScanner().scan(HAR(entries: [entry])).count == 1)
    let redacted = Redaction.default.redact(HAR(entries: [entry]))
    let text = try redacted.encodedText
    #expect(!text.contains(secret))
    // A YAML comment after a bare value is part of it: nothing tells the two apart.
    body = redacted.log.entries[0].response.content.text ?? ""
    #expect(body == example.redacted)
    #expect(try Redaction.default.redact(redacted).encodedText == text, "redacting is idempotent")
    #expect(CredentialScanner().scan(redacted).isEmpty)
    let masked = LogRedaction.mask(example.body(secret))
    #expect(!masked.contains(secret), "\(masked)")
    #expect(LogRedaction.mask(masked) == masked)
  }

  @Test func namesNoRuleSelectsAndProseAreKept() {
    let text = """
      apiVersion: v1
      name: csrf_token
      title = "Settings"
      if (password == expected) { retries = 0 }
      <input name="username" value="ada"> <meta name="viewport" content="width=device-width">
      <section id="password-reset"><h2>Forgot it?</h2></section>
      See https://example.com:8443/docs for help.
      docker login --password-stdin < key.txt; deploy --token $TOKEN --api-key -
      Pass --allow-credentials to skip the scan, or --no-password when none is set.
      Token counts per model: 4096
      Use your own password or key: the form below takes either
      """
    let entry = HAR.Entry.sample(content: HAR.Content(body: Data(text.utf8), mimeType: "text/html"))
    #expect(Redaction.default.redact(entry) == entry)
    #expect(LogRedaction.mask(text) == text)
  }
}

/// Headers no rule names that still carry a credential: a list of pairs, a JSON object, a
/// configuration line, and `Authentication`, which some services use for `Authorization`.
@Suite struct HeaderTextRedactionTests {
  static let headers: [(name: String, value: @Sendable (String) -> String)] = [
    ("Baggage", { "userId=ada,sessionToken=\($0),region=eu" }),
    ("X-Client-Data", { #"{"apiKey":"\#($0)","v":2}"# }),
    ("X-Config", { #"mode=fast password="\#($0)""# }),
    ("X-Debug", { "token: \($0)" }),
    ("Authentication", { "Bearer \($0)" }),
  ]

  @Test func aCredentialInAHeaderNoRuleNamesIsRedactedScannedAndMasked() throws {
    for header in Self.headers {
      let secret = plantedSecret(header.name)
      let value = header.value(secret)
      let entry = HAR.Entry.sample(requestHeaders: [HAR.Header(name: header.name, value: value)])
      #expect(CredentialScanner().scan(HAR(entries: [entry])).count == 1, "\(header.name)")
      let redacted = Redaction.default.redact(HAR(entries: [entry]))
      let text = try redacted.encodedText
      #expect(!text.contains(secret), "\(header.name)")
      #expect(try Redaction.default.redact(redacted).encodedText == text)
      #expect(!LogRedaction.mask("\(header.name): \(value)").contains(secret), "\(header.name)")
    }
    let baggage = HAR.Entry.sample(requestHeaders: [
      HAR.Header(name: "Baggage", value: "userId=ada,sessionToken=abc123def456,region=eu")
    ])
    #expect(
      Redaction.default.redact(baggage).request.headers.first?.value
        == "userId=ada,sessionToken=%3Credacted:sessiontoken%3E,region=eu")
  }

  /// A header no rule names whose value is base64 of text (JSON, a form), alone or behind a
  /// version or a scheme (`v1.`, `enc:`) or before a parameter (`;v=2`), is read as that text,
  /// as a body is, and written back in the same alphabet: the value inside was kept.
  @Test(
    arguments: [
      (#"{"api_token":"SECRET","sub":"ada"}"#, true), (#"{"password":"SECRET"}"#, false),
      ("token=SECRET&exp=1700000000", false),
    ], [("", ""), ("v1.", ""), ("enc:", ""), ("", ";v=2")])
  func aHeaderHoldingBase64OfTextIsReadAsTheText(
    body: (inner: String, urlSafe: Bool), around: (prefix: String, suffix: String)
  ) throws {
    let (inner, urlSafe) = body
    let secrets = [plantedSecret("base64 request header"), plantedSecret("base64 response header")]
    func encoded(_ secret: String) -> String {
      let plain = Data(inner.replacingOccurrences(of: "SECRET", with: secret).utf8)
        .base64EncodedString()
      guard urlSafe else { return around.prefix + plain + around.suffix }
      return around.prefix
        + plain.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "") + around.suffix
    }
    let entry = HAR.Entry.sample(
      requestHeaders: [HAR.Header(name: "X-Endpoint-API-UserInfo", value: encoded(secrets[0]))],
      responseHeaders: [HAR.Header(name: "X-Session-Blob", value: encoded(secrets[1]))])
    let redacted = Redaction.default.redact(entry)
    for (header, secret) in zip(
      [redacted.request.headers[0], redacted.response.headers[0]], secrets)
    {
      #expect(header.value.hasPrefix(around.prefix) && header.value.hasSuffix(around.suffix))
      var value = String(header.value.dropFirst(around.prefix.count).dropLast(around.suffix.count))
        .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
      value += String(repeating: "=", count: (4 - value.count % 4) % 4)
      let inside = try #require(
        Data(base64Encoded: value).map { String(decoding: $0, as: UTF8.self) }, "\(header.value)")
      #expect(!inside.contains(secret), "\(inside)")
      #expect(inside.contains("redacted:"), "\(inside)")
    }
    let text = try HAR(entries: [redacted]).encodedText
    #expect(!text.contains(secrets[0]) && !text.contains(secrets[1]))
  }

  /// The live request is redacted before matching only when redaction would change it; a header
  /// that holds a credential pair must count, or a recorded placeholder never matches it.
  @Test func aReplayMatchingTheHeaderFindsTheRedactedEntry() async throws {
    let secret = plantedSecret("replayed baggage")
    try await expectRecordedAndReplayed(
      keeping: secret, matching: ReplayMatching([.method, .path, .headers(["Baggage"])])
    ) { server in
      var request = URLRequest(url: server.url("/echo/baggage"))
      request.setValue("userId=ada,sessionToken=\(secret)", forHTTPHeaderField: "Baggage")
      return request
    }
  }

}
