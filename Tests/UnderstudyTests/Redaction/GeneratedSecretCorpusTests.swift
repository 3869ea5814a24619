import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Credential names crossed with spellings and placements, recorded through the real recording
/// path against the loopback server and printed through the report paths: no planted value may
/// appear in any byte of any artifact.
///
/// Where the names come from: the keyword lists of public secret scanners. Yelp's
/// detect-secrets `KeywordDetector` (its denylist: `api_key`, `auth_key`, `service_key`,
/// `account_key`, `db_key`, `database_key`, `priv_key`, `private_key`, `client_key`, `db_pass`,
/// `database_pass`, `key_pass`, `password`, `passwd`, `pwd`, `secret`), gitleaks' generic rule
/// keywords (`access`, `auth`, `api`, `credential`, `creds`, `key`, `passw`, `secret`, `token`)
/// and the providers its and trufflehog's detectors are named after (`stripe`, `twilio`,
/// `sendgrid`, …), each with the credential suffixes those rules look for.
@Suite struct GeneratedSecretCorpusTests {
  /// detect-secrets' `KeywordDetector` denylist and gitleaks' generic keywords, as names.
  static let scannerKeywords = [
    "api_key", "auth_key", "service_key", "account_key", "db_key", "database_key", "priv_key",
    "private_key", "client_key", "db_pass", "database_pass", "key_pass", "password", "passwd",
    "pwd", "secret", "access_token", "auth_token", "credentials", "creds", "api_token",
    "client_secret", "secret_key", "access_key", "refresh_token", "session_token", "id_token",
    "bearer_token", "signing_key", "encryption_key", "master_key", "app_secret", "app_key",
    "consumer_secret", "consumer_key", "oauth_token", "webhook_secret", "private_token",
    "deploy_token", "personal_access_token", "csrf_token", "xsrf_token", "session_id", "sid",
    "otp", "pin", "dsn", "passphrase", "passcode", "secret_key_base", "account_key",
    "shared_access_signature", "shared_access_key", "client_pwd", "admin_pass", "root_password",
    "smtp_password", "ldap_password", "db_password", "redis_password", "mysql_pwd",
  ]

  /// Providers named by gitleaks' and trufflehog's detectors.
  static let providers = [
    "stripe", "twilio", "sendgrid", "slack", "github", "gitlab", "aws", "azure", "gcp",
    "heroku", "datadog", "sentry", "mailgun", "mailchimp", "shopify", "okta", "auth0",
    "npm", "pypi", "docker", "openai", "algolia", "cloudflare", "digitalocean", "dropbox",
    "hubspot", "intercom", "linear", "netlify", "newrelic", "pagerduty", "postman", "square",
    "twitch", "twitter", "vault", "zendesk", "plaid", "segment", "mapbox",
  ]

  /// The credential suffixes the provider rules look for.
  static let providerSuffixes = ["api_key", "token", "secret", "access_token"]

  /// At least 150 names, each as words joined by `_`.
  static let names: [String] = {
    var names = scannerKeywords
    for provider in providers {
      for suffix in providerSuffixes { names.append("\(provider)_\(suffix)") }
    }
    var seen = Set<String>()
    return names.filter { seen.insert($0).inserted }
  }()

  /// Six spellings of a name written as words joined by `_`.
  static func spellings(of name: String) -> [String] {
    let words = name.split(separator: "_").map(String.init)
    let camel =
      words[0] + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    return [
      name, camel, words.joined(separator: "-"), name.uppercased(),
      words.joined(separator: "."), "X-" + words.map(\.capitalized).joined(separator: "-"),
      "my_" + name + "_value",
      // Rails' and PHP's nested field: the last bracketed word names the value.
      "user[" + name + "]",
    ]
  }

  /// A value for each plant: unique, from a seeded generator, and shaped like no credential the
  /// scanner knows, so only the name can have it removed.
  struct Plants {
    private var state: UInt64
    private(set) var planted: [(place: String, name: String, value: String)] = []

