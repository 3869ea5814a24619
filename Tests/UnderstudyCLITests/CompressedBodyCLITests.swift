import Foundation
import Testing

/// A body still compressed in a HAR file is read by nothing, so no command prints it, writes
/// it or calls the file clean: every coding in any spelling and any number of layers, `gzip`,
/// `x-gzip`, `GZIP`, `deflate`, `gzip, gzip`, and a coding with no signature such as `br`.
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

  static func export(header: String, body: Data) -> String {
    """
    {"log": {"version": "1.2", "creator": {"name": "Exporter", "version": "1"},
      "entries": [{"startedDateTime": "2024-01-01T00:00:00.000Z", "time": 1,
        "request": {"method": "GET", "url": "https://api.example.com/me", "httpVersion": "HTTP/1.1",
          "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
        "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
          "headers": [{"name": "Content-Encoding", "value": "\(header)"},
            {"name": "Content-Type", "value": "application/json"}],
          "cookies": [],
          "content": {"size": \(plain.count), "mimeType": "application/json",
            "encoding": "base64", "text": "\(body.base64EncodedString())"},
          "redirectURL": "", "headersSize": -1, "bodySize": \(body.count)},
        "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}]}}
    """
  }

  @Test(arguments: ["scan", "stub", "inspect", "redact", "convert"])
  func noCommandPrintsOrWritesACompressedBody(command: String) async throws {
    for (header, body) in Self.codings {
      try await withTemporaryDirectory { directory in
        let input = directory.appendingPathComponent("export.har")
        try Data(Self.export(header: header, body: body).utf8).write(to: input)
        let output = directory.appendingPathComponent("out.har").path
        var arguments = [command, input.path]
        if ["redact", "convert"].contains(command) { arguments += ["-o", output] }
        let result = try await understudy(arguments)
        let context = "\(command) with Content-Encoding: \(header)"
        #expect(result.status == (command == "inspect" ? 0 : 1), "\(context): \(result.output)")
        if command != "inspect" {
          #expect(
            result.output.contains("log.entries[0].response.content.text"),
            "\(context) names no entry: \(result.output)")
        }
        #expect(!FileManager.default.fileExists(atPath: output), "\(context) wrote \(output)")
        for text in [result.stdout, result.stderr] {
          #expect(!text.contains(Self.secret), "\(context) printed the secret")
          #expect(
            !text.contains(body.base64EncodedString().prefix(16)), "\(context) printed the body")
          #expect(!text.contains("base64Encoded"), "\(context) printed a body: \(text)")
        }
      }
    }
  }
}
