import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Known values (issue 40, part 1): a secret declared by value, or read from a credential-named
/// environment variable, is replaced in every spelling, in every place, in every output.
@Suite struct KnownValueTests {
  /// Every corpus value, in every spelling, in every place, redacted by its value alone (no
  /// rule names any of the places), and the written cassette grepped for every spelling.
  @Test(arguments: KnownValueCorpus.values)
  func aDeclaredValueLeavesNoSpellingInAWrittenCassette(value: String) throws {
    var entries: [HAR.Entry] = []
    var plants: [String] = []
    for spelling in KnownValueCorpus.spellings(of: value) {
      // A wrapper around another spelling is two encodings deep (base64 of hex): the wrapper
      // holds the value as written.
      for place in KnownValueCorpus.places
      where place.name != "base64-wrapped body" || spelling.name == "as written" {
        entries.append(place.entry(spelling.text))
        plants.append("\(spelling.name) in \(place.name)")
      }
    }
    let redaction = Redaction.none.redactingValues(["svc": value])
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("known-\(UUID().uuidString).har")
    defer { try? FileManager.default.removeItem(at: file) }
    try redaction.redact(HAR(entries: entries)).write(to: file)
    let written = try String(contentsOf: file, encoding: .utf8)
    #expect(KnownValueCorpus.leaks(of: value, in: written) == [], "\(value)")
    let har = try HAR.load(contentsOf: file)
    for (index, entry) in har.log.entries.enumerated() {
      let text = try KnownValueCorpus.readable(entry)
      #expect(KnownValueCorpus.leaks(of: value, in: text) == [], "\(plants[index])")
      #expect(
        text.contains("redacted:svc") || text.contains("redacted%3Asvc"),
        "\(plants[index]) has no placeholder")
    }
  }

  /// A response typed as binary whose bytes are base64 of a JSON document (a blob a service
  /// hands back) is searched as the document: the value in any spelling inside it is replaced,
  /// and the body stays base64 of valid JSON.
  @Test(arguments: ["Iqm4rT!M", "2060ed8fb6b86e87e9cf962e4b4ac507", "Xgo786!t"])
  func aValueInsideABase64BodyOfAnyTypeIsFoundInEverySpelling(value: String) throws {
    for spelling in KnownValueCorpus.spellings(of: value) {
      let document = Data(#"{"blob": "\#(spelling.text)"}"#.utf8).base64EncodedString()
      let entry = HAR.Entry.sample(
        content: HAR.Content(body: Data(document.utf8), mimeType: "application/octet-stream"))
      let redacted = Redaction.none.redactingValues(["kv": value]).redact(HAR(entries: [entry]))
      let body = try #require(redacted.log.entries[0].response.content.body)
      let decoded = try #require(
        Data(base64Encoded: String(decoding: body, as: UTF8.self)), "\(spelling.name)")
      let text = String(decoding: decoded, as: UTF8.self)
      // A percent-encoded spelling takes the percent-encoded placeholder.
      #expect(
        [#"{"blob": "<redacted:kv>"}"#, #"{"blob": "%3Credacted:kv%3E"}"#].contains(text),
        "\(spelling.name): \(text)")
    }
  }

  /// A seeded fuzz of the same: random values of random alphabets and lengths, each spelled and
  /// placed at random, several to an exchange.
  @Test func aSeededFuzzOfValuesSpellingsAndPlacesLeavesNothing() throws {
    var generator = KnownValueCorpus.Seeded(state: 4040)
    for round in 0..<60 {
      let alphabet = KnownValueCorpus.alphabets.randomElement(using: &generator)!
      let value = KnownValueCorpus.value(
        from: alphabet, length: Int.random(in: 8...64, using: &generator), using: &generator)
      var entries: [HAR.Entry] = []
      for _ in 0..<6 {
        let spelling = KnownValueCorpus.spellings(of: value).randomElement(using: &generator)!
        let place = KnownValueCorpus.places.randomElement(using: &generator)!
        entries.append(place.entry("pre" + spelling.text + "-post"))
      }
      let redacted = Redaction.none.redactingValues(["fuzz": value]).redact(HAR(entries: entries))
      let written = String(decoding: try redacted.encoded(), as: UTF8.self)
      #expect(KnownValueCorpus.leaks(of: value, in: written) == [], "round \(round): \(value)")
    }
  }

  /// A value seen first in one exchange and named by a rule only in a later one is replaced in
  /// both: the second pass over the cassette (issue 40, part 4).
  @Test func aTokenFirstSeenInARedirectAndNamedLaterIsReplacedInBoth() throws {
    let token = "tok_9f8e7d6c5b4a3f2e1d"
    var redirect = HAR.Entry.sample(url: "https://login.test/authorize")
    redirect.response.status = 302
    redirect.response.headers = [
      HAR.Header(name: "Location", value: "https://app.test/landing/\(token)")
    ]
    redirect.response.redirectURL = "https://app.test/landing/\(token)"
    let next = HAR.Entry.sample(
      url: "https://api.test/me",
      requestHeaders: [HAR.Header(name: "Authorization", value: "Bearer \(token)")])
    let written = String(
      decoding: try Redaction.default.redact(HAR(entries: [redirect, next])).encoded(),
      as: UTF8.self)
    #expect(!written.contains(token))
    #expect(written.contains("landing/%3Credacted:authorization"))
  }

  /// Each value of a header sent twice is searched for on its own, not only the two joined.
  @Test func eachValueOfARepeatedHeaderIsSearchedForAlone() throws {
    for joined in [
      "first-key-1234567,second-key-7654321", "Bearer first-key-1234567, Bearer second-key-7654321",
    ] {
      let entry = HAR.Entry.sample(
        requestHeaders: [HAR.Header(name: "X-Api-Key", value: joined)],
        content: HAR.Content(
          body: Data("echo: second-key-7654321 and first-key-1234567".utf8),
          mimeType: "text/plain"))
      let redacted = Redaction.default.redact(entry)
      #expect(
        redacted.response.content.text == "echo: <redacted:x-api-key> and <redacted:x-api-key>")
    }
  }

  /// Replay puts back the value the replaying process declares, under the same name.
  @Test func replayRestoresTheValueTheReplayingProcessDeclares() async throws {
    let recorded = "sk_live_recorded_0123456789"
    let file = RecordReplayTests.temporaryCassette()
    try Redaction.default.redactingValues(["stripe": recorded]).redact(
      HAR(entries: [
        HAR.Entry(
          request: InterceptedRequest(url: URL(string: "https://api.test/keys/\(recorded)")!),
          response: HAR.Response(
            status: 200, headers: ["Content-Type": "application/json"],
            body: Data(#"{"key":"\#(recorded)"}"#.utf8)),
          startedDateTime: Date(), duration: .zero)
      ])
    ).write(to: file)
    let written = try String(contentsOf: file, encoding: .utf8)
    #expect(!written.contains(recorded))
    let replaying = "sk_live_replayed_9876543210"
    let registry = StubRegistry()
    registry.use(
      Cassette(
        at: file,
        options: CassetteOptions(
          redaction: Redaction.default.redactingValues(["stripe": replaying]))))
    let text = try await registry.makeSession().text(
      from: URL(string: "https://api.test/keys/\(replaying)")!)
    #expect(text == #"{"key":"\#(replaying)"}"#)
  }

  /// The environment rule: names read as credentials, values of 8 characters or more.
  @Test func credentialNamedEnvironmentVariablesAreKnownValues() {
    let environment = [
      "GITHUB_TOKEN": "ghx_environment_value_1", "STRIPE_API_KEY": "sk_env_0123456789",
      "DB_PASSWORD": "hunter2hunter2", "SENTRY_DSN": "https://abc@sentry.test/1",
      "NPM_PAT": "npm_pat_value_000", "DATABASE_URL": "postgres://app:pw123456@db/app",
      "MY_CLIENT_SECRET_VALUE": "client-secret-000", "SHORT_TOKEN": "abc",
      "AWS_ACCESS_KEY_ID": "AKIAEXAMPLEEXAMPLE00", "GITHUB_TOKEN_FILE": "/run/secrets/token",
      "SSH_AUTH_SOCK": "/tmp/ssh-agent.sock", "PWD": "/work/project/folder", "HOME": "/root/home",
      "KEYBOARD_LAYOUT": "us-international", "NPM_TOKENS": "npm_tokens_value_0",
      "JWT_SIGNING_KEYS": "signing-keys-value-0", "MAX_TOKENS_PER_CALL": "4096",
      // Names the one judgement of names reads (the twelfth attack), values as a shell or an
      // env file leaves them, and settings that are no secrets whatever their names.
      "MYSQL_PWD": "mysql-pwd-value-0\n", "LDAP_BIND_PW": "  ldap-bind-pw-0 ",
      "NPM_CONFIG__AUTH": "\"bnBtOmF1dGgtdmFsdWU=\"", "X_AUTH_TOKEN_BIN": "'token-bin-0001'",
      "OLDPWD": "/work/project", "RANDOM_SEED": "1234567890", "OTP_SEED_FILE": "/run/otp",
    ]
    let found = KnownValues.credentials(in: environment)
    #expect(
      found.keys.sorted() == [
        "DATABASE_URL", "DB_PASSWORD", "GITHUB_TOKEN", "JWT_SIGNING_KEYS", "LDAP_BIND_PW",
        "MYSQL_PWD", "MY_CLIENT_SECRET_VALUE", "NPM_CONFIG__AUTH", "NPM_PAT", "NPM_TOKENS",
        "SENTRY_DSN", "STRIPE_API_KEY", "X_AUTH_TOKEN_BIN",
      ])
    #expect(found["MYSQL_PWD"] == "mysql-pwd-value-0")
    #expect(found["LDAP_BIND_PW"] == "ldap-bind-pw-0")
    #expect(found["NPM_CONFIG__AUTH"] == "bnBtOmF1dGgtdmFsdWU=")
    #expect(found["X_AUTH_TOKEN_BIN"] == "token-bin-0001")
    #expect(Redaction.environmentValueNames == KnownValues.environment.keys.sorted())
    #expect(Redaction.default.redactsEnvironmentValues)
    #expect(!Redaction.default.redactingEnvironmentValues(false).redactsEnvironmentValues)
  }

  /// Reports, `URLError`s and their user info mask a declared value in every spelling, and the
  /// failing URL a `URLError` carries has its credentials replaced.
  @Test func reportsAndURLErrorsMaskADeclaredValueInEverySpelling() async throws {
    let value = "rpt_KnownValue_5f4e3d2c1b"
    let registry = StubRegistry()
    registry.beginScope(verifying: .default)
    // A cassette that holds nothing yet, as a test with `CassetteOptions(redaction:)` has before
    // recording.
    registry.use(
      Cassette(
        at: FileManager.default.temporaryDirectory
          .appendingPathComponent("known-report-\(UUID().uuidString).har"),
        mode: .never,
        options: CassetteOptions(redaction: Redaction.default.redactingValues(["reported": value])))
    )
    registry.stub(.get("https://api.test/v1/other") && .header("X-Trace", "none"), .ok)
    let session = registry.makeSession()
    var outputs: [String] = []
    for spelling in KnownValueCorpus.spellings(of: value) {
      let encoded = spelling.text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
      for url in [
        "https://api.test/v1/\(encoded)/download", "https://api.test/v1/other?q=\(encoded)",
        "https://api.test/v1/other?access_token=\(encoded)",
      ] {
        var request = URLRequest(url: URL(string: url)!)
        request.setValue(spelling.text, forHTTPHeaderField: "X-Trace")
        do {
          _ = try await session.data(for: request)
        } catch {
          let error = error as NSError
          outputs += [
            "\(error)", String(reflecting: error), error.localizedDescription,
            "\(error.userInfo)",
            (error.userInfo[NSURLErrorFailingURLErrorKey] as? URL)?.absoluteString ?? "",
          ]
        }
      }
    }
    let failures = registry.endScope(
      testName: "t", verifying: .default, location: registry.location)
    outputs += failures.map(\.message)
    let attachment = try #require(
      TrafficAttachmentWriter.attachmentBytes(of: registry, testName: "t"))
    outputs.append(String(decoding: attachment, as: UTF8.self))
    let text = outputs.joined(separator: "\n")
    #expect(KnownValueCorpus.leaks(of: value, in: text) == [])
    #expect(text.contains("access_token=%3Credacted:access_token%3E"))
  }

  /// A known value that is a URL with a password, or a connection string, makes each secret
  /// it holds a known value of its own, named after it: the password alone, echoed where no
  /// name marks it, is replaced in a cassette, masked in a report, and put back on replay; a
  /// part whose key is no credential's (`Server=`) is not a secret.
  @Test(arguments: 0..<8)
  func theSecretsInsideAKnownURLOrConnectionStringAreKnownValues(shape: Int) throws {
    var generator = KnownValueCorpus.Seeded(state: 208 + UInt64(shape))
    for _ in 0..<3 {
      let password = KnownValueCorpus.value(
        from: KnownValueCorpus.alphabets[0], length: Int.random(in: 12...28, using: &generator),
        using: &generator)
      // A password with `@` and `:`, which a URL holds percent-encoded.
      let awkward = String(password.prefix(6)) + "@:" + password.dropFirst(6)
      let (value, secret, partName) = [
        ("redis://:\(password)@cache.internal:6379/0", password, "password"),
        ("postgres://app:\(password)@db01.internal:5432/app", password, "password"),
        (
          "amqp://user:\(awkward.replacingOccurrences(of: "@", with: "%40").replacingOccurrences(of: ":", with: "%3A"))@mq01/vhost",
          awkward, "password"
        ),
        (
          "mongodb+srv://u:\(password)@cluster0.example.net/?retryWrites=true", password, "password"
        ),
        ("https://hooks.example.net/services/T0/B0?token=\(password)&v=2", password, "token"),
        ("Server=db01host;Database=app;User Id=sa;Password=\(password);", password, "Password"),
        ("host=db01host port=5432 dbname=app password=\(password)", password, "password"),
        ("Data Source=db01host;Pwd='\(password)'", password, "Pwd"),
      ][shape]
      let body = #"{"conn_info":"\#(secret)","host":"db01host"}"#
      let entry = HAR.Entry.sample(
        url: "https://api.test/v1/\(password)/x",
        content: HAR.Content(body: Data(body.utf8), mimeType: "application/json"))
      // Declared, and as a credential-named environment variable's value.
      let declared = Redaction.none.redactingValues(["ACME_REDIS_URL": value])
      let written = try declared.redact(HAR(entries: [entry])).encodedText
      #expect(!written.contains(secret), "\(value): \(written)")
      #expect(written.contains("redacted:ACME_REDIS_URL.\(partName)"), "\(value)")
      #expect(written.contains("db01host"), "a part no credential's name marks stays")
      let environment = KnownValues.echoes(
        for: KnownValues.credentials(in: ["ACME_REDIS_URL": value]))
      let echoed = environment.replace(in: body, field: .body(mimeType: "application/json"))
      #expect(!echoed.contains(secret) && echoed.contains("db01host"), "\(echoed)")
      // Reports mask it once a cassette declares the value, and replay restores it alone.
      KnownValues.declare(["ACME_REDIS_URL": value])
      #expect(!LogRedaction.mask(traffic: body).contains(secret), "\(value)")
      #expect(declared.knownValuesForReplay["ACME_REDIS_URL.\(partName)"] == secret)
    }
  }

  /// A parameterized test's argument that is a credential names its cassette by a digest.
  @Test(arguments: ["ghp_0123456789abcdefghijABCDEFGHIJ012345", "plain-argument"])
  func aCredentialArgumentNeverReachesACassettesFileName(argument: String) {
    let name = CassetteName.forTest(
      named: "loads(token:)", arguments: TestCaseArguments.describe(Test.Case.current))
    #expect(name.contains("ghp_") == false)
    #expect(name.contains("plain-argument") == (argument == "plain-argument"))
  }
}
