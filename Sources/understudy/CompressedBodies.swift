import Foundation
import Understudy

/// Bodies kept compressed in a HAR file (`Content-Encoding: gzip`, `x-gzip`, `deflate`, `br`,
/// `zstd`, in any case and any number of layers, with the compressed bytes in base64), which
/// nothing here can read: a secret inside them would survive `redact` and `convert`, escape
/// `scan` and be printed by `stub`. Foundation on Linux offers no zlib, so every command refuses
/// them, naming the entry, rather than decompressing them.
enum CompressedBodies {
  /// A body that cannot be read.
  struct Body {
    /// Its JSON path in the file: `log.entries[2].response.content.text`.
    var path: String
    /// The codings it is compressed with, lowercased, in the order they were applied.
    var encoding: String

    /// Why it matters and the fix, as `scan` reports it and the other commands refuse it.
    var problem: String {
      "the body is compressed (Content-Encoding: \(encoding)), so it cannot be scanned or "
        + "redacted; decompress it (or re-export without compression) first"
    }
  }

  /// The compressed bodies in `entries`, numbered by `indexes` (the entries' positions in the
  /// file they came from) when given.
  static func find(in entries: [HAR.Entry], indexes: [Int]? = nil) -> [Body] {
    var found: [Body] = []
    for (position, entry) in entries.enumerated() {
      let index = indexes?[position] ?? position
      if let postData = entry.request.postData, postData.encoding != nil,
        let encoding = compression(
          of: postData.body, declared: entry.request.headers,
          mimeType: postData.mimeType)
      {
        found.append(Body(path: "log.entries[\(index)].request.postData.text", encoding: encoding))
      }
      let content = entry.response.content
      if content.encoding != nil,
        let encoding = compression(
          of: content.body, declared: entry.response.headers,
          mimeType: content.mimeType)
      {
        found.append(Body(path: "log.entries[\(index)].response.content.text", encoding: encoding))
      }
    }
    return found
  }

  /// The message `redact`, `convert` and `stub` stop with, refusing to write `output`.
  static func refusal(_ bodies: [Body], in input: String, output: String) -> CLIError {
    CLIError(
      exitCode: .findings,
      message: "Refusing to write \(output): \(input) holds "
        + "\(bodies.count == 1 ? "a compressed body" : "\(bodies.count) compressed bodies") "
        + "that may hide a credential:\n"
        + bodies.map { "  \(input): \($0.path): \($0.problem)." }.joined(separator: "\n"))
  }

  /// The codings a body's bytes are still in: the headers name a coding (every
  /// `Content-Encoding` header, every coding of its list), and the bytes carry a compressed
  /// format's signature (gzip's, zlib's, zstd's) or are not UTF-8 while a coding with no
  /// signature (`br`) or no known one is named. Exporters that decoded the body and kept the
  /// header (Chrome does) are left alone.
  private static func compression(of body: Data?, declared headers: [HAR.Header], mimeType: String)
    -> String?
  {
    guard let body, !body.isEmpty else { return nil }
    let codings = headers.filter { $0.name.lowercased() == "content-encoding" }
      .flatMap { $0.value.lowercased().split(separator: ",") }
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty && $0 != "identity" }
    guard !codings.isEmpty else { return nil }
    let named = codings.joined(separator: ", ")
    let bytes = [UInt8](body.prefix(4))
    let gzip = bytes.starts(with: [0x1F, 0x8B])
    let zlib =
      bytes.count >= 2 && bytes[0] & 0x0F == 8 && (Int(bytes[0]) * 256 + Int(bytes[1])) % 31 == 0
    let zstd = bytes == [0x28, 0xB5, 0x2F, 0xFD]
    if gzip || zlib || zstd { return named }
    let unsigned = codings.contains { !["gzip", "x-gzip", "deflate"].contains($0) }
    let readsAsText = String(data: body, encoding: .utf8) != nil
    return !readsAsText && (unsigned || isText(mimeType)) ? named : nil
  }

  private static func isText(_ mimeType: String) -> Bool {
    let type = mimeType.lowercased()
    return type.hasPrefix("text/") || type.contains("json") || type.contains("xml")
      || type.contains("javascript") || type.contains("x-www-form-urlencoded")
  }
}