    init(seed: UInt64) { state = seed }

    mutating func value(_ place: String, _ name: String) -> String {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let value = "v\(planted.count)q" + String(state >> 16, radix: 36)
      planted.append((place, name, value))
      return value
    }

    /// Every planted value found in `text`. Values are letters and digits, so the text is cut
    /// into its runs of letters and digits once and each value looked up: a substring search
    /// per value over megabytes took minutes.
    func leaks(in text: String) -> [String] {
      var runs = Set<Substring>()
      var run = text.utf8.startIndex
      var index = run
      let utf8 = text.utf8
      while index < utf8.endIndex {
        let byte = utf8[index]
        if !(ASCIIByte.isLetter(byte) || ASCIIByte.isDigit(byte)) {
          if run < index { runs.insert(Substring(text.utf8[run..<index])) }
          run = utf8.index(after: index)
        }
        index = utf8.index(after: index)
      }
      if run < index { runs.insert(Substring(text.utf8[run..<index])) }
      return planted.filter { runs.contains(Substring($0.value)) }.map {
        "\($0.place) \($0.name): \($0.value)"
      }
    }
  }

  /// How a batch of (name, value) pairs is sent: a query, headers, a body and its type.
  struct Placement: Sendable {
    var place: String
    var path = "/echo/corpus"
    var query: (@Sendable ([(String, String)]) -> String)? = nil
    var headers: (@Sendable ([(String, String)]) -> [(String, String)])? = nil
    var body: (@Sendable ([(String, String)]) -> String)? = nil
    var type: String? = nil
    /// The names this placement can carry (a header name may not hold a `.`, say).
    var takes: @Sendable (String) -> Bool = { _ in true }
    /// The most pairs one request carries.
    var batch = 400
  }

  static func lines(_ pairs: [(String, String)], _ line: (String, String) -> String) -> String {
    pairs.map(line).joined(separator: "\n") + "\n"
  }

  /// `name` with every character written as a hexadecimal character reference.
  static func references(_ name: String) -> String {
    name.unicodeScalars.map { "&#x\(String($0.value, radix: 16));" }.joined()
  }

