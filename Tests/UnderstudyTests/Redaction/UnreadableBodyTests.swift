import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Bodies redaction could only read wrongly: compressed ones, and text in a charset other than
/// UTF-8 and Latin-1. A blind attack (2026-12-07, P170, P175 to P180, P214) found a gzip request
/// body recorded as it was, bodies in UTF-32, EBCDIC, Shift_JIS and GB2312 read as ISO-8859-1
/// (so their credential names were not seen), and a UTF-16BE request body printed by the
/// near-miss report: every charset Foundation reads on both platforms is read, and a body none
/// can read is never written.
@Suite struct UnreadableBodyTests {
  static let secret = "unreadQ7xK2mV9pLw3Rz"

  /// `data` in one deflate block stored as it is: the format's bytes around readable text.
  static func stored(_ data: Data) -> Data {
    let count = UInt16(data.count)
    return Data([
      0x01, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8(~count >> 8),
    ]) + data
  }

  static func gzip(_ data: Data) -> Data {
    Data([0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0xFF]) + stored(data) + Data(count: 8)
  }

  /// zlib with the best compression's header, whose second byte is no UTF-8.
  static func zlib(_ data: Data) -> Data { Data([0x78, 0xDA]) + stored(data) + Data(count: 4) }

  static let json = Data(#"{"password":"\#(secret)"}"#.utf8)

  /// Compressed bodies, with the headers and type they travel with: named by
  /// `Content-Encoding` in any spelling, or by their signature alone, whatever the type.
  static let compressed: [(label: String, headers: [HAR.Header], body: Data, mimeType: String)] = [
    ("gzip", [HAR.Header(name: "Content-Encoding", value: "gzip")], gzip(json), "application/json"),
    ("x-gzip", [HAR.Header(name: "content-encoding", value: "X-GZIP")], gzip(json), "text/plain"),
    ("deflate", [HAR.Header(name: "Content-Encoding", value: "deflate")], zlib(json), "text/plain"),
    ("gzip by signature", [], gzip(json), "application/octet-stream"),
    ("gzip by signature, JSON", [], gzip(json), "application/json"),
    ("zlib by signature", [], zlib(json), "application/json"),
  ]

  /// A credential in bodies of charsets other than UTF-8 and Latin-1, each named in its own
  /// script where it has one.
  static let foreign: [(mimeType: String, encoding: String.Encoding, text: String)] = {
    func named(_ number: UInt) -> String.Encoding {
      String.Encoding(rawValue: 0x8000_0000 | number)
    }
    return [
      (
        "application/json; charset=utf-32", .utf32LittleEndian,
        "\u{FEFF}" + #"{"password":"\#(secret)"}"#
      ),
      ("application/json; charset=UTF-32BE", .utf32BigEndian, #"{"password":"\#(secret)"}"#),
      ("text/plain; charset=IBM037", named(0x0C02), "password=\(secret)"),
      ("text/plain; charset=Shift_JIS", .shiftJIS, "パスワード: \(secret)\n"),
      ("text/plain; charset=gb2312", named(0x0930), "密码: \(secret)\n"),
      ("text/plain; charset=GB18030", named(0x0632), "密码: \(secret)\n"),
      ("text/plain; charset=euc-kr", named(0x0940), "비밀번호: \(secret)\n"),
      ("text/plain; charset=koi8-r", named(0x0A02), "пароль: \(secret)\n"),
      ("text/plain; charset=windows-1251", .windowsCP1251, "пароль: \(secret)\n"),
      ("text/plain; charset=iso-2022-jp", .iso2022JP, "パスワード: \(secret)\n"),
      (
        "application/x-www-form-urlencoded; charset=utf-16be", .utf16BigEndian,
        "user=ada&password=\(secret)"
      ),
    ]
  }()

  /// Every charset ``BodyCharset`` names is read, and written back the same, on this platform.
  @Test func everyNamedCharsetIsRead() throws {
    for (name, encoding) in BodyCharset.names.sorted(by: { $0.key < $1.key }) {
      let body = try #require("password=x&user=ada".data(using: encoding), "\(name)")
      // Latin-1's family is read as UTF-8 when it is UTF-8, as its ASCII is.
      let read = BodyCharset.read(body, mimeType: "text/plain; charset=\(name)")
      #expect(
        read == .text("password=x&user=ada", encoding)
          || read == .text("password=x&user=ada", .utf8)
            && body == Data("password=x&user=ada".utf8),
        "\(name)")
    }
  }

  @Test func bodiesInOtherCharsetsAreReadAndRedacted() throws {
    for (mimeType, encoding, text) in Self.foreign {
      let body = try #require(text.data(using: encoding), "\(mimeType)")
      let har = HAR(entries: [
        .sample(
          method: "POST", postData: HAR.PostData(body: body, mimeType: mimeType),
          content: HAR.Content(body: body, mimeType: mimeType))
      ])
      #expect(CredentialScanner().scan(har).count == 2, "\(mimeType)")
      let redacted = Redaction.default.redact(har)
      let entry = redacted.log.entries[0]
      for written in [entry.request.postData?.body, entry.response.content.body] {
        let bytes = try #require(written, "\(mimeType)")
        let read = try #require(String(data: bytes, encoding: encoding), "\(mimeType)")
        #expect(!read.contains(Self.secret) && read.contains("redacted:"), "\(mimeType): \(read)")
      }
      #expect(CredentialScanner().scan(redacted: redacted) == [], "\(mimeType)")
    }
  }

  /// A charset nothing reads: a name Understudy does not know, or bytes not in the one named.
  static let unknown: [(mimeType: String, body: Data)] = [
    (
      "text/plain; charset=x-unknown-7",
      Data([0x97, 0x81, 0xA2, 0xA2]) + Data("password=\(secret)".utf8)
    ),
    (
      "application/json; charset=ucs-4",
      #"{"password":"\#(secret)"}"#.data(using: .utf32LittleEndian)!
    ),
    ("text/plain; charset=shift_jis", Data([0x83, 0xFF, 0x20]) + Data("password=\(secret)".utf8)),
  ]

  @Test func theScannerReportsEveryBodyItCannotRead() throws {
    var bodies = Self.compressed.map { ($0.label, $0.headers, $0.body, $0.mimeType) }
    bodies += Self.unknown.map { ($0.mimeType, [], $0.body, $0.mimeType) }
    for (label, headers, body, mimeType) in bodies {
      for onRequest in [true, false] {
        let entry: HAR.Entry =
          onRequest
          ? .sample(
            method: "POST", requestHeaders: headers,
            postData: HAR.PostData(body: body, mimeType: mimeType))
          : .sample(responseHeaders: headers, content: HAR.Content(body: body, mimeType: mimeType))
        let har = HAR(entries: [.sample(), entry])
        let path =
          "log.entries[1]." + (onRequest ? "request.postData.text" : "response.content.text")
        for findings in [CredentialScanner().scan(har), CredentialScanner().scan(redacted: har)] {
          let unreadable = findings.filter { $0.kind == .unreadableBody }
          #expect(unreadable.map(\.path) == [path], "\(label): \(findings)")
          #expect(
            unreadable.first?.description.contains("cannot be scanned or redacted") == true,
            "\(label)")
        }
      }
    }
  }

