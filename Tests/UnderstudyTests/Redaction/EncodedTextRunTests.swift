import Foundation
import Testing

@testable import Understudy

/// Text a body holds in base64, hex or base32 wherever it stands (the thirteenth blind attack,
/// P138, P164 to P170, P172 to P175, P201): each run is read as the text it holds, as a body
/// that is base64 whole is, and written back in the same spelling when a rule finds something
/// inside. The cassette, the scanner and a report's masking agree on it.
@Suite struct EncodedTextRunTests {
  /// Texts a credential arrives in, each naming it as the body rules read it.
  static func inners(_ secret: String) -> [String] {
    [
      "password=\(secret)", #"{"user": "ada", "apiKey": "\#(secret)"}"#,
      "kind: job\nsecret: \(secret)\n",
      "[default]\nregion = eu-west-1\naws_secret_access_key = \(secret)\nsession_name = ci\n",
    ]
  }

  /// `text` in each spelling a run of it may take: base64 in both alphabets, padded or not,
  /// wrapped at 60 with `\n` and at 64 with `\r\n`; hex in both cases and behind `0x`; base32.
  static func spellings(of text: String) -> [(name: String, run: String)] {
    let base64 = Data(text.utf8).base64EncodedString()
    let urlSafe = base64.replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    let hex = Data(text.utf8).map { String(format: "%02x", $0) }.joined()
    return [
      ("base64", base64), ("base64url", urlSafe),
      ("base64 wrapped at 60", wrapped(base64, width: 60, lineBreak: "\n")),
      ("base64 wrapped at 64 with CRLF", wrapped(base64, width: 64, lineBreak: "\r\n")),
      ("hex", hex), ("HEX", hex.uppercased()), ("0x hex", "0x" + hex),
      ("base32", base32(text)),
    ]
  }

