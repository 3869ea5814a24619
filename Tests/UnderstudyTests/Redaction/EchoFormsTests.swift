import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A value a rule removes is also removed where it comes back in another form: inside a binary
/// body, as base64 or hex, or in a part of the entry no rule reads.
@Suite struct EchoFormsTests {
  /// A secret new to each run, so no fixture can hold it.
  static func plant() -> String {
    "ek" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(22)
  }

  /// The forms of `secret` searched for in a whole encoded cassette.
  static func forms(of secret: String) -> [String] {
    let data = Data(secret.utf8)
    let base64 = data.base64EncodedString()
    let unpadded = String(base64.prefix { $0 != "=" })
    let urlSafe = unpadded.replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_")
    let hex = data.map { String(format: "%02x", $0) }.joined()
    let percent = data.map { String(format: "%%%02X", $0) }.joined()
    return [
      secret, secret.uppercased(), secret.lowercased(), unpadded, urlSafe, hex, hex.uppercased(),
      percent, percent.lowercased(),
    ]
  }

  /// Where `secret` appears in the encoded `har`, in any form, or in a body's bytes.
  static func leaks(of secret: String, in har: HAR) throws -> [String] {
    try leaks(of: secret, inCassette: har.encoded())
  }

  static func leaks(of secret: String, inCassette data: Data) throws -> [String] {
    let text = String(decoding: data, as: UTF8.self)
    var places = forms(of: secret).filter { text.contains($0) }
    let har = try HAR.decode(data, source: "leaks.har")
    for (index, entry) in har.log.entries.enumerated() {
      for (name, body) in [
        ("request", entry.request.postData?.body), ("response", entry.response.content.body),
      ] {
        guard let body else { continue }
        for form in forms(of: secret) where body.range(of: Data(form.utf8)) != nil {
          places.append("entry \(index) \(name) body: \(form)")
        }
      }
    }
    return places
  }

  static func entry(secret: String, content: HAR.Content, postData: HAR.PostData? = nil)
    -> HAR.Entry
  {
    HAR.Entry.sample(
      method: postData == nil ? "GET" : "POST", url: "https://api.example.com/blob",
      requestHeaders: [HAR.Header(name: "X-Api-Key", value: secret)], postData: postData,
      content: content)
  }

  // MARK: - Binary bodies

  @Test func anEchoInABinaryBodyIsMaskedInPlace() throws {
    let secret = Self.plant()
    let bytes = Data(secret.utf8)
    let octets = Data([0xFF, 0xFE, 0x00]) + bytes + Data([0x00, 0x80]) + bytes
    // A protobuf string field: tag, length, bytes. ASCII throughout, so it is stored as text.
    let protobuf = Data([0x0A, UInt8(bytes.count)]) + bytes + Data([0x10, 0x01])
    let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + bytes + Data([0xAE])
    let har = HAR(entries: [
      Self.entry(
        secret: secret, content: HAR.Content(body: octets, mimeType: "application/octet-stream"),
        postData: HAR.PostData(body: png, mimeType: "image/png")),
      Self.entry(
        secret: secret, content: HAR.Content(body: protobuf, mimeType: "application/x-protobuf")),
    ])
    #expect(try Self.leaks(of: secret, in: har) != [])

    let redacted = Redaction.default.redact(har)
    #expect(try Self.leaks(of: secret, in: redacted) == [])
    let first = redacted.log.entries[0]
    let response = try #require(first.response.content.body)
    #expect(response.count == octets.count)
    #expect(first.response.content.size == octets.count)
    #expect(response.prefix(3) == octets.prefix(3))
    // The placeholder cut to the value's length, or padded with `*` to it.
    let filler = Data(("<redacted:x-api-key>" + String(repeating: "*", count: 64)).utf8)
      .prefix(bytes.count)
    #expect(response == Data([0xFF, 0xFE, 0x00]) + filler + Data([0x00, 0x80]) + filler)
    let request = try #require(first.request.postData?.body)
    #expect(request.count == png.count)
    #expect(request.prefix(8) == png.prefix(8))
    let framed = try #require(redacted.log.entries[1].response.content.body)
    #expect(framed.count == protobuf.count)
    #expect(framed.prefix(2) == protobuf.prefix(2))
    #expect(framed.suffix(2) == protobuf.suffix(2))
    #expect(Redaction.default.redact(redacted) == redacted)
  }