  /// Recording a compressed request body, or one in a charset not read, writes no cassette; the
  /// failure names the entry and the fix.
  @Test func aRecordingHoldingABodyNoRuleCanReadIsNotWritten() async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    let bodies: [(label: String, headers: [String: String], body: Data)] =
      [
        (
          "gzip", ["Content-Encoding": "gzip", "Content-Type": "application/json"],
          Self.gzip(Self.json)
        ),
        (
          "deflate", ["Content-Encoding": "deflate", "Content-Type": "application/json"],
          Self.zlib(Self.json)
        ),
        ("gzip unnamed", ["Content-Type": "application/octet-stream"], Self.gzip(Self.json)),
      ] + Self.unknown.map { ($0.mimeType, ["Content-Type": $0.mimeType], $0.body) }
    for (label, headers, body) in bodies {
      let file = RecordReplayTests.temporaryCassette()
      defer { try? FileManager.default.removeItem(at: file) }
      var post = URLRequest(url: server.url("/reply?type=text/plain"))
      post.httpMethod = "POST"
      for (name, value) in headers { post.setValue(value, forHTTPHeaderField: name) }
      post.httpBody = body
      let registry = StubRegistry()
      let recorder = Cassette(at: file, mode: .missing)
      registry.use(recorder)
      _ = try await registry.makeSession().data(for: post)
      let failures = recorder.finish().map(\.message)
      #expect(!FileManager.default.fileExists(atPath: file.path), "\(label) was written")
      #expect(failures.count == 1, "\(label): \(failures)")
      let message = failures.first ?? ""
      #expect(
        message.contains("log.entries[0].request.postData.text: unreadable body"),
        "\(label): \(message)")
      #expect(message.contains("beforeRecord hook"), "\(label): \(message)")
      #expect(!message.contains(Self.secret), "\(label)")
      // The traffic attachment leaves the body out and says why.
      let attachment = String(
        decoding: try #require(
          TrafficAttachmentWriter.attachmentBytes(of: registry, testName: "t")),
        as: UTF8.self)
      // The response echoes the request's body: a compressed one is left out too.
      #expect(
        !headers.keys.contains("Content-Encoding") && !label.hasPrefix("gzip")
          || !attachment.contains(body.base64EncodedString().prefix(12)),
        "\(label): \(attachment)")
      #expect(!attachment.contains(Self.secret), "\(label)")
      #expect(attachment.contains("body not shown: the body "), "\(label): \(attachment)")
    }
  }

  /// The near-miss report reads a request body in its charset, as the cassette's redaction does,
  /// and shows none it cannot read.
  @Test func aNearMissReportReadsABodyAsTheCassetteDoes() throws {
    var bodies = Self.foreign.map {
      (
        label: $0.mimeType, headers: ["Content-Type": $0.mimeType],
        body: $0.text.data(using: $0.encoding)!
      )
    }
    bodies += [
      (
        "UTF-16BE JSON", ["Content-Type": "application/json; charset=utf-16be"],
        #"{"password":"\#(Self.secret)"}"#.data(using: .utf16BigEndian)!
      ),
      (
        "UTF-16LE JSON", ["Content-Type": "application/json; charset=UTF-16LE"],
        #"{"password":"\#(Self.secret)"}"#.data(using: .utf16LittleEndian)!
      ),
      (
        "gzip", ["Content-Type": "application/json", "Content-Encoding": "gzip"],
        Self.gzip(Self.json)
      ),
    ]
    bodies += Self.unknown.map { ($0.mimeType, ["Content-Type": $0.mimeType], $0.body) }
    let registry = StubRegistry()
    registry.stub(.get("https://api.test/other"), .ok)
    for (label, headers, body) in bodies {
      var request = URLRequest(url: URL(string: "https://api.test/login")!)
      request.httpMethod = "POST"
      for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
      request.httpBody = body
      let report = NearMissReport(request: InterceptedRequest(request), stubs: registry.stubs)
        .description
      let read = report.replacingOccurrences(of: "\0", with: "")
      #expect(!read.contains(Self.secret), "\(label): \(report)")
      #expect(!read.contains(Self.secret.prefix(8)), "\(label): \(report)")
      #expect(!report.contains(body.base64EncodedString().prefix(12)), "\(label)")
    }
  }
}
