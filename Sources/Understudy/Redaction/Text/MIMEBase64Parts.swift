import Foundation

/// The base64 parts of a MIME message written in a text body (an e-mail, `multipart/related`):
/// after a `Content-Transfer-Encoding: base64` header and the blank line that ends the part's
/// headers, base64 over lines of 76 characters. Redaction reads each as the text it holds and
/// writes it back in lines of the same length and line break, as it reads a body that is base64
/// whole (``Base64Body``).
enum MIMEBase64Parts {
  /// Each part's base64, as a byte range of `text`, and the line break and length of its lines.
  static func blocks(in text: String) -> [(range: Range<Int>, lineBreak: String, width: Int)] {
    // One case-insensitive search turns away every text that names no such part.
    guard
      text.contains(bytesIgnoringCase: "transfer-encoding: base64")
        || text.contains(bytesIgnoringCase: "transfer-encoding:base64")
    else { return [] }
    var text = text
    return text.withUTF8 { bytes in
      var found: [(Range<Int>, String, Int)] = []
      let name = Array("transfer-encoding".utf8)
      var searchFrom = 0
      // Each `:` after the name, compared without case; only texts that name such a part get
      // here.
      while let colon = EmbeddedQueryPairs.next(UInt8(ascii: ":"), in: bytes, from: searchFrom) {
        searchFrom = colon + 1
        guard colon >= name.count,
          zip(bytes[(colon - name.count)..<colon], name).allSatisfy({ ($0 | 0x20) == $1 }),
          let block = block(after: colon + 1, in: bytes)
        else { continue }
        found.append(block)
        searchFrom = block.0.upperBound
      }
      return found
    }
  }

  /// The base64 block after the header whose name ends at `headerEnd`: the value `base64`, the
  /// rest of the part's headers, a blank line, then lines of base64 up to a blank line, a
  /// boundary or the end.
  private static func block(after headerEnd: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> (Range<Int>, String, Int)?
  {
    let count = bytes.count
    var index = headerEnd
    while index < count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
    guard index + 6 <= count,
      String(decoding: bytes[index..<(index + 6)], as: UTF8.self).lowercased() == "base64"
    else { return nil }
    // The blank line that ends the headers.
    var lineStart = index
    var lineBreak = "\n"
    while true {
      guard let newline = EmbeddedQueryPairs.next(0x0A, in: bytes, from: lineStart) else {
        return nil
      }
      if newline > 0, bytes[newline - 1] == 0x0D { lineBreak = "\r\n" }
      lineStart = newline + 1
      if lineStart < count, bytes[lineStart] == 0x0A {
        lineStart += 1
        break
      }
      if lineStart + 1 < count, bytes[lineStart] == 0x0D, bytes[lineStart + 1] == 0x0A {
        lineStart += 2
        break
      }
    }
    let start = lineStart
    var end = start
    var width = 0
    var lines = 0
    while lineStart < count {
      var lineEnd = lineStart
      while lineEnd < count, isBase64(bytes[lineEnd]) { lineEnd += 1 }
      guard lineEnd > lineStart else { break }
      width = max(width, lineEnd - lineStart)
      lines += 1
      end = lineEnd
      var next = lineEnd
      if next < count, bytes[next] == 0x0D { next += 1 }
      guard next < count, bytes[next] == 0x0A else { break }
      lineStart = next + 1
    }
    guard end - start >= 24 else { return nil }
    // A part on one line is written back on one line, however long its redacted text grows.
    return (start..<end, lineBreak, lines > 1 ? width : 0)
  }

  /// A MIME part's base64 is the standard alphabet and its padding.
  private static func isBase64(_ byte: UInt8) -> Bool {
    ASCIIByte.isStandardBase64(byte) || byte == UInt8(ascii: "=")
  }

  /// `text` as base64 in lines of `width` characters.
  static func encoded(_ text: String, lineBreak: String, width: Int) -> String {
    let whole = Data(text.utf8).base64EncodedString()
    guard width > 0, whole.utf8.count > width else { return whole }
    var lines: [Substring] = []
    var rest = whole[...]
    while !rest.isEmpty {
      lines.append(rest.prefix(width))
      rest = rest.dropFirst(width)
    }
    return lines.joined(separator: lineBreak)
  }
}