  @Test func aRecordedBinaryEchoIsMaskedInTheCassetteAndTheAttachment() async throws {
    let secret = Self.plant()
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("understudy-binary-echo-\(UUID().uuidString).har")
    defer { try? FileManager.default.removeItem(at: file) }
    let registry = StubRegistry()
    let recorder = Cassette(at: file, mode: .missing)
    registry.use(recorder)
    var post = URLRequest(url: server.url("/reply?type=application/octet-stream"))
    post.httpMethod = "POST"
    post.setValue(secret, forHTTPHeaderField: "X-Api-Key")
    post.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
    let body = Data([0xFF, 0xFE, 0x00]) + Data(secret.utf8) + Data([0x00])
    post.httpBody = body
    let (received, _) = try await registry.makeSession().data(for: post)
    #expect(received == body)
    #expect(recorder.finish().isEmpty)

    #expect(try Self.leaks(of: secret, inCassette: Data(contentsOf: file)) == [])
    let recorded = try HAR.load(contentsOf: file).log.entries[0]
    #expect(recorded.response.content.body?.count == body.count)
    #expect(recorded.request.postData?.body?.count == body.count)
    let attachment = try #require(
      TrafficAttachmentWriter.attachmentBytes(of: registry, testName: "t"))
    #expect(try Self.leaks(of: secret, inCassette: Data(attachment)) == [])
  }

  // MARK: - Authorization schemes

  /// The credential of any `Authorization` scheme is searched for in every form it can be
  /// echoed in: a bare token after any scheme word, and the auth-params that hold one
  /// (`token=` of Rails' `Token`, `response=` of a Digest, `Signature=`, `oauth_signature=`,
  /// and any that reads as random: Hawk's `mac=`, a scheme's own `proof=`), quoted or not. The
  /// params that say where or who (`realm`, `uri`, `username`) are not.
  @Test(arguments: [
    "Token token=SECRET", #"Token token="SECRET", nonce="n1""#,
    #"Digest username="ada", realm="api.example.com", nonce="n1", uri="/", response="SECRET""#,
    #"Digest username="ada", response=SECRET"#, "SSWS SECRET", "Bot SECRET",
    "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260101/us-east-1/s3/aws4_request, "
      + "SignedHeaders=host, Signature=SECRET",
    #"OAuth oauth_consumer_key="ck", oauth_signature="SECRET""#,
    #"Hawk id="dh37fgj492je", ts="1353832234", nonce="j4h3g2", ext="app", mac="SECRET""#,
    #"Custom keyId="k1", proof="SECRET""#,
  ])
  func theCredentialOfAnyAuthorizationSchemeIsSearchedForInEveryForm(header: String) throws {
    // Random-looking by construction (case, digits and letters mixed), as a param no name
    // marks is taken only when it reads as random; a UUID's hex sometimes does not.
    let secret = "Xq7Rb4Zk2Pm9Lt3Vw8Nc5Hs1" + Self.plant().suffix(4)
    let echoes = Self.forms(of: secret).map { #""\#($0)""# }.joined(separator: ",")
    let entry = HAR.Entry.sample(
      requestHeaders: [
        HAR.Header(
          name: "Authorization", value: header.replacingOccurrences(of: "SECRET", with: secret))
      ],
      content: HAR.Content(
        body: Data(#"{"seen":[\#(echoes)],"realm":"api.example.com"}"#.utf8),
        mimeType: "application/json"))
    let redacted = Redaction.default.redact(HAR(entries: [entry]))
    #expect(try Self.leaks(of: secret, in: redacted) == [], "\(header)")
    let body = try #require(redacted.log.entries[0].response.content.text)
    #expect(body.contains(#""realm":"api.example.com""#), "\(body)")
  }

  /// A password a JSON body sent, echoed with every character a `\uXXXX` escape (in either
  /// case) in a page no rule reads, is replaced there: the spelling shows none of its letters.
  @Test func aPasswordEchoedWithEveryCharacterEscapedIsReplaced() throws {
    let secret = Self.plant()
    let lower = secret.utf16.map { String(format: "\\u%04x", $0) }.joined()
    let upper = secret.utf16.map { String(format: "\\u%04X", $0) }.joined()
    let entry = HAR.Entry.sample(
      method: "POST",
      postData: HAR.PostData(mimeType: "application/json", text: #"{"password":"\#(secret)"}"#),
      content: HAR.Content(
        body: Data("<html><p>welcome, your pw was \(lower) or \(upper)</p></html>".utf8),
        mimeType: "text/html"))
    let redacted = Redaction.default.redact(HAR(entries: [entry]))
    let body = try #require(redacted.log.entries[0].response.content.text)
    #expect(!body.contains(lower) && !body.contains(upper), "\(body)")
    #expect(body.contains("<redacted:password>"), "\(body)")
  }

  /// A password holding `&`, `<`, `>` or quotes, echoed in XML or HTML text escaped as markup
  /// writes it (`&amp;`, `&lt;`, `&quot;`, `&#39;`, `&apos;`).
  @Test(arguments: ["Kq7v&<Xm2R>zT9w", #"Lp4B"Ns6'Yc3Hd8"#])
  func aPasswordEchoedEscapedAsMarkupIsReplaced(secret: String) throws {
    let form =
      "user=ada&password=" + secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    for escaped in ValueSpellings.markupEscapes(of: secret) {
      let entry = HAR.Entry.sample(
        method: "POST",
        postData: HAR.PostData(mimeType: "application/x-www-form-urlencoded", text: form),
        content: HAR.Content(
          body: Data("<r><echo>\(escaped)</echo></r>".utf8), mimeType: "application/xml"))
      let redacted = Redaction.default.redact(HAR(entries: [entry]))
      let body = try #require(redacted.log.entries[0].response.content.text)
      #expect(!body.contains(escaped), "\(body)")
      #expect(body.contains("redacted:password"), "\(body)")
    }
  }

  // MARK: - Base64 and hex

  @Test func base64AndHexEchoesAreReplaced() throws {
    let secret = Self.plant()
    let data = Data(secret.utf8)
    let base64 = data.base64EncodedString()
    let urlSafe = base64.replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    let hex = data.map { String(format: "%02x", $0) }.joined()
    var entry = Self.entry(
      secret: secret,
      content: HAR.Content(
        body: Data(#"{"blob":"\#(base64)","digest":"\#(hex.uppercased())"}"#.utf8),
        mimeType: "application/json"))
    entry.response.headers = [
      HAR.Header(name: "X-Echo-B64", value: base64),
      HAR.Header(name: "X-Echo-Hex", value: "0x\(hex)"),
      HAR.Header(name: "Location", value: "https://api.example.com/next?state=\(urlSafe)"),
    ]
    entry.response.redirectURL = "https://api.example.com/next?state=\(urlSafe)"
    let text = HAR.Entry.sample(
      content: HAR.Content(
        body: Data("seen \(hex) and \(urlSafe)".utf8), mimeType: "text/plain"))
    let har = HAR(entries: [entry, text])
    #expect(try Self.leaks(of: secret, in: har) != [])

    let redacted = Redaction.default.redact(har)
    #expect(try Self.leaks(of: secret, in: redacted) == [])
    let first = redacted.log.entries[0]
    #expect(first.response.headers[0].value == "<redacted:x-api-key>")
    #expect(URL(string: first.response.redirectURL) != nil)
    #expect(URL(string: first.response.headers[2].value) != nil)
    #expect(
      redacted.log.entries[1].response.content.text
        == "seen <redacted:x-api-key> and <redacted:x-api-key>")
    #expect(Redaction.default.redact(redacted) == redacted)
  }

  @Test func echoesInOtherCasesEscapedWholeOrInsideLongerBase64AreReplaced() throws {
    let secret = Self.plant()
    let data = Data(secret.utf8)
    let escapedWhole = data.map { String(format: "%%%02X", $0) }.joined()
    // The secret starting at each of the three places a byte can start in a base64 group, in
    // the middle of a longer blob, as a token inside a signed or wrapped payload would be.
    let blobs = ["", "x", "xy"].map { lead in
      (Data(lead.utf8) + data + Data("-and-more".utf8)).base64EncodedString()
    }
    let urlSafeBlob = blobs[1].replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_")
    let body =
      [
        "upper=\(secret.uppercased())", "lower=\(secret.lowercased())",
        "escaped=\(escapedWhole)", "escaped-lower=\(escapedWhole.lowercased())",
      ] + blobs.map { "blob=\($0)" } + ["url-safe=\(urlSafeBlob)"]
    let entry = Self.entry(
      secret: secret,
      content: HAR.Content(body: Data(body.joined(separator: "\n").utf8), mimeType: "text/plain"))
    let har = HAR(entries: [entry])
    #expect(try Self.leaks(of: secret, in: har) != [])

    let redacted = Redaction.default.redact(har)
    #expect(try Self.leaks(of: secret, in: redacted) == [])
    let text = try #require(redacted.log.entries[0].response.content.text)
    for blob in blobs + [urlSafeBlob] {
      #expect(!text.contains(blob), "\(blob)")
    }
    let lines = text.split(separator: "\n")
    #expect(lines.count == body.count)
    // Escaped forms get an escaped placeholder, so a URL holding one still parses.
    #expect(
      lines.allSatisfy {
        $0.contains("<redacted:x-api-key>") || $0.contains("%3Credacted:x-api-key%3E")
      }, "\(lines)")
    // What is left of a blob holds at most a few bits of the secret's first and last bytes.
    for line in lines where line.hasPrefix("blob=") || line.hasPrefix("url-safe=") {
      let kept = line.split(separator: "=", maxSplits: 1)[1]
        .replacingOccurrences(of: "<redacted:x-api-key>", with: "")
      #expect(kept.count <= 20, "\(line)")
    }
    #expect(Redaction.default.redact(redacted) == redacted)
  }

  @Test func theEncodedFormsOfAShortValueAreNotSearchedFor() throws {
    // Below the minimum length, a value is not searched for in any form.
    let short = "k3Y9q"
    let encoded = [
      Data(short.utf8).base64EncodedString(),
      Data(short.utf8).map { String(format: "%02x", $0) }.joined(),
    ]
    let entry = HAR.Entry.sample(
      requestHeaders: [HAR.Header(name: "X-Api-Key", value: short)],
      content: HAR.Content(body: Data(encoded.joined(separator: " ").utf8), mimeType: "text/plain"))
    let redacted = Redaction.default.redact(entry)
    #expect(redacted.response.content.text == encoded.joined(separator: " "))
  }

  // MARK: - Every other string

  @Test func echoesInFieldsNoRuleReadsAreReplaced() throws {
    let secret = Self.plant()
    let har = try HAR.decode(Data(Self.everyField(secret).utf8), source: "every-field.har")
    #expect(try Self.leaks(of: secret, in: har) != [])

    let redacted = Redaction.default.redact(har)
    #expect(try Self.leaks(of: secret, in: redacted) == [])
    let entry = redacted.log.entries[0]
    #expect(entry.pageref == redacted.log.pages[0].id)
    #expect(entry.request.headers.first { $0.name == "X-Api-Key" }?.value == "<redacted:x-api-key>")
    #expect(URL(string: entry.request.url) != nil)
    #expect(entry.response.content.text == #"{"ok":true}"#)
    #expect(Redaction.default.redact(redacted) == redacted)
  }

  /// A cassette with `secret` sent as an API key and repeated in every string of the HAR
  /// format that no rule reads.
  static func everyField(_ secret: String) -> String {
    let s = secret
    let cookie =
      #"{"name":"c-\#(s)","value":"v","path":"/\#(s)","domain":"\#(s).example.com","#
      + #""expires":"\#(s)","comment":"\#(s)"}"#
    let cache =
      #"{"expires":"\#(s)","lastAccess":"\#(s)","eTag":"\#(s)","hitCount":1,"comment":"\#(s)"}"#
    return """
      {"log":{"version":"1.2","creator":{"name":"test","version":"1"},"comment":"\(s)",
      "pages":[{"startedDateTime":"2026-01-01T00:00:00.000Z","id":"page-\(s)","title":"\(s)",
      "pageTimings":{"onLoad":1,"comment":"\(s)"},"comment":"\(s)"}],
      "entries":[{"pageref":"page-\(s)","startedDateTime":"2026-01-01T00:00:00.000Z","time":1,
      "request":{"method":"POST","url":"https://api.example.com/form","httpVersion":"HTTP/1.1 \(s)",
      "cookies":[\(cookie)],
      "headers":[{"name":"X-Api-Key","value":"\(s)"},{"name":"X-\(s)","value":"1","comment":"\(s)"}],
      "queryString":[{"name":"q\(s)","value":"1","comment":"\(s)"}],
      "postData":{"mimeType":"multipart/form-data; boundary=\(s)","text":"","comment":"\(s)",
      "params":[{"name":"file","fileName":"\(s).bin","contentType":"application/x-\(s)",
      "comment":"\(s)"}]},
      "headersSize":-1,"bodySize":-1,"comment":"\(s)"},
      "response":{"status":200,"statusText":"OK","httpVersion":"HTTP/1.1 \(s)","cookies":[\(cookie)],
      "headers":[{"name":"X-Echo","value":"1","comment":"\(s)"}],
      "content":{"size":11,"mimeType":"application/json; profile=\(s)","text":"{\\"ok\\":true}",
      "comment":"\(s)"},
      "redirectURL":"","headersSize":-1,"bodySize":-1,"comment":"\(s)"},
      "cache":{"beforeRequest":\(cache),"afterRequest":\(cache),"comment":"\(s)"},
      "timings":{"send":0,"wait":1,"receive":0,"comment":"\(s)"},
      "serverIPAddress":"\(s)","connection":"\(s)","comment":"\(s)"}]}}
      """
  }
}