  /// `text` as a JSON string, quotes and backslashes escaped.
  static func jsonString(_ text: String) -> String {
    "\""
      + text.replacingOccurrences(of: "\\", with: #"\\"#)
      .replacingOccurrences(of: "\"", with: #"\""#) + "\""
  }

  static let placements: [Placement] = [
    Placement(
      place: "request header", headers: { $0 }, takes: { !$0.contains(".") && !$0.contains("[") },
      batch: 80),
    Placement(
      place: "response header", path: "/reply",
      headers: { $0.map { ("X-Reply-Header", "\($0.0): \($0.1)") } },
      takes: { !$0.contains(".") && !$0.contains("[") }, batch: 80),
    Placement(
      place: "query", query: { $0.map { "\($0.0)=\($0.1)" }.joined(separator: "&") },
      takes: { !$0.contains("[") }),
    Placement(
      place: "form", body: { $0.map { "\($0.0)=\($0.1)" }.joined(separator: "&") },
      type: "application/x-www-form-urlencoded"),
    Placement(
      place: "JSON at depth",
      body: {
        #"{"data":{"items":[{"config":{"#
          + $0.map { #""\#($0.0)":"\#($0.1)""# }.joined(
            separator: ",") + "}}]}}"
      }, type: "application/json"),
    Placement(
      place: "GraphQL variables",
      body: {
        #"{"query":"mutation Save($input: In!) { save(input: $input) { id } }","variables":{"input":{"#
          + $0.map { #""\#($0.0)":"\#($0.1)""# }.joined(separator: ",") + "}}}"
      }, type: "application/json"),
    Placement(
      place: "NDJSON", body: { lines($0) { #"{"\#($0)":"\#($1)"}"# } },
      type: "application/x-ndjson"),
    Placement(
      place: "XML element",
      body: { "<config>" + $0.map { "<\($0.0)>\($0.1)</\($0.0)>" }.joined() + "</config>" },
      type: "application/xml", takes: { !$0.hasPrefix("X-") || true }),
    Placement(
      place: "XML attribute",
      body: { "<config " + $0.map { "\($0.0)=\"\($0.1)\"" }.joined(separator: " ") + "/>" },
      type: "application/xml"),
    Placement(place: "YAML", body: { lines($0) { "\($0): \($1)" } }, type: "application/yaml"),
    Placement(place: ".env", body: { lines($0) { "\($0)=\($1)" } }, type: "text/plain"),
    Placement(
      place: "INI", body: { "[section]\n" + lines($0) { "\($0) = \($1)" } }, type: "text/plain"),
    Placement(
      place: "properties", body: { lines($0) { "\($0) = \($1)" } },
      type: "text/x-java-properties"),
    Placement(
      place: "TOML", body: { "[server]\n" + lines($0) { "\($0) = \"\($1)\"" } },
      type: "application/toml"),
    Placement(
      place: "curl -H", body: { lines($0) { "curl -H '\($0): \($1)' https://api.test/" } },
      type: "text/plain", takes: { !$0.contains("[") }),
    Placement(
      place: "command line option", body: { lines($0) { "deploy --\($0) \($1) --verbose" } },
      type: "text/x-shellscript", takes: { !$0.contains("[") }),
    Placement(
      place: "log line", body: { lines($0) { "ts=1 level=info \($0)=\($1) done" } },
      type: "text/plain"),
    // A passphrase written bare, spaces and all: dotenv reads it to the line's end, and a log
    // line to the next pair.
    Placement(
      place: ".env, a passphrase",
      body: { lines($0) { "\($0)=QUARTZ FALCON thistle \($1)" } }, type: "text/plain"),
    Placement(
      place: "log line, a passphrase",
      body: { lines($0) { "level=info msg=start \($0)=velvet violet \($1) user=ada" } },
      type: "text/plain"),
    Placement(
      place: "properties, a space between",
      body: { "db.host localhost\n" + lines($0) { "\($0) \($1)" } },
      type: "text/x-java-properties"),
    Placement(
      place: ".netrc", body: { lines($0) { "machine api.test login ada \($0) \($1)" } },
      type: "text/plain"),
    Placement(
      place: "PowerShell parameter",
      body: { lines($0) { "PS> Connect-Db -Server db -\($0) '\($1)' -Verbose" } },
      type: "text/plain", takes: { !$0.contains("[") }),
    Placement(
      place: "multipart part in base64",
      body: {
        "--b0undary\r\nContent-Disposition: form-data; name=\"config\"\r\n"
          + "Content-Type: application/json\r\nContent-Transfer-Encoding: base64\r\n\r\n"
          + Data(
            ("{" + $0.map { #""\#($0.0)":"\#($0.1)""# }.joined(separator: ",") + "}").utf8
          ).base64EncodedString(options: .lineLength76Characters) + "\r\n--b0undary--\r\n"
      }, type: "multipart/form-data; boundary=b0undary"),
    Placement(
      place: "multipart part in quoted-printable",
      body: {
        "--b0undary\r\nContent-Disposition: form-data; name=\"cfg\"\r\n"
          + "Content-Type: text/yaml\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
          + $0.map { "\($0.0)=3A =\n\($0.1)" }.joined(separator: "\n")
          + "\r\n--b0undary--\r\n"
      }, type: "multipart/form-data; boundary=b0undary"),
    Placement(
      place: "multipart field",
      body: {
        $0.map {
          "--b0undary\r\nContent-Disposition: form-data; name=\"\($0.0)\"\r\n\r\n\($0.1)\r\n"
        }.joined() + "--b0undary--\r\n"
      }, type: "multipart/form-data; boundary=b0undary"),
    Placement(
      place: "HTML hidden input",
      body: {
        "<form>"
          + $0.map { "<input type=\"hidden\" name=\"\($0.0)\" value=\"\($0.1)\">" }
          .joined() + "</form>"
      }, type: "text/html"),
    Placement(
      place: "HTML meta",
      body: {
        "<head>" + $0.map { "<meta name=\"\($0.0)\" content=\"\($0.1)\">" }.joined() + "</head>"
      }, type: "text/html"),
    Placement(
      place: "Python dict",
      body: { "settings = {" + $0.map { "'\($0.0)': '\($0.1)'" }.joined(separator: ", ") + "}" },
      type: "text/x-python"),
    Placement(
      place: "PHP array",
      body: {
        "<?php return [" + $0.map { "'\($0.0)' => '\($0.1)'" }.joined(separator: ", ") + "];"
      },
      type: "application/x-httpd-php"),
    Placement(
      place: "CSV column",
      body: {
        $0.map(\.0).joined(separator: ",") + "\n" + $0.map(\.1).joined(separator: ",") + "\n"
      },
      type: "text/csv"),
    Placement(
      place: "JSON in a JSON string",
      body: {
        #"{"payload":""# + "{" + $0.map { #"\"\#($0.0)\":\"\#($0.1)\""# }.joined(separator: ",")
          + #"}"}"#
      }, type: "application/json"),
    // The spellings the held-out attack of 2026-12-06 found (YAMLScalarRedactionTests,
    // SpelledNameRedactionTests, WrappedReportMaskingTests).
    Placement(
      place: "YAML block scalar after a tag",
      body: { lines($0) { "\($0): !vault >-\n  \($1)\n  more" } }, type: "application/yaml"),
    Placement(
      place: "YAML value on the next line", body: { lines($0) { "\($0):\n  \($1)" } },
      type: "application/yaml"),
    Placement(
      place: "YAML quoted over lines", body: { lines($0) { "\($0): \"first\n  \($1)\"" } },
      type: "application/yaml"),
    Placement(
      place: ".npmrc line", body: { lines($0) { "//registry.test/:\($0)=\($1)" } },
      type: "text/plain"),
    Placement(
      place: "HTML character references",
      body: {
        "<p>" + $0.map { "note \(references($0.0))=\($0.1) now" }.joined(separator: "<br>")
          + "</p>"
      }, type: "text/html"),
    Placement(
      place: "Python annotated triple quotes",
      body: { lines($0) { "\($0): str = \"\"\"\($1)\"\"\"" } }, type: "text/x-python",
      takes: { !$0.contains("-") && !$0.contains(".") }),
    Placement(
      place: "MIME base64 in an e-mail",
      body: {
        "From: a@b.test\r\nContent-Transfer-Encoding: base64\r\n\r\n"
          + Data(lines($0) { "\($0)=\($1)" }.utf8).base64EncodedString(
            options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
          + "\r\n"
      }, type: "message/rfc822"),
    Placement(
      place: "base64 of base64 of a form",
      body: {
        Data(
          Data($0.map { "\($0.0)=\($0.1)" }.joined(separator: "&").utf8).base64EncodedString()
            .utf8
        ).base64EncodedString()
      }, type: "text/plain"),
    Placement(
      place: "JSON three strings deep",
      body: { pairs in
        var document = "{" + pairs.map { #""\#($0.0)":"\#($0.1)""# }.joined(separator: ",") + "}"
        for _ in 0..<3 { document = #"{"wrapped":\#(jsonString(document))}"# }
        return document
      }, type: "application/json"),
    // The shapes the text-rules attack of 2026-12-06 found (TextRuleShapesTests).
    Placement(
      place: "PHP quoted key in brackets",
      body: { "<?php\n" + lines($0) { "$config['\($0)'] = '\($1)';" } },
      type: "application/x-httpd-php", takes: { !$0.contains("[") && !$0.contains("'") }),
    Placement(
      place: "Ruby ENV ||=", body: { lines($0) { "ENV[\"\($0)\"] ||= \"\($1)\"" } },
      type: "text/x-ruby", takes: { !$0.contains("[") && !$0.contains("\"") }),
    Placement(
      place: "Makefile ?=", body: { "all: build\n" + lines($0) { "\($0) ?= \($1)" } },
      type: "text/x-makefile", takes: { !$0.contains("[") }),
    Placement(
      place: ".netrc over lines",
      body: { lines($0) { "machine api.test\n  login ada\n  \($0) \($1)" } }, type: "text/plain"),
    Placement(
      place: "element named by name=",
      body: {
        "<resources>" + $0.map { "<string name=\"\($0.0)\">\($0.1)</string>" }.joined()
          + "</resources>"
      }, type: "application/xml"),
    Placement(
      place: "pair right after a tag",
      body: { "<table>" + $0.map { "<tr><td>\($0.0)=\($0.1)</td></tr>" }.joined() + "</table>" },
      type: "text/html"),
    Placement(
      place: "pair right after a quote",
      body: { "[Service]\n" + lines($0) { "Environment=\"\($0)=\($1)\"" } }, type: "text/plain"),
    Placement(
      place: "option whose value is a pair",
      body: { lines($0) { "kubectl create secret generic x --from-literal=\($0)=\($1) -n a" } },
      type: "text/x-shellscript"),
    Placement(
      place: "builder call",
      body: { lines($0) { "Client c = Client.builder().\($0)(\"\($1)\").build();" } },
      type: "text/x-java", takes: { $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } }),
    Placement(
      place: ".npmrc line in a JSON string",
      body: {
        "{"
          + $0.enumerated().map {
            #""npmrc\#($0.offset)":"//registry.test/:\#($0.element.0)=\#($0.element.1)""#
          }
          .joined(separator: ",") + "}"
      }, type: "application/json"),
    Placement(
      place: "Set-Cookie", path: "/set-cookie",
      query: { $0.map { "\($0.0)=\($0.1)" }.joined(separator: "&") },
      takes: { !$0.contains("[") }, batch: 80),
    Placement(
      place: "Location and the next hop", path: "/redirect-to",
      query: { pairs in
        let target = "/echo/hop?" + pairs.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        return "url="
          + (target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? target)
      }, takes: { !$0.contains("[") }, batch: 100),
    // A value no rule names that holds JSON or pairs behind percent-escapes, as an OAuth
    // `state` or a `next` link does (the attack of 2026-12-06, EncodedQueryValueTests).
    Placement(
      place: "JSON in a query value",
      query: { "state=" + uriComponent(jsonObject($0)) + "&page=2" }, batch: 100),
    Placement(
      place: "pairs in a query value",
      query: { pairs in
        "next=" + uriComponent("/home?" + pairs.map { "\($0.0)=\($0.1)" }.joined(separator: "&"))
      }, takes: { !$0.contains("[") }, batch: 100),
    Placement(
      place: "JSON in a form value",
      body: { "a=1&state=" + uriComponent(jsonObject($0)) },
      type: "application/x-www-form-urlencoded"),
  ]

  /// `text` percent-encoded as `encodeURIComponent` writes it.
  static func uriComponent(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
  }

  /// The pairs as the members of one JSON object.
  static func jsonObject(_ pairs: [(String, String)]) -> String {
    "{" + pairs.map { jsonString($0.0) + ":" + jsonString($0.1) }.joined(separator: ",") + "}"
  }

  /// Every name in every placement with `UNDERSTUDY_FULL_CORPUS=1` (5,700 plants); otherwise a
  /// turning slice of `perPlacement` names each, so every name and every spelling is still sent.
  /// The whole cross takes minutes at -Onone: the echo search over a cassette costs per value
  /// and per entry.
  static let isFull = ProcessInfo.processInfo.environment["UNDERSTUDY_FULL_CORPUS"] == "1"

  /// The (name, value) pairs of placement number `index`: each name once, its spelling turning
  /// with the placement, so every name is sent in every spelling over the placements.
  static func pairs(
    _ index: Int, _ placement: Placement, perPlacement: Int, plants: inout Plants
  ) -> [(String, String)] {
    let count = isFull ? names.count : min(perPlacement, names.count)
    var pairs: [(String, String)] = []
    for step in 0..<count {
      let offset = (index * count + step) % names.count
      let all = spellings(of: names[offset]).filter(placement.takes)
      guard !all.isEmpty else { continue }
      let spelling = all[(offset + index) % all.count]
      pairs.append((spelling, plants.value(placement.place, spelling)))
    }
    return pairs
  }

  /// The requests every placement makes (or those of every `groups`th placement from `group`),
  /// with the values planted in them.
  static func requests(
    to server: LoopbackServer, perPlacement: Int, plants: inout Plants, group: Int = 0,
    of groups: Int = 1
  ) -> [URLRequest] {
    var requests: [URLRequest] = []
    for (index, placement) in placements.enumerated() where index % groups == group {
      let pairs = Self.pairs(index, placement, perPlacement: perPlacement, plants: &plants)
      var start = 0
      while start < pairs.count {
        let batch = Array(pairs[start..<min(start + placement.batch, pairs.count)])
        start += placement.batch
        var components = URLComponents(
          url: server.url(placement.path), resolvingAgainstBaseURL: false)!
        if let query = placement.query { components.percentEncodedQuery = query(batch) }
        if placement.path == "/reply" {
          components.percentEncodedQuery = "type=text/plain"
        }
        var request = URLRequest(url: components.url!)
        for (name, value) in placement.headers?(batch) ?? [] {
          request.addValue(value, forHTTPHeaderField: name)
        }
        if let body = placement.body {
          request.httpMethod = "POST"
          request.httpBody = Data(body(batch).utf8)
        }
        if let type = placement.type { request.setValue(type, forHTTPHeaderField: "Content-Type") }
        requests.append(request)
      }
    }
    return requests
  }

  /// Every name crossed with every body placement, each entry redacted alone (a request and a
  /// response holding the plants) and masked as a report masks a body: thousands of plants,
  /// none in the encoded cassette text or the masked text.
  @Test func everyBodyPlacementRedactsAndMasksEveryName() throws {
    var plants = Plants(seed: 39)
    var leaks: [String] = []
    for (index, placement) in Self.placements.enumerated() {
      guard let body = placement.body else { continue }
      let text = body(Self.pairs(index, placement, perPlacement: 60, plants: &plants))
      let type = placement.type ?? "text/plain"
      let entry = HAR.Entry.sample(
        method: "POST", url: "https://api.test/corpus",
        postData: HAR.PostData(mimeType: type, text: text),
        content: HAR.Content(body: Data(text.utf8), mimeType: type))
      let redacted = Redaction.default.redact(entry)
      leaks += plants.leaks(in: try HAR(entries: [redacted]).encodedText)
        .map { "cassette " + $0 }
      // What a reader gets by undoing base64 (over MIME's lines, up to three times) and
      // character references, for the placements that wrap their values so.
      let written = [redacted.request.postData?.text, redacted.response.content.text]
        .compactMap { $0 }.flatMap(SpelledSecretChecks.readings).joined(separator: "\n")
      leaks += plants.leaks(in: written).map { "cassette, decoded, " + $0 }
      // No report prints a multipart body's text (a form matcher lists its parts' names), so
      // masking reads none; the cassette and attachment paths above and below cover its parts.
      if !type.hasPrefix("multipart/") {
        let masked = LogRedaction.mask(text)
        leaks += plants.leaks(in: masked).map { "masked " + $0 }
        leaks += plants.leaks(in: SpelledSecretChecks.readings(of: masked).joined(separator: "\n"))
          .map { "masked, decoded, " + $0 }
      }
    }
    #expect(plants.planted.count >= 1000)
    // Known: masking does not read a CSV body's header row as names (redaction does).
    let known = leaks.filter { $0.hasPrefix("masked") && $0.contains(" CSV column ") }
    #expect(
      leaks.count == known.count,
      "\(leaks.count) leaks, first: \(leaks.filter { !known.contains($0) }.prefix(40))"
    )
    withKnownIssue("masking does not read a CSV body's columns") {
      #expect(known.isEmpty)
    } when: {
      !known.isEmpty
    }
  }

  @Test func theGeneratedCorpusCoversWhatTheIssueAsks() {
    #expect(Self.names.count >= 150)
    #expect(Self.placements.count >= 34)
    #expect(Self.spellings(of: "shared_access_key").count >= 6)
    #expect(Set(Self.spellings(of: "shared_access_key")).count == 8)
  }

  /// Every plant recorded through a cassette, written in a fresh folder: no byte of any file
  /// holds a planted value, and the write was not refused. In four parts, a cassette each, as
  /// below.
  @Test(arguments: 0..<4) func noGeneratedPlantReachesTheCassette(part: Int) async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    let folder = SecretCorpusTests.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("generated.har")
    var plants = Plants(seed: 40 + UInt64(part) * 1_000)
    let requests = Self.requests(
      to: server, perPlacement: 4, plants: &plants, group: part, of: 4)
    let registry = StubRegistry()
    let cassette = Cassette(at: file, mode: .all)
    registry.use(cassette)
    let session = registry.makeSession()
    for request in requests { _ = try? await session.data(for: request) }
    #expect(cassette.finish().isEmpty)
    #expect(plants.planted.count >= (Self.isFull ? 1200 : 20))
    var leaks: [String] = []
    let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
    var read = 0
    while let next = files?.nextObject() as? URL {
      guard let data = try? Data(contentsOf: next) else { continue }
      read += 1
      leaks += plants.leaks(in: String(decoding: data, as: UTF8.self))
    }
    #expect(read >= 1)
    #expect(leaks.isEmpty, "\(leaks.count) leaks, first: \(leaks.prefix(40))")
  }

  /// The same requests to stubs that do not match them (near-miss reports, as errors and as
  /// recorded issues) and to stubs that do (the traffic attachment): no planted value is
  /// printed or attached. In four parts, every fourth placement each, which run side by side:
  /// the whole cross took 140 s on one core.
  @Test(arguments: 0..<4) func noGeneratedPlantIsPrintedOrAttached(part: Int) async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    var plants = Plants(seed: 41 + UInt64(part) * 1_000)
    let requests = Self.requests(
      to: server, perPlacement: 12, plants: &plants, group: part, of: 4)
    let registry = StubRegistry()
    registry.stub(.get("https://elsewhere.test/never"), .ok)
    registry.stub(.path("/echo/corpus") && .header("X-Never", "1"), .ok)
    let session = registry.makeSession()
    var printed: [String] = []
    for request in requests {
      do {
        _ = try await session.data(for: request)
      } catch {
        printed += [String(describing: error), error.localizedDescription]
      }
    }
    let answering = StubRegistry()
    answering.stub(.any, .ok)
    let answered = answering.makeSession()
    for request in requests { _ = try? await answered.data(for: request) }
    let attachment = try #require(
      TrafficAttachmentWriter.attachmentBytes(of: answering, testName: "corpus"))
    #expect(printed.count >= requests.count)
    #expect(plants.planted.count >= (Self.isFull ? 1200 : 70))
    let leaks =
      plants.leaks(in: printed.joined(separator: "\n")).map { "printed " + $0 }
      + plants.leaks(in: String(decoding: attachment, as: UTF8.self)).map { "attached " + $0 }
    // Known: a near-miss report prints a CSV body's text, and masking does not read its header
    // row as names (redaction does), so a column's value can be printed (SecretsInReports.md
    // states it).
    let known = leaks.filter { $0.hasPrefix("printed CSV column") }
    #expect(
      leaks.count == known.count,
      "\(leaks.count) leaks, first: \(leaks.filter { !known.contains($0) }.prefix(40))"
    )
    withKnownIssue("masking does not read a CSV body's columns") {
      #expect(known.isEmpty, "\(known)")
    } when: {
      !known.isEmpty
    }
  }
}
