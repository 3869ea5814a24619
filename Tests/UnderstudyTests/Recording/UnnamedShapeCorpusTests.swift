import Foundation
import Testing

@testable import Understudy

extension RecordingTests {
  /// Generated corpora on both sides of the line the shapes draw for credentials no prefix list
  /// names (``VendorToken``, JWTs with any header and spelling, bare DER and PuTTY keys): each
  /// is refused by the write gate and masked in what is printed, and the identifiers a cassette
  /// holds everywhere are neither.
  ///
  /// The token formats are generated from the vendor prefixes and body alphabets that public
  /// secret scanners' rule lists describe (gitleaks' `config/gitleaks.toml`, read for the
  /// formats, its expressions not used): none of these prefixes is known to the scanner.
  @Suite struct UnnamedShapeCorpusTests {
    private let scanner = CredentialScanner(redaction: .none)

    // MARK: Generators

    static let mixed = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    static let urlSafe = mixed + "-_"
    static let upper36 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    static let lower36 = "abcdefghijklmnopqrstuvwxyz0123456789"
    static let hex = "0123456789abcdef"
    static let letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    static let bech32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
    static let crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

    static func draw(_ alphabet: String, _ count: Int, _ random: inout SplitMix) -> String {
      let characters = Array(alphabet)
      return String((0..<count).map { _ in characters.randomElement(using: &random)! })
    }

    /// A vendor format: a fixed prefix and its random body.
    struct Format: Sendable, CustomStringConvertible {
      let prefix: String
      let body: @Sendable (inout SplitMix) -> String
      var description: String { prefix }
    }

    static func format(_ prefix: String, _ parts: [(String, Int)], separator: String = "")
      -> Format
    {
      Format(prefix: prefix) { random in
        parts.map { draw($0.0, $0.1, &random) }.joined(separator: separator)
      }
    }

    /// Vendor formats whose random part clears the line (25 mixed-case characters after a
    /// prefix, 27 of one case, 32 hex after a prefix, 32 with no prefix).
    static let vendorFormats: [Format] = [
      format("SG.", [(urlSafe, 22), (urlSafe, 43)], separator: "."),
      format("shpat_", [(hex, 32)]), format("shpss_", [(hex, 32)]),
      format("hf_", [(letters, 34)]), format("dop_v1_", [(hex, 64)]),
      format("doo_v1_", [(hex, 64)]), format("dor_v1_", [(hex, 64)]),
      format("hvs.", [(urlSafe, 90)]), format("hvb.", [(urlSafe, 138)]),
      format("pypi-AgEIcHlwaS5vcmc", [(urlSafe, 70)]), format("SK", [(hex, 32)]),
      format("key-", [(hex, 32)]), format("dapi", [(hex, 32)]),
      format("PMAK-", [(hex, 24), (hex, 34)], separator: "-"),
      format("glsa_", [(mixed, 32), (hex, 8)], separator: "_"),
      format("NRAK-", [(upper36, 27)]), format("lin_api_", [(mixed, 40)]),
      format("dp.st.prd.", [(mixed, 43)]), format("dp.pt.", [(mixed, 43)]),
      format("ATATT3x", [(urlSafe, 186)]), format("ya29.", [(urlSafe, 120)]),
      format("GOCSPX-", [(mixed, 28)]), format("whsec_", [(mixed, 32)]),
      format("AGE-SECRET-KEY-1", [(bech32, 58)]), format("EAAC", [(mixed, 100)]),
      format("EAAM", [(mixed, 120)]), format("p8e-", [(lower36, 32)]),
      format("AKCp", [(mixed, 69)]), format("4b1d", [(mixed, 38)]),
      format("CLOJARS_", [(lower36, 60)]),
      format("v1.0-", [(hex, 24), (hex, 146)], separator: "-"),
      format("sl.", [(urlSafe, 135)]), format("duffel_test_", [(urlSafe, 43)]),
      format("dt0c01.", [(upper36, 24), (upper36, 64)], separator: "."),
      format("EZAK", [(mixed, 54)]), format("FLWSECK_TEST-", [(hex, 32)]),
      format("fo1_", [(urlSafe, 43)]), format("fio-u-", [(urlSafe, 64)]),
      format("pscale_tkn_", [(urlSafe, 43)]), format("nfp_", [(mixed, 36)]),
      format("rubygems_", [(hex, 48)]), format("shippo_live_", [(hex, 40)]),
      format("xkeysib-", [(hex, 64), (mixed, 16)], separator: "-"),
      format("dckr_pat_", [(urlSafe, 27)]), format("sntryu_", [(hex, 64)]),
      format("pat", [(mixed, 14), (hex, 64)], separator: "."),
      format("AAAA", [(urlSafe, 7)]),  // completed below with FCM's `:APA91b…`
      format("ops_eyJ", [(mixed, 250)]),
      format("xapp-1-", [(upper36, 11), (hex, 64)], separator: "-"),
      // A number glued by `|`, `:` or `/` is a prefix: Facebook's `<app id>|<secret>` (its
      // `-` and `_` are the secret's characters), Asana's `1/<user id>:<32 hex>`.
      format("433216300083156|", [(urlSafe, 27)]), format("928804501280208:", [(mixed, 27)]),
      format("1/7062662808749075:", [(hex, 32)]), format("112890181095321/", [(urlSafe, 27)]),
    ]

