import Foundation
import Testing
import Understudy

/// What a blind attack (2026-12-07) got past the commands: bodies in UTF-32, EBCDIC, Shift_JIS
/// and GB2312 read as ISO-8859-1, so their credential names were not seen (P175 to P179), and a
/// crafted method printed as it was by `stub` (P218).
@Suite struct ForeignBodyCLITests {
  static let secret = "foreignQ7xK2mV9pLw3Rz"

  static func named(_ number: UInt) -> String.Encoding {
    String.Encoding(rawValue: 0x8000_0000 | number)
  }

  /// A credential in charsets other than UTF-8 and Latin-1, named in its own script.
  static let bodies: [(mimeType: String, encoding: String.Encoding, text: String)] = [
    (
      "application/json; charset=utf-32", .utf32LittleEndian, "\u{FEFF}{\"password\":\"\(secret)\"}"
    ),
    ("text/plain; charset=IBM037", named(0x0C02), "password=\(secret)"),
    ("text/plain; charset=Shift_JIS", .shiftJIS, "パスワード: \(secret)\n"),
    ("text/plain; charset=gb2312", named(0x0930), "密码: \(secret)\n"),
    ("text/plain; charset=koi8-r", named(0x0A02), "пароль: \(secret)\n"),
  ]

  @Test func redactStubAndScanReadABodyInItsCharset() async throws {
    for (mimeType, encoding, text) in Self.bodies {
      try await withTemporaryDirectory { directory in
        let body = try #require(text.data(using: encoding))
        let input = try HAR(entries: [
          HAR.Entry(
            startedDateTime: Date(timeIntervalSince1970: 1_700_000_000), time: 1,
            request: HAR.Request(method: "GET", url: "https://api.example.com/me"),
            response: HAR.Response(
              status: 200, headers: [HAR.Header(name: "Content-Type", value: mimeType)],
              content: HAR.Content(body: body, mimeType: mimeType)))
        ]).saved(as: "export.har", in: directory)
        let scan = try await understudy("scan", input)
        #expect(scan.status == 1, "\(mimeType): \(scan.output)")
        #expect(scan.stdout.contains("log.entries[0].response.content.text"), "\(mimeType)")

        let output = directory.appendingPathComponent("redacted.har").path
        let redact = try await understudy("redact", input, "-o", output)
        #expect(redact.status == 0, "\(mimeType): \(redact.output)")
        let redacted = try HAR.load(contentsOf: URL(fileURLWithPath: output))
        let written = try #require(redacted.log.entries.first?.response.content.body)
        let read = try #require(String(data: written, encoding: encoding))
        #expect(!read.contains(Self.secret) && read.contains("redacted:"), "\(mimeType): \(read)")
        #expect(try await understudy("scan", output).status == 0, "\(mimeType)")

        let stub = try await understudy("stub", input)
        #expect(stub.status == 0, "\(mimeType): \(stub.output)")
        #expect(!stub.stdout.contains(body.base64EncodedString()), "\(mimeType)")
      }
    }
  }

  /// A method that is no method's name is shown by its length wherever a command prints one,
  /// and `stub` writes no stub for it.
  @Test func noCommandPrintsACraftedMethod() async throws {
    for method in ["GET \(Self.secret)", Self.secret, "POST\n\(Self.secret)", "get_\(Self.secret)"]
    {
      try await withTemporaryDirectory { directory in
        let input = try HAR(entries: [
          HAR.Entry(
            startedDateTime: Date(timeIntervalSince1970: 1_700_000_000), time: 1,
            request: HAR.Request(method: method, url: "https://api.example.com/x"),
            response: HAR.Response(
              status: 200, content: HAR.Content(body: Data("ok".utf8), mimeType: "text/plain")))
        ]).saved(as: "crafted.har", in: directory)
        for command in ["stub", "inspect", "validate", "scan"] {
          let result = try await understudy(command, input)
          for text in [result.stdout, result.stderr] {
            #expect(!text.contains(Self.secret.prefix(10)), "\(command) \(method): \(text)")
            #expect(
              !text.uppercased().contains(Self.secret.prefix(10).uppercased()),
              "\(command) \(method): \(text)")
          }
          if command == "stub" {
            #expect(result.stderr.contains("skipped entry 0: its method ••••("), "\(result.stderr)")
            #expect(!result.stdout.contains("registry.stub("), "\(result.stdout)")
          }
        }
      }
    }
  }
}
