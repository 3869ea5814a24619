import Foundation
import Testing

/// A body still compressed in a HAR file is read by nothing, so no command prints it, writes
/// it or calls the file clean: every coding in any spelling and any number of layers, `gzip`,
/// `x-gzip`, `GZIP`, `deflate`, `gzip, gzip`, a coding with no signature such as `br`, and gzip
/// or zlib known by its signature with no header at all. So is a body in a charset Understudy
/// does not read (attack 2026-12-07, P170 and P175 to P179).
@Suite(.serialized) struct CompressedBodyCLITests {
  static let secret = "compressedSecret_8Jd3Kx7Qw2"
  static let plain = Data("{\"access_token\":\"\(secret)\"}".utf8)

  /// `data` in one deflate block stored as it is: the format's bytes around readable text.
  static func stored(_ data: Data) -> Data {
    let count = UInt16(data.count)
    return Data([
      0x01, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8(~count >> 8),
    ])
      + data
  }

  static func gzip(_ data: Data) -> Data {
    Data([0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0xFF]) + stored(data) + Data(count: 8)
  }

  static func zlib(_ data: Data) -> Data { Data([0x78, 0x01]) + stored(data) + Data(count: 4) }

  /// Each spelling of `Content-Encoding` with a body compressed so.
  static let codings: [(header: String, body: Data)] = [
    ("gzip", gzip(plain)), ("x-gzip", gzip(plain)), ("GZIP", gzip(plain)),
    (" Gzip , gzip", gzip(gzip(plain))), ("gzip, gzip", gzip(gzip(plain))),
    ("deflate", zlib(plain)), ("br", Data([0x8B, 0x05, 0x80]) + plain + Data([0x03])),
  ]

  /// Bodies read by nothing without a `Content-Encoding` header: compressed ones known by their
  /// signature, whatever the type, and text in a charset Understudy does not read (a name it
  /// does not know, or bytes not in the one named). Each as (type, body).
  static let unnamed: [(mimeType: String, body: Data)] = [
    ("application/octet-stream", gzip(plain)), ("application/json", gzip(plain)),
    ("application/json", Data([0x78, 0xDA]) + stored(plain) + Data(count: 4)),
    ("application/json; charset=x-unknown-7", Data([0x97, 0x81]) + plain),
    ("application/json; charset=ucs-4", plain.map { Data([$0, 0, 0, 0]) }.reduce(Data(), +)),
    ("text/plain; charset=Shift_JIS", Data([0x83, 0xFF, 0x20]) + plain),
  ]

  static func export(header: String?, body: Data, mimeType: String = "application/json") -> String {
    let coding = header.map { #"{"name": "Content-Encoding", "value": "\#($0)"},"# } ?? ""
    let (text, encoding) =
      String(data: body, encoding: .utf8).map { text in
        (String(data: try! JSONEncoder().encode(text), encoding: .utf8)!, "")
      } ?? ("\"\(body.base64EncodedString())\"", #""encoding": "base64","#)
    return """
      {"log": {"version": "1.2", "creator": {"name": "Exporter", "version": "1"},
        "entries": [{"startedDateTime": "2024-01-01T00:00:00.000Z", "time": 1,
          "request": {"method": "GET", "url": "https://api.example.com/me", "httpVersion": "HTTP/1.1",
            "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
          "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
            "headers": [\(coding)
              {"name": "Content-Type", "value": "\(mimeType)"}],
            "cookies": [],
            "content": {"size": \(plain.count), "mimeType": "\(mimeType)",
              \(encoding) "text": \(text)},
            "redirectURL": "", "headersSize": -1, "bodySize": \(body.count)},
          "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}]}}
      """
  }

  @Test(arguments: ["scan", "stub", "inspect", "redact", "convert"])
  func noCommandPrintsOrWritesACompressedBody(command: String) async throws {
    let cases =
      Self.codings.map {
        (header: Optional($0.header), body: $0.body, mimeType: "application/json")
      }
      + Self.unnamed.map { (header: nil, body: $0.body, mimeType: $0.mimeType) }
    for (header, body, mimeType) in cases {
      try await withTemporaryDirectory { directory in
        let input = directory.appendingPathComponent("export.har")
        try Data(Self.export(header: header, body: body, mimeType: mimeType).utf8).write(to: input)
        let output = directory.appendingPathComponent("out.har").path
        var arguments = [command, input.path]
        if ["redact", "convert"].contains(command) { arguments += ["-o", output] }
        let result = try await understudy(arguments)
        let context = "\(command) with Content-Encoding: \(header ?? "none"), \(mimeType)"
        #expect(result.status == (command == "inspect" ? 0 : 1), "\(context): \(result.output)")
        if command != "inspect" {
          #expect(
            result.output.contains("log.entries[0].response.content.text"),
            "\(context) names no entry: \(result.output)")
        }
        #expect(!FileManager.default.fileExists(atPath: output), "\(context) wrote \(output)")
        for text in [result.stdout, result.stderr] {
          let read = text.replacingOccurrences(of: "\0", with: "")
          #expect(!read.contains(Self.secret), "\(context) printed the secret")
          #expect(
            !text.contains(body.base64EncodedString().prefix(16)), "\(context) printed the body")
          #expect(!text.contains("base64Encoded"), "\(context) printed a body: \(text)")
        }
      }
    }
  }
}
