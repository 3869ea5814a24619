import Foundation
import Understudy

/// Bodies kept compressed in a HAR file (`Content-Encoding: gzip`, `deflate` or `br` with the
/// compressed bytes in base64), which nothing here can read: a secret inside them survives
/// `redact` and `convert` and escapes `scan`. Foundation on Linux offers no zlib, so they are
/// reported rather than decompressed.
enum CompressedBodies {
  /// A body that cannot be read.
  struct Body {
    /// Its JSON path in the file: `log.entries[2].response.content.text`.
    var path: String
    /// The `Content-Encoding` it is compressed with, lowercased.
    var encoding: String

    /// Why it matters and the fix, as `scan` reports it and `redact` and `convert` refuse it.
    var problem: String {
      "the body is \(encoding)-compressed, so it cannot be scanned or redacted; decompress it "
        + "(or re-export without compression) first"
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

  /// The message `redact` and `convert` stop with, refusing to write `output`.
  static func refusal(_ bodies: [Body], in input: String, output: String) -> CLIError {
    CLIError(
      exitCode: .findings,
      message: "Refusing to write \(output): \(input) holds "
        + "\(bodies.count == 1 ? "a compressed body" : "\(bodies.count) compressed bodies") "
        + "that may hide a credential:\n"
        + bodies.map { "  \(input): \($0.path): \($0.problem)." }.joined(separator: "\n"))
  }

  /// The coding a body's bytes are still in: the header names one, and the bytes carry its
  /// signature (gzip's, zlib's) or, for a text type, are not text. Exporters that decoded the
  /// body and kept the header (Chrome does) are left alone.
  private static func compression(of body: Data?, declared headers: [HAR.Header], mimeType: String)
    -> String?
  {
    guard let body, !body.isEmpty else { return nil }
    let codings = headers.filter { $0.name.lowercased() == "content-encoding" }
      .flatMap { $0.value.lowercased().split(separator: ",") }
      .map { $0.trimmingCharacters(in: .whitespaces) }
    guard let coding = codings.last(where: { ["gzip", "x-gzip", "deflate", "br"].contains($0) })
    else { return nil }
    let bytes = [UInt8](body.prefix(2))
    let gzip = bytes == [0x1F, 0x8B]
    let zlib =
      bytes.count == 2 && bytes[0] & 0x0F == 8 && (Int(bytes[0]) * 256 + Int(bytes[1])) % 31 == 0
    if gzip || zlib { return coding }
    return isText(mimeType) && String(data: body, encoding: .utf8) == nil ? coding : nil
  }

  private static func isText(_ mimeType: String) -> Bool {
    let type = mimeType.lowercased()
    return type.hasPrefix("text/") || type.contains("json") || type.contains("xml")
      || type.contains("javascript") || type.contains("x-www-form-urlencoded")
  }
}
