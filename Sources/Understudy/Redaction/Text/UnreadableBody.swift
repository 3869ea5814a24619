import Foundation

/// A body no rule can read, so a secret inside it would be written as it is: one still
/// compressed, or text in a charset ``BodyCharset`` cannot read.
///
/// One judgement serves every writer: a cassette is not written with one
/// (``CredentialScanner`` reports it), `understudy scan` reports it, and `redact`, `convert` and
/// `stub` refuse the file, each naming the entry. Foundation has no portable zlib (it has none on
/// Linux), so a compressed body is refused rather than decompressed.
package enum UnreadableBody {
  /// A body that cannot be read.
  package struct Found: Sendable, Hashable {
    /// Its JSON path in the file: `log.entries[2].response.content.text`.
    package var path: String
    /// Why it cannot be read, and the fix.
    package var problem: String
  }

  /// The unreadable bodies of `entries`, numbered by `indexes` (the entries' positions in the
  /// file they came from) when given.
  package static func find(in entries: [HAR.Entry], indexes: [Int]? = nil) -> [Found] {
    var found: [Found] = []
    for (position, entry) in entries.enumerated() {
      let index = indexes?[position] ?? position
      if let postData = entry.request.postData,
        let problem = problem(
          text: postData.text, encoding: postData.encoding, mimeType: postData.mimeType,
          headers: entry.request.headers)
      {
        found.append(Found(path: "log.entries[\(index)].request.postData.text", problem: problem))
      }
      let content = entry.response.content
      if let text = content.text,
        let problem = problem(
          text: text, encoding: content.encoding, mimeType: content.mimeType,
          headers: entry.response.headers)
      {
        found.append(Found(path: "log.entries[\(index)].response.content.text", problem: problem))
      }
    }
    return found
  }

  /// Why a HAR body (`text` in `encoding`) cannot be read, or `nil` when it can. Only a body
  /// stored as base64 can be compressed (compressed bytes are never UTF-8), and only one whose
  /// type names a charset can be in one that cannot be read: other bodies cost nothing here.
  private static func problem(
    text: String, encoding: String?, mimeType: String, headers: [HAR.Header]
  ) -> String? {
    guard !text.isEmpty else { return nil }
    guard encoding != nil || BodyCharset.declaresCharset(mimeType),
      let body = try? HARBodyText.decode(text: text, encoding: encoding)
    else { return encoding == nil ? compressedInside(text) : nil }
    return problem(of: body, headers: headers, mimeType: mimeType)
  }

  /// Why `body`, sent with `headers` and of type `mimeType`, cannot be read, and the fix; `nil`
  /// when it can.
  package static func problem(of body: Data, headers: [HAR.Header], mimeType: String) -> String? {
    if let coding = compression(of: body, headers: headers, mimeType: mimeType) {
      return "the body is compressed (\(coding)), so it cannot be scanned or redacted; "
        + "decompress it (or re-export without compression) first"
    }
    if BodyCharset.declaresCharset(mimeType),
      case .unreadable(let charset) = BodyCharset.read(body, mimeType: mimeType)
    {
      // The name comes from a header: one no charset could have is shown by its length.
      let usual =
        charset.count <= 16
        && charset.utf8.allSatisfy {
          ASCIIByte.isLetter($0) || ASCIIByte.isDigit($0) || "-_.:".utf8.contains($0)
        }
      let name = usual ? charset : "(a name of \(charset.count) characters)"
      let why =
        BodyCharset.knows(charset)
        ? "holds bytes that are not in its charset \(name)"
        : "is in charset \(name), which Understudy cannot read"
      return "the body \(why), so it cannot be scanned or redacted; convert it to UTF-8 first"
    }
    if let text = String(data: body, encoding: .utf8) { return compressedInside(text) }
    return nil
  }

  /// Why a text body holding base64 of compressed bytes (a CloudWatch Logs event's
  /// `awslogs.data`, ``EncodedTextRuns/compressedRun(in:)``) cannot be read whole, or `nil`.
  private static func compressedInside(_ text: String) -> String? {
    guard let found = EncodedTextRuns.compressedRun(in: text) else { return nil }
    return "the body holds base64 of \(found.coding) data (\(found.range.count) characters from "
      + "byte \(found.range.lowerBound)), so what it holds cannot be scanned or redacted; "
      + "decompress it (or drop it in a beforeRecord hook) first"
  }

  /// The codings a body's bytes are still in, as a report names them. The bytes carry gzip's
  /// or zstd's signature (whatever the headers say), or zlib's while they are not UTF-8; or
  /// the headers name a coding (every `Content-Encoding` header, every coding of its list) and
  /// the bytes carry a signature, or are not UTF-8 while a coding with no signature (`br`) or
  /// no known one is named or the type is text. Exporters that decoded the body and kept the
  /// header (Chrome does) are left alone.
  static func compression(of body: Data, headers: [HAR.Header], mimeType: String) -> String? {
    guard !body.isEmpty else { return nil }
    let codings = headers.filter { $0.name.lowercased() == "content-encoding" }
      .flatMap { $0.value.lowercased().split(separator: ",") }
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty && $0 != "identity" }
    let bytes = [UInt8](body.prefix(4))
    let gzip = bytes.starts(with: [0x1F, 0x8B, 0x08])
    let zstd = bytes == [0x28, 0xB5, 0x2F, 0xFD]
    // A zlib header: deflate with a window of at most 32 KiB, no dictionary, and a check that
    // makes the first two bytes a multiple of 31.
    let zlib =
      bytes.count >= 2 && bytes[0] & 0x0F == 8 && bytes[0] >> 4 <= 7 && bytes[1] & 0x20 == 0
      && (Int(bytes[0]) * 256 + Int(bytes[1])) % 31 == 0
    let readsAsText = { String(data: body, encoding: .utf8) != nil }
    guard !codings.isEmpty else {
      if gzip { return "gzip, by its signature" }
      if zstd { return "zstd, by its signature" }
      if zlib && !readsAsText() { return "zlib, by its signature" }
      return nil
    }
    let named = "Content-Encoding: " + codings.joined(separator: ", ")
    if gzip || zlib || zstd { return named }
    let unsigned = codings.contains { !["gzip", "x-gzip", "deflate"].contains($0) }
    return !readsAsText() && (unsigned || isText(mimeType)) ? named : nil
  }

  private static func isText(_ mimeType: String) -> Bool {
    let type = mimeType.lowercased()
    return type.hasPrefix("text/") || type.contains("json") || type.contains("xml")
      || type.contains("javascript") || type.contains("x-www-form-urlencoded")
  }
}