    /// Where a token is put: places no name marks.
    static func placements(_ token: String) -> [String] {
      [
        "2026-12-02 deploy started with \(token) for region eu\n",
        #"{"blob":""# + token + #"","n":1}"#,
        "https://api.test/v1/items?a=1&ctx=\(token)&b=2",
        "X-Context: \(token)",
        "https://api.test/v1/\(token)/send",
        "<p>\(token)</p>",
      ]
    }

    /// Every 8-character window of `secret`: what a leak check greps for.
    static func windows(_ secret: String) -> [String] {
      let characters = Array(secret)
      guard characters.count >= 8 else { return [secret] }
      return (0...(characters.count - 8)).map { String(characters[$0..<$0 + 8]) }
    }

    static func token(_ format: Format, seed: UInt64) -> (token: String, secret: String) {
      var random = SplitMix(seed: seed)
      let body = format.body(&random)
      // A Firebase server key: an id, then the key after `:`.
      if format.prefix == "AAAA" {
        let key = "APA91b" + draw(urlSafe, 134, &random)
        return (format.prefix + body + ":" + key, key)
      }
      return (format.prefix + body, body)
    }

    // MARK: Vendor tokens

    @Test(arguments: vendorFormats)
    func aVendorTokenIsRefusedAndMaskedWherever(format: Format) {
      for seed in UInt64(0)..<8 {
        let (token, secret) = Self.token(format, seed: seed)
        for text in Self.placements(token) {
          #expect(!scanner.scan(text, at: "t").isEmpty, "not refused: \(text)")
          let masked = LogRedaction.mask(text)
          let leaked = Self.windows(secret).filter(masked.contains)
          #expect(leaked.isEmpty, "printed: \(masked)")
        }
      }
    }