  /// Where a run stands in a body: the places the attack found left closed.
  static let placements: [(name: String, mimeType: String, body: @Sendable (String) -> String)] = [
    ("XML element", "application/xml", { "<msg><payload>\($0)</payload></msg>" }),
    ("CSV cell", "text/csv", { "id,blob\n1,\($0)\n" }),
    ("HTML data attribute", "text/html", { #"<div data-state="\#($0)"></div>"# }),
    (
      "data: URL in src", "text/html", { #"<iframe src="data:text/plain;base64,\#($0)"></iframe>"# }
    ),
    ("log line", "text/plain", { "level=info msg=queued payload=\($0)\n" }),
    (
      "multipart part", "multipart/form-data; boundary=----b13",
      {
        "------b13\r\nContent-Disposition: form-data; name=\"meta\"\r\n\r\n\($0)\r\n------b13--\r\n"
      }
    ),
    ("event stream", "text/event-stream", { "event: update\ndata: \($0)\n\n" }),
    (
      "JSON string", "application/json",
      { #"{"file": "\#(RedactionEchoes.jsonEscaped($0))", "n": 1}"# }
    ),
  ]

  @Test func textInBase64HexOrBase32IsOpenedWhereverABodyHoldsIt() throws {
    for secret in CredentialLineTests.values(seed: 131) {
      for inner in Self.inners(secret) {
        for spelling in Self.spellings(of: inner) {
          // Base32 is read where it stands alone: a cell, an element, a string.
          for placement in Self.placements
          where spelling.name != "base32" || ["CSV cell", "JSON string"].contains(placement.name) {
            let body = placement.body(spelling.run)
            let what = "\(spelling.name) in \(placement.name) of \(inner.debugDescription)"
            try Self.expectHidden(body, mimeType: placement.mimeType, secret: secret, what)
          }
        }
      }
    }
  }

  /// Hex of text as a query value and in a header no rule names (P172, P173), opened as base64
  /// there is.
  @Test func hexOfTextIsOpenedInQueryValuesAndHeaders() throws {
    for secret in CredentialLineTests.values(seed: 173) {
      for inner in Self.inners(secret) {
        let hex = Data(inner.utf8).map { String(format: "%02x", $0) }.joined()
        for run in [hex, hex.uppercased(), "0x" + hex] {
          let entry = HAR.Entry.sample(
            url: "https://api.example.test/x?d=\(run)&page=2",
            requestHeaders: [HAR.Header(name: "X-Ctx", value: run)])
          let redacted = Redaction.default.redact(HAR(entries: [entry]))
          let written = try redacted.encodedText
          for reading in Self.readings(of: written) {
            #expect(!reading.contains(secret), "\(inner) as \(run): \(written)")
          }
          #expect(!CredentialScanner().scan(HAR(entries: [entry])).isEmpty, "\(run)")
          #expect(Redaction.default.redact(redacted) == redacted)
          // The near-miss report shows the URL and the header.
          let registry = StubRegistry()
          registry.stub(.get("https://api.example.test/x") && .query("d", "other"), .ok)
          let request = InterceptedRequest(
            method: .get, url: try #require(URL(string: entry.request.url)),
            headers: ["X-Ctx": run], body: nil)
          let report = NearMissReport(request: request, stubs: registry.stubs).description
          #expect(report.contains("Closest stubs"), "\(report)")
          for reading in Self.readings(of: report) where reading.contains(secret) {
            Issue.record("near-miss report: \(run): \(report)")
            break
          }
        }
      }
    }
  }

  /// Base64 of binary (an image, a protobuf, a hash), ids, hashes and words keep every byte,
  /// wherever they stand.
  @Test func encodedBinaryIdsAndHashesKeepTheirBytes() {
    var generator = SplitMix(seed: 7)
    var kept: [String] = []
    for length in [18, 32, 48, 96, 300] {
      let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let base64 = Data(bytes).base64EncodedString()
      kept += [
        base64, Self.wrapped(base64, width: 76, lineBreak: "\n"),
        bytes.map { String(format: "%02x", $0) }.joined(),
      ]
    }
    kept += [
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
      "3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a", "0x3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a",
      "AbCdEfGhIjKlMnOpQrStUvWx", "550e8400-e29b-41d4-a716-446655440000",
      "thisIsAVeryLongIdentifierNameThatIsNotBase64", "/api/v1/users/1234/settings/notifications",
      Data("just some harmless text, nothing to hide here at all".utf8).base64EncodedString(),
      Self.base32("just some harmless text, nothing to hide"),
    ]
    for run in kept {
      for placement in Self.placements {
        let body = placement.body(run)
        #expect(redactedResponse(body, mimeType: placement.mimeType).1 == body, "\(body)")
      }
    }
  }

  /// Base64 of compressed text inside a body (a CloudWatch Logs event's `awslogs.data` in gzip,
  /// P159; zlib, P160) cannot be read: the scanner reports the entry's body as unreadable, so no
  /// cassette is written with it, `redact` and `convert` refuse it, and neither the traffic
  /// attachment nor the near-miss report shows it.
  @Test func base64OfCompressedTextInABodyIsNeverWrittenAsItIs() async throws {
    let secret = UnreadableBodyTests.secret
    let json = UnreadableBodyTests.json
    let placements: [(name: String, mimeType: String, body: @Sendable (String) -> String)] =
      Self.placements + [
        (
          name: "JSON with escaped slashes", mimeType: "application/json",
          { @Sendable in
            #"{"awslogs": {"data": "\#($0.replacingOccurrences(of: "/", with: "\\/"))"}}"#
          }
        )
      ]
    for (coding, compressed) in [
      ("gzip", UnreadableBodyTests.gzip(json)), ("zlib", UnreadableBodyTests.zlib(json)),
      ("gzip", UnreadableBodyTests.gzip(Data("token=\(secret)&user=ada".utf8) + Data(count: 40))),
    ] {
      let base64 = compressed.base64EncodedString()
      for placement in placements {
        let body = placement.body(base64)
        let what = "\(coding) in \(placement.name)"
        for onRequest in [true, false] {
          let entry: HAR.Entry =
            onRequest
            ? .sample(
              method: "POST", postData: HAR.PostData(mimeType: placement.mimeType, text: body))
            : .sample(content: HAR.Content(body: Data(body.utf8), mimeType: placement.mimeType))
          let har = HAR(entries: [.sample(), entry])
          let path =
            "log.entries[1]." + (onRequest ? "request.postData.text" : "response.content.text")
          for findings in [CredentialScanner().scan(har), CredentialScanner().scan(redacted: har)] {
            let unreadable = findings.filter { $0.kind == .unreadableBody }
            #expect(unreadable.map(\.path) == [path], "\(what): \(findings)")
            #expect(
              unreadable.first?.description.contains("base64 of \(coding)") == true,
              "\(what): \(unreadable)")
          }
        }
        let excerpt = NearMissReport.excerpt(
          of: Data(body.utf8), headers: ["Content-Type": placement.mimeType])
        #expect(!excerpt.contains(base64.prefix(12)), "near-miss report, \(what): \(excerpt)")
        // Through stubs: the attachment leaves both bodies out.
        let registry = StubRegistry()
        registry.stub(
          .post("http://127.0.0.1:8080/ingest"),
          .text(body, headers: ["Content-Type": placement.mimeType]))
        var post = URLRequest(url: URL(string: "http://127.0.0.1:8080/ingest")!)
        post.httpMethod = "POST"
        post.setValue(placement.mimeType, forHTTPHeaderField: "Content-Type")
        post.httpBody = Data(body.utf8)
        _ = try await registry.makeSession().data(for: post)
        let attachment = String(
          decoding: try #require(
            TrafficAttachmentWriter.attachmentBytes(of: registry, testName: "t")),
          as: UTF8.self)
        #expect(!attachment.contains(base64.prefix(12)), "attachment, \(what): \(attachment)")
      }
    }
    // Base64 of other binary keeps its bytes.
    var generator = SplitMix(seed: 159)
    for _ in 0..<200 {
      let bytes = (0..<48).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let body = #"{"data": "\#(Data(bytes).base64EncodedString())"}"#
      let har = HAR(entries: [
        .sample(content: HAR.Content(body: Data(body.utf8), mimeType: "application/json"))
      ])
      #expect(UnreadableBody.find(in: har.log.entries).isEmpty, "\(body)")
    }
  }

  /// A masked base64 run is masked whole, its `/`, `+` and `=` included (P057: a macaroon in a
  /// JSON result showed its signature's base64 after the first `/`). Some of the values are
  /// random enough to be a token inside it, so each placement is masked for most seeds.
  @Test func aMaskedBase64RunIsMaskedWhole() {
    for seed in 0..<12 {
      let secret = CredentialLineTests.values(seed: UInt64(57 + seed))[0]
      // The signature's bytes put a `/` or a `+` at several places of the run.
      let signature = (0..<32).map { UInt8(truncatingIfNeeded: 0xFF - $0 * (seed + 3)) }
      let macaroon = Data(
        Data("0014location example\n0032identifier \(secret)\n002fsignature ".utf8)
          + signature
      ).base64EncodedString()
      #expect(macaroon.contains("/") || macaroon.contains("+"), "\(macaroon)")
      for body in [
        #"{"result": "\#(macaroon)", "ok": true}"#, "macaroon: \(macaroon)\n",
        "<m>\(macaroon)</m>",
      ] {
        // Masked at all (its identifier is a token), it is masked whole.
        for masked in [LogRedaction.mask(traffic: body), LogRedaction.mask(body)]
        where masked != body {
          let characters = Array(macaroon)
          for start in stride(from: 0, to: characters.count - 8, by: 4) {
            let piece = String(characters[start..<(start + 8)])
            if masked.contains(piece) {
              Issue.record("\(piece) at \(start) shown: \(masked)")
              break
            }
          }
        }
      }
    }
  }

  // MARK: Tokens that are base64 of text

  static let alphanumerics = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

  static func draw(_ count: Int, _ alphabet: [Character], _ random: inout SplitMix) -> String {
    String((0..<count).map { _ in alphabet.randomElement(using: &random)! })
  }

  /// Vendor tokens that are base64 of a few fields around a random value, each with the value
  /// no output may show: Grafana Cloud's `glc_` (24 characters inside JSON), AWS Bedrock's
  /// `ABSK` (standard base64 of 40 bytes behind a readable head), a Cloudflare tunnel's (hex, a
  /// UUID and standard base64 in JSON), Intercom's (`tok:` and a UUID), a cursor that is
  /// mostly an id; and two the text inside alone gave away (a random run over the line).
  static func textTokens(seed: UInt64) -> [(name: String, token: String, secrets: [String])] {
    var random = SplitMix(seed: seed)
    func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
    let grafanaKey = draw(24, alphanumerics, &random)
    let grafana = #"{"o":"123456","n":"stack-1-token","k":"\#(grafanaKey)","m":{"r":"us"}}"#
    let bedrockKey = Data((0..<40).map { _ in UInt8.random(in: 0...255, using: &random) })
      .base64EncodedString()
    let tunnelHex = draw(32, Array("0123456789abcdef"), &random)
    let tunnelUUID = UUID(uuid: random.uuidBytes()).uuidString.lowercased()
    let tunnelSecret = Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &random) })
      .base64EncodedString()
    let tunnel = #"{"a":"\#(tunnelHex)","t":"\#(tunnelUUID)","s":"\#(tunnelSecret)"}"#
    let intercomUUID = UUID(uuid: random.uuidBytes()).uuidString.lowercased()
    let cursorUUID = UUID(uuid: random.uuidBytes()).uuidString
    let ada = draw(32, alphanumerics, &random)
    let tok = draw(40, alphanumerics, &random)
    return [
      ("Grafana Cloud", "glc_" + base64(grafana), [grafanaKey]),
      (
        "AWS Bedrock", "ABSK" + base64("BedrockAPIKey-abcd-at-123456789012:" + bedrockKey),
        [bedrockKey]
      ),
      ("Cloudflare tunnel", base64(tunnel), [tunnelHex, tunnelUUID, tunnelSecret]),
      ("Intercom", base64("tok:\(intercomUUID):1:0"), [intercomUUID]),
      ("a cursor that is mostly an id", base64(#"{"after":"\#(cursorUUID)"}"#), [cursorUUID]),
      ("a random run inside", base64("ada:\(ada)"), [ada]),
      ("prefixed, a random run inside", "tok_" + base64("k=\(tok)"), [tok]),
    ]
  }

  /// Base64 of text that reads as words, which cassettes hold everywhere: page cursors, a
  /// Relay cursor and a Shopify id, an SVG `data:` URL, JWT headers alone, a Kubernetes
  /// `continue` token, a short note, an etcd key, base64 of base64 of a form, an e-mail with a
  /// MIME part.
  static let textDecoys: [String] = {
    func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
    return [
      "eyJwYWdlIjoyfQ==", base64(#"{"offset":100,"limit":50,"sort":"createdAt","dir":"desc"}"#),
      base64(#"{"after":"invoice-region-cluster73","n":412}"#), "YXJyYXljb25uZWN0aW9uOjEw",
      base64("gid://shopify/Product/123456789"),
      "data:image/svg+xml;base64,"
        + base64(
          #"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" "#
            + ##"viewBox="0 0 24 24"><path fill="#1a73e8" d="M12 2L2 7l10 5 10-5-10-5z"/></svg>"##),
      "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9", base64(#"{"alg":"RS256","kid":"signing-key-2"}"#),
      base64(#"{"v":"meta.k8s.io/v1","rv":48211,"start":"default/nginx-7c5ddbdf54-x8f9q\u0000"}"#),
      base64("just some harmless text, nothing to hide here at all"),
      // Words joined by case, and base64 inside that is text of words itself.
      base64("/registry/app/DbPassword"),
      base64(base64("user=ada&note=see you at the meeting on friday&page=2")),
      base64(
        "From: a@b.test\r\nContent-Transfer-Encoding: base64\r\n\r\n"
          + Data(String(repeating: "region=eu-west-1 plan=team seats=12\n", count: 4).utf8)
          .base64EncodedString(options: [
            .lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed,
          ]) + "\r\n"),
    ]
  }()

  /// Where a token or a decoy stands: in a JSON array under a name that says nothing, in a
  /// response header, in a log line.
  static func textTokenPlaces(_ run: String) -> (json: String, header: String, log: String) {
    (
      #"{"refs":["\#(run.replacingOccurrences(of: "/", with: "\\/"))"],"n":2}"#, run,
      "2026-12-07T10:00:00Z INF connector started with \(run) for region eu\n"
    )
  }

  /// A vendor token that is base64 of text is a token by its own run, as the guides draw the
  /// line (after a prefix, 25 characters mixing upper and lower case; with none, 32), unless
  /// the text reads as words: each is refused on write, and masked in the traffic attachment
  /// and a near-miss report, in a JSON body, a header and a log line; base64 of words is kept
  /// byte for byte.
  @Test func aTokenThatIsBase64OfTextIsJudgedByItsOwnRunToo() async throws {
    for seed in UInt64(0)..<12 {
      for (name, token, secrets) in Self.textTokens(seed: seed) {
        let places = Self.textTokenPlaces(token)
        let registry = StubRegistry()
        registry.stub(
          .get("https://api.example.test/refs"),
          .text(
            places.json, headers: ["Content-Type": "application/json", "X-Ref": places.header]))
        registry.stub(
          .get("https://api.example.test/log"),
          .text(places.log, headers: ["Content-Type": "text/plain"]))
        let session = registry.makeSession()
        for path in ["refs", "log"] {
          _ = try await session.data(from: URL(string: "https://api.example.test/\(path)")!)
        }
        let entries: [HAR.Entry] = [
          .sample(
            url: "https://api.example.test/refs",
            content: HAR.Content(body: Data(places.json.utf8), mimeType: "application/json")),
          .sample(
            url: "https://api.example.test/ref",
            responseHeaders: [HAR.Header(name: "X-Ref", value: places.header)]),
          .sample(
            url: "https://api.example.test/log",
            content: HAR.Content(body: Data(places.log.utf8), mimeType: "text/plain")),
        ]
        let findings = CredentialScanner().scan(
          redacted: Redaction.default.redact(HAR(entries: entries)))
        for index in entries.indices {
          #expect(
            findings.contains { $0.path.hasPrefix("log.entries[\(index)].") },
            "\(name) \(seed): entry \(index) written: \(findings)")
        }
        let attachment = String(
          decoding: try #require(
            TrafficAttachmentWriter.attachmentBytes(of: registry, testName: "t")),
          as: UTF8.self)
        var printed =
          [attachment]
          + [places.json, places.header, places.log].map {
            LogRedaction.mask(traffic: $0)
          }
        let request = InterceptedRequest(
          method: .post, url: URL(string: "https://api.example.test/refs")!,
          headers: ["X-Ref": token, "Content-Type": "application/json"],
          body: Data(places.json.utf8))
        registry.stub(.post("https://api.example.test/refs") && .header("X-Ref", "other"), .ok)
        printed.append(NearMissReport(request: request, stubs: registry.stubs).description)
        // The run after a prefix, in pieces a leak check would grep for.
        let run = Array(
          ["glc_", "ABSK", "tok_"].contains(String(token.prefix(4)))
            ? token.dropFirst(4) : token[...])
        let pieces = stride(from: 0, to: run.count - 12, by: 4).map { String(run[$0..<$0 + 12]) }
        for text in printed {
          for piece in pieces where text.contains(piece) {
            Issue.record("\(name) \(seed): \(piece) shown: \(text.prefix(600))")
            break
          }
          for reading in Self.readings(of: text) {
            for secret in secrets where reading.contains(secret) {
              Issue.record("\(name) \(seed): \(secret) shown: \(text.prefix(600))")
            }
          }
        }
      }
    }
    for decoy in Self.textDecoys {
      let places = Self.textTokenPlaces(decoy)
      let entries: [HAR.Entry] = [
        .sample(content: HAR.Content(body: Data(places.json.utf8), mimeType: "application/json")),
        .sample(responseHeaders: [HAR.Header(name: "X-Ref", value: places.header)]),
        .sample(content: HAR.Content(body: Data(places.log.utf8), mimeType: "text/plain")),
      ]
      let har = HAR(entries: entries)
      #expect(CredentialScanner().scan(har).isEmpty, "\(decoy)")
      #expect(try Redaction.default.redact(har).encodedText == har.encodedText, "\(decoy)")
      for text in [places.json, places.header, places.log] {
        #expect(LogRedaction.mask(traffic: text) == text, "\(decoy)")
        #expect(LogRedaction.mask(text) == text, "\(decoy)")
      }
    }
  }

  /// `body` as a request's and a response's body: the cassette holds the secret in no spelling
  /// (each run of it decoded as base64, hex or base32, over line breaks), the scanner reports
  /// the body as it was, masking for a report or an attachment hides it, and redacting again
  /// changes nothing.
  static func expectHidden(
    _ body: String, mimeType: String, secret: String, _ what: String,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws {
    let entry = HAR.Entry.sample(
      method: "POST", postData: HAR.PostData(mimeType: mimeType, text: body),
      content: HAR.Content(body: Data(body.utf8), mimeType: mimeType))
    let har = HAR(entries: [entry])
    let redacted = Redaction.default.redact(har)
    let written = try redacted.encodedText
    let bodies = [
      redacted.log.entries[0].request.postData?.text ?? "",
      redacted.log.entries[0].response.content.text ?? "",
    ]
    for text in [written] + bodies {
      for reading in readings(of: text) where reading.contains(secret) {
        Issue.record("cassette: \(what) kept: \(text)", sourceLocation: sourceLocation)
        break
      }
    }
    #expect(
      !CredentialScanner().scan(har).isEmpty, "scanner: \(what)", sourceLocation: sourceLocation)
    #expect(
      try Redaction.default.redact(redacted).encodedText == written, "idempotent: \(what)",
      sourceLocation: sourceLocation)
    for reading in readings(of: LogRedaction.mask(traffic: body)) where reading.contains(secret) {
      Issue.record("mask: \(what): \(reading)", sourceLocation: sourceLocation)
      break
    }
  }

  /// `text`, and the text each run in it decodes to: base64 in either alphabet (lines of a run,
  /// real or a JSON string's `\n`, joined), hex behind an optional `0x`, base32; each decoded
  /// text read again, twice.
  static func readings(of text: String) -> [String] {
    var forms = [text]
    var current = [text]
    for _ in 0..<3 {
      var next: [String] = []
      for text in current {
        let joined = text.replacingOccurrences(of: "\\r\\n", with: "")
          .replacingOccurrences(of: "\\n", with: "").replacingOccurrences(of: "\r\n", with: "")
          .replacingOccurrences(of: "\n", with: "")
        let pieces = joined.split {
          !($0.isASCII && ($0.isLetter || $0.isNumber || "+/-_=".contains($0)))
        }
        for piece in pieces where piece.count >= 16 {
          let core = piece.hasPrefix("0x") ? piece.dropFirst(2) : piece[...]
          if core.count % 2 == 0, core.allSatisfy(\.isHexDigit) {
            var bytes: [UInt8] = []
            var index = core.startIndex
            while index < core.endIndex {
              let after = core.index(index, offsetBy: 2)
              bytes.append(UInt8(core[index..<after], radix: 16)!)
              index = after
            }
            next.append(String(decoding: bytes, as: UTF8.self))
          }
          var standard = String(piece).replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/").replacingOccurrences(of: "=", with: "")
          for skip in 0..<4 where standard.count > skip {
            var aligned = String(standard.dropFirst(skip))
            while aligned.utf8.count % 4 != 0 { aligned += "=" }
            if let data = Data(base64Encoded: aligned) {
              next.append(String(decoding: data, as: UTF8.self))
            }
          }
          standard = ""
          if let decoded = base32Decoded(String(piece)) { next.append(decoded) }
        }
      }
      forms += next
      current = next
    }
    return forms
  }

  static func wrapped(_ text: String, width: Int, lineBreak: String) -> String {
    var lines: [Substring] = []
    var rest = text[...]
    while !rest.isEmpty {
      lines.append(rest.prefix(width))
      rest = rest.dropFirst(width)
    }
    return lines.joined(separator: lineBreak)
  }

  private static let base32Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")

  static func base32(_ text: String) -> String {
    var output = ""
    var buffer = 0
    var bits = 0
    for byte in text.utf8 {
      buffer = buffer << 8 | Int(byte)
      bits += 8
      while bits >= 5 {
        output.append(base32Alphabet[(buffer >> (bits - 5)) & 31])
        bits -= 5
      }
    }
    if bits > 0 { output.append(base32Alphabet[(buffer << (5 - bits)) & 31]) }
    while output.count % 8 != 0 { output += "=" }
    return output
  }

  static func base32Decoded(_ text: String) -> String? {
    var bytes: [UInt8] = []
    var buffer = 0
    var bits = 0
    for character in text where character != "=" {
      guard let value = base32Alphabet.firstIndex(of: character) else { return nil }
      buffer = (buffer << 5 | value) & 0xFFFF
      bits += 5
      if bits >= 8 {
        bytes.append(UInt8((buffer >> (bits - 8)) & 0xFF))
        bits -= 8
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
