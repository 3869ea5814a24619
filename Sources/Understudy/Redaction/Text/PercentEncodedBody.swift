import Foundation

/// A body that is percent-encoded text (`%7B%22password%22%3A%22…%22%7D` sent as `text/plain`):
/// read as the text it holds, as a base64 body is (``Base64Body``), and written back encoded
/// the way it came, each character escaped where it was escaped and raw where it was raw.
///
/// A body is one when it holds no white space, no `"` and no `=` or `&` (a form's pairs are read
/// as pairs), and its escapes decode to UTF-8 text that holds structure a rule reads: a quote, a
/// brace, a bracket, `=`, `:`, `<` or white space.
struct PercentEncodedBody {
  /// The text the body holds.
  let text: String
  /// ASCII bytes the body wrote raw at least once, and those it escaped.
  private let raw: Set<UInt8>
  private let escaped: Set<UInt8>
  /// Whether its escapes were written in lower case (`%7b`).
  private let lowerCase: Bool

  init?(_ body: String) {
    // Asked of every text body: `memchr` turns nearly all away (a `%`, then a space, a quote,
    // `=` or `&`), and only the rest is copied and read byte by byte.
    guard body.contains(bytes: "%"), !body.contains(bytes: " "), !body.contains(bytes: "\""),
      !body.contains(bytes: "="), !body.contains(bytes: "&"), !body.contains(bytes: "\n")
    else { return nil }
    let bytes = Array(body.utf8)
    guard bytes.count >= 6,
      !bytes.contains(where: {
        TextAssignments.isBlank($0) || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "=")
          || $0 == UInt8(ascii: "&")
      }),
      let decoded = body.removingPercentEncoding, decoded != body,
      decoded.utf8.contains(where: { "\"'{}[]=:< \t\n".utf8.contains($0) })
    else { return nil }
    var raw: Set<UInt8> = []
    var escaped: Set<UInt8> = []
    var lowerCase = false
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
        let byte = UInt8(
          String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
      {
        lowerCase =
          lowerCase || bytes[(index + 1)...(index + 2)].contains { (0x61...0x66).contains($0) }
        escaped.insert(byte)
        index += 3
      } else {
        raw.insert(bytes[index])
        index += 1
      }
    }
    text = decoded
    self.raw = raw
    self.escaped = escaped
    self.lowerCase = lowerCase
  }

  /// `text` encoded as the body was: a byte the body wrote raw stays raw, and so does a letter,
  /// a digit or `-._~` it never escaped; any other byte is escaped (so a placeholder's `<`, `:`
  /// and `>` are, unless the body wrote them raw).
  /// What cannot be written as the body wrote it is still escaped, so no value is lost to an
  /// encoding that reads differently.
  func encoded(_ text: String) -> String {
    let digits = Array((lowerCase ? "0123456789abcdef" : "0123456789ABCDEF").utf8)
    var result: [UInt8] = []
    result.reserveCapacity(text.utf8.count * 2)
    for byte in text.utf8 {
      let keeps =
        raw.contains(byte)
        || (ASCIIByte.isAlphanumeric(byte) || "-._~".utf8.contains(byte))
          && !escaped.contains(byte)
      if byte < 0x80, byte != UInt8(ascii: "%"), keeps {
        result.append(byte)
      } else {
        result += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 15)]]
      }
    }
    return String(decoding: result, as: UTF8.self)
  }
}