    /// The identifiers just below the line, generated: none is refused, none is masked.
    static let identifiers: [(String, @Sendable (inout SplitMix) -> String)] = [
      ("UUID", { random in UUID(uuid: random.uuidBytes()).uuidString }),
      ("lower-case UUID", { random in UUID(uuid: random.uuidBytes()).uuidString.lowercased() }),
      ("MD5 digest", { draw(hex, 32, &$0) }), ("SHA-1 digest", { draw(hex, 40, &$0) }),
      ("SHA-256 digest", { draw(hex, 64, &$0) }),
      ("upper-case digest", { draw(hex, 40, &$0).uppercased() }),
      ("ETag", { "W/\"" + draw(hex, 32, &$0) + "\"" }),
      ("digest in a path", { "/objects/" + draw(hex, 40, &$0) + "/raw" }),
      ("image digest", { "sha256:" + draw(hex, 64, &$0) }),
      ("named digest", { "sha256-" + draw(hex, 64, &$0) }),
      ("named digest in base64", { "sha512-" + draw(urlSafe, 40, &$0) }),
      ("asset name", { "main." + draw(hex, 32, &$0) + ".js" }),
      ("asset name with a dash", { "app-" + draw(hex, 32, &$0) + ".css" }),
      ("Stripe customer", { "cus_" + draw(mixed, 14, &$0) }),
      ("Stripe request", { "req_" + draw(mixed, 14, &$0) }),
      ("Stripe payment intent", { "pi_" + draw(mixed, 24, &$0) }),
      ("Stripe charge", { "ch_" + draw(mixed, 24, &$0) }),
      ("Stripe setup intent", { "seti_" + draw(mixed, 24, &$0) }),
      ("ULID", { draw(crockford, 26, &$0) }),
      ("TypeID", { "user_" + draw(crockford, 26, &$0).lowercased() }),
      ("nanoid", { draw(urlSafe, 21, &$0) }),
      ("Firebase push id", { "-" + draw(urlSafe, 19, &$0) }),
      ("MongoDB ObjectId", { draw(hex, 24, &$0) }), ("video id", { draw(urlSafe, 11, &$0) }),
      ("words joined by case", { camelCase(&$0) }),
      ("words joined by underscores", { joinedWords(&$0, "_") }),
      ("words joined by dashes", { joinedWords(&$0, "-") }),
      ("words in capitals", { joinedWords(&$0, "_").uppercased() }),
      ("dotted name", { joinedWords(&$0, ".") }),
      ("base64 of text", { Data(joinedWords(&$0, " ").utf8).base64EncodedString() }),
      (
        "base64 JSON cursor",
        { random in
          Data(
            #"{"after":"\#(joinedWords(&random, "-"))","n":\#(Int.random(in: 1...999, using: &random))}"#
              .utf8
          )
          .base64EncodedString()
        }
      ),
      (
        "base64 image",
        { random in
          "data:image/png;base64,"
            + Data((0..<600).map { _ in UInt8.random(in: 0...255, using: &random) })
            .base64EncodedString()
        }
      ),
      (
        "base64 signature",
        { random in
          Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &random) })
            .base64EncodedString()
        }
      ),
      (
        "pod name",
        { joinedWords(&$0, "-") + "-" + draw(lower36, 10, &$0) + "-" + draw(lower36, 5, &$0) }
      ),
      // Trace ids in their documented formats: random, and public by design.
      (
        "W3C traceparent",
        { "00-" + draw(hex, 32, &$0) + "-" + draw(hex, 16, &$0) + "-0" + draw("01", 1, &$0) }
      ),
      ("AWS X-Ray trace id", { "Root=1-" + draw(hex, 8, &$0) + "-" + draw(hex, 24, &$0) }),
      (
        "B3 single header",
        {
          draw(hex, 16, &$0) + "-" + draw(hex, 16, &$0) + "-" + draw("01d", 1, &$0) + "-"
            + draw(hex, 16, &$0)
        }
      ),
      ("sentry-trace", { draw(hex, 32, &$0) + "-" + draw(hex, 16, &$0) + "-1" }),
      (
        "version",
        { random in
          "v\(Int.random(in: 0...20, using: &random)).\(Int.random(in: 0...99, using: &random)).\(Int.random(in: 0...999, using: &random))-beta.1+build.\(draw(hex, 7, &random))"
        }
      ),
    ]

    static let words = [
      "user", "profile", "settings", "view", "controller", "account", "billing", "invoice",
      "payment", "customer", "order", "item", "product", "catalog", "search", "result",
      "index", "request", "response", "handler", "service", "manager", "update", "delete",
      "create", "notification", "preference", "subscription", "region", "cluster",
    ]

    static func joinedWords(_ random: inout SplitMix, _ separator: String) -> String {
      (0..<Int.random(in: 3...8, using: &random)).map { _ in words.randomElement(using: &random)! }
        .joined(separator: separator)
        + (Bool.random(using: &random) ? "\(Int.random(in: 0...99, using: &random))" : "")
    }

    static func camelCase(_ random: inout SplitMix) -> String {
      let parts = (0..<Int.random(in: 3...8, using: &random)).map { _ in
        words.randomElement(using: &random)!
      }
      var name = parts[0] + parts.dropFirst().map(\.capitalized).joined()
      if Bool.random(using: &random) { name += "V\(Int.random(in: 1...9, using: &random))" }
      return name
    }

    @Test(arguments: identifiers.map(\.0))
    func anIdentifierIsNeitherRefusedNorMasked(kind: String) {
      let generate = Self.identifiers.first { $0.0 == kind }!.1
      var random = SplitMix(seed: UInt64(kind.utf8.count))
      for _ in 0..<200 {
        let identifier = generate(&random)
        for text in Self.placements(identifier) {
          #expect(scanner.scan(text, at: "t").isEmpty, "refused: \(text)")
          #expect(LogRedaction.mask(text) == text)
        }
      }
    }

    // MARK: JWTs

    static func base64URL(_ bytes: some Sequence<UInt8>) -> String {
      Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static let jwtHeaders = [
      #"{"alg":"HS256","typ":"JWT"}"#, #" {"alg":"RS256"}"#, "\n{\"alg\":\"none\"}",
      "\t{ \"typ\": \"JWT\" }", "{\n  \"alg\": \"ES256\",\n  \"kid\": \"k1\"\n}",
      "\r\n{\"alg\":\"EdDSA\"}",
    ]

    /// A JWT and the part that must never be printed (payload and signature).
    static func jwt(seed: UInt64) -> (token: String, secret: String) {
      var random = SplitMix(seed: seed)
      let header = jwtHeaders[Int(seed) % jwtHeaders.count]
      let payload = #"{"sub":"\#(draw(mixed, 12, &random))","n":"\#(draw(mixed, 20, &random))"}"#
      let rest = base64URL(Array(payload.utf8)) + "." + draw(urlSafe, 43, &random)
      return (base64URL(Array(header.utf8)) + "." + rest, rest)
    }

    /// Each spelling of a JWT the guides promise is seen: with its dots percent-encoded (either
    /// case), split over two lines (a real line break, or a JSON string's `\n`), and
    /// base64-encoded again (standard and URL-safe), under no name.
    static let jwtSpellings: [(String, @Sendable (String, Int) -> String)] = [
      ("as is", { token, _ in token }),
      ("%2E dots", { token, _ in token.replacingOccurrences(of: ".", with: "%2E") }),
      ("%2e dots", { token, _ in token.replacingOccurrences(of: ".", with: "%2e") }),
      (
        "split over two lines",
        { token, cut in
          String(token.prefix(cut)) + "\n" + String(token.dropFirst(cut))
        }
      ),
      (
        "split with CRLF and indent",
        { token, cut in
          String(token.prefix(cut)) + "\r\n    " + String(token.dropFirst(cut))
        }
      ),
      (
        "split by a JSON escape",
        { token, cut in
          String(token.prefix(cut)) + "\\n" + String(token.dropFirst(cut))
        }
      ),
      ("base64 again", { token, _ in Data(token.utf8).base64EncodedString() }),
      ("base64url again", { token, _ in base64URL(Array(token.utf8)) }),
    ]

    @Test(arguments: jwtSpellings.map(\.0))
    func aJWTInAnyPromisedSpellingIsRefusedAndMasked(spelling: String) {
      let spell = Self.jwtSpellings.first { $0.0 == spelling }!.1
      for seed in UInt64(0)..<48 {
        let (token, secret) = Self.jwt(seed: seed)
        let spelled = spell(token, 10 + Int(seed) * 7 % (token.count - 20))
        for text in Self.placements(spelled) {
          #expect(!scanner.scan(text, at: "t").isEmpty, "not refused: \(text)")
          let masked = LogRedaction.mask(text)
          // What is printed may hold a spelling of the token, so each is searched.
          for form in [masked, Self.unwrapped(masked)] {
            #expect(
              Self.windows(secret).filter(form.contains).isEmpty, "printed: \(masked)")
          }
        }
      }
    }

    /// `text` with a base64 run decoded and percent escapes undone, so a token printed in a
    /// wrapper is still found.
    static func unwrapped(_ text: String) -> String {
      var result = text.removingPercentEncoding ?? text
      for piece in text.split(whereSeparator: {
        !"+/=-_".contains($0) && !$0.isLetter && !$0.isNumber
      }) {
        var base64 = piece.replacingOccurrences(of: "-", with: "+").replacingOccurrences(
          of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        if let data = Data(base64Encoded: base64) {
          result += " " + String(decoding: data, as: UTF8.self)
        }
      }
      return result
    }

    // MARK: Keys without armour

    static func randomBytes(_ count: Int, _ random: inout SplitMix) -> [UInt8] {
      (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    /// A DER private key of each structure, base64 on one line or wrapped at 64 columns.
    static func derKeys(seed: UInt64) -> [String] {
      var random = SplitMix(seed: seed)
      let pkcs8: [UInt8] =
        [0x30, 0x82, 0x04, 0xBD, 0x02, 0x01, 0x00, 0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86]
        + [0xF7, 0x0D, 0x01, 0x01, 0x01, 0x05, 0x00, 0x04, 0x82, 0x04, 0xA7]
        + randomBytes(1_191, &random)
      let pkcs1: [UInt8] =
        [0x30, 0x82, 0x04, 0xA4, 0x02, 0x01, 0x00, 0x02, 0x82, 0x01, 0x01, 0x00]
        + randomBytes(1_180, &random)
      let sec1: [UInt8] = [0x30, 0x77, 0x02, 0x01, 0x01, 0x04, 0x20] + randomBytes(112, &random)
      let ecPKCS8: [UInt8] =
        [0x30, 0x81, 0x87, 0x02, 0x01, 0x00, 0x30, 0x13] + randomBytes(130, &random)
      return [pkcs8, pkcs1, sec1, ecPKCS8].flatMap { der -> [String] in
        let line = Data(der).base64EncodedString()
        let wrapped = Data(der).base64EncodedString(options: [
          .lineLength64Characters, .endLineWithLineFeed,
        ])
        return [line, wrapped]
      }
    }

    @Test func aBareDERPrivateKeyIsRefusedAndMasked() {
      for seed in UInt64(0)..<16 {
        for key in Self.derKeys(seed: seed) {
          let plain = key.replacingOccurrences(of: "\n", with: "")
          for text in [
            #"{"material":""# + key.replacingOccurrences(of: "\n", with: "\\n") + #""}"#,
            "key:\n" + key + "\n",
          ] {
            #expect(scanner.scan(text, at: "t").map(\.kind).contains(.derPrivateKey), "\(text)")
            let masked = LogRedaction.mask(text).replacingOccurrences(of: "\n", with: "")
              .replacingOccurrences(of: "\\n", with: "")
            #expect(
              Self.windows(String(plain.dropFirst(16))).filter(masked.contains).isEmpty, "\(masked)"
            )
          }
        }
      }
    }

    /// A certificate and a public key are DER too, and public: neither is refused.
    @Test func aDERCertificateOrPublicKeyIsNot() {
      var random = SplitMix(seed: 5)
      for _ in 0..<50 {
        let certificate: [UInt8] =
          [0x30, 0x82, 0x03, 0x10, 0x30, 0x82, 0x02, 0x78, 0xA0, 0x03]
          + Self.randomBytes(600, &random)
        let publicKey: [UInt8] =
          [
            0x30, 0x82, 0x01, 0x22, 0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D,
            0x01,
          ]
          + Self.randomBytes(270, &random)
        for der in [certificate, publicKey] {
          let text = #"{"cert":""# + Data(der).base64EncodedString() + #""}"#
          #expect(scanner.scan(text, at: "t").isEmpty, "\(text)")
        }
      }
    }

    @Test func aPuTTYKeysPrivateLinesAreRefusedAndMasked() {
      var random = SplitMix(seed: 9)
      for version in [2, 3] {
        for lineBreak in ["\n", "\r\n", "\\n"] {
          let privateLines = (0..<4).map { _ in
            Data(Self.randomBytes(48, &random)).base64EncodedString()
          }
          let file =
            [
              "PuTTY-User-Key-File-\(version): ssh-ed25519", "Encryption: none",
              "Comment: ada@laptop", "Public-Lines: 2",
              Data(Self.randomBytes(48, &random)).base64EncodedString(), "AAAAC3NzaC1lZDI1NTE5",
              "Private-Lines: 4",
            ] + privateLines + ["Private-MAC: " + Self.draw(Self.hex, 64, &random)]
          let text = file.joined(separator: lineBreak)
          #expect(scanner.scan(text, at: "t").map(\.kind).contains(.privateKey), "\(text)")
          let masked = LogRedaction.mask(text)
          for line in privateLines {
            #expect(Self.windows(line).filter(masked.contains).isEmpty, "\(masked)")
          }
        }
      }
    }

    // MARK: Through the outputs

    /// Through the recorder's write gate (``CredentialScanner/scan(redacted:)`` over the
    /// cassette as written) and the printed outputs: the near-miss report a test receives and
    /// the traffic attachment.
    @Test func unnamedShapesAreRefusedOnWriteAndMaskedInReportsAndAttachments() async throws {
      var plants: [(token: String, secret: String)] = Self.vendorFormats.map {
        Self.token($0, seed: 99)
      }
      plants += (UInt64(0)..<6).map { Self.jwt(seed: $0) }
      plants.append(
        contentsOf: (UInt64(6)..<8).map { seed in
          let (token, secret) = Self.jwt(seed: seed)
          return (token.replacingOccurrences(of: ".", with: "%2E"), secret)
        })
      let registry = StubRegistry()
      registry.stub(.get("https://api.test/never") && .header("X-Never", "1"), .ok)
      let session = registry.makeSession()
      var entries: [HAR.Entry] = []
      var printed: [String] = []
      for (index, plant) in plants.enumerated() {
        var request = URLRequest(url: URL(string: "https://api.test/v1/items?ctx=\(plant.token)")!)
        request.setValue(plant.token, forHTTPHeaderField: "X-Context-\(index)")
        let error = try await #require(throws: URLError.self) {
          try await session.data(for: request)
        }
        printed.append(String(describing: error))
        entries.append(
          .sample(
            url: "https://api.test/v1/items?ctx=\(plant.token)",
            requestHeaders: [HAR.Header(name: "X-Context", value: plant.token)],
            content: HAR.Content(
              body: Data(("{\"note\":\"" + plant.token + "\"}").utf8), mimeType: "application/json")
          ))
      }
      let har = Redaction.default.redact(HAR(entries: entries))
      let findings = CredentialScanner().scan(redacted: har)
      for index in plants.indices {
        let paths = findings.map(\.path).filter { $0.hasPrefix("log.entries[\(index)].") }
        #expect(paths.count >= 3, "entry \(index) \(plants[index].token): \(paths)")
      }
      printed += [
        String(
          decoding: try #require(
            TrafficAttachmentWriter.attachmentBytes(of: registry, testName: "t")), as: UTF8.self)
      ]
      for plant in plants {
        for text in printed {
          #expect(
            Self.windows(plant.secret).filter(text.contains).isEmpty,
            "\(plant.token) printed in \(text.prefix(400))")
        }
      }
    }
  }
}

extension SplitMix {
  mutating func uuidBytes() -> uuid_t {
    let a = next()
    let b = next()
    return (
      UInt8(truncatingIfNeeded: a), UInt8(truncatingIfNeeded: a >> 8),
      UInt8(truncatingIfNeeded: a >> 16),
      UInt8(truncatingIfNeeded: a >> 24), UInt8(truncatingIfNeeded: a >> 32),
      UInt8(truncatingIfNeeded: a >> 40),
      UInt8(truncatingIfNeeded: a >> 48) & 0x0F | 0x40, UInt8(truncatingIfNeeded: a >> 56),
      UInt8(truncatingIfNeeded: b) & 0x3F | 0x80, UInt8(truncatingIfNeeded: b >> 8),
      UInt8(truncatingIfNeeded: b >> 16),
      UInt8(truncatingIfNeeded: b >> 24), UInt8(truncatingIfNeeded: b >> 32),
      UInt8(truncatingIfNeeded: b >> 40),
      UInt8(truncatingIfNeeded: b >> 48), UInt8(truncatingIfNeeded: b >> 56)
    )
  }
}
