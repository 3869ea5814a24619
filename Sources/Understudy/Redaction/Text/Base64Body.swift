import Foundation

/// A body that is, as a whole, base64 of text (a form, JSON, a configuration file sent
/// wrapped): redaction reads the text the base64 holds as a body and writes it back in the
/// same alphabet.
enum Base64Body {
  /// The text `body` is base64 of, and how it was spelled; `nil` for anything else. The first
  /// 64 characters decide cheaply: a body whose start does not decode to text is never decoded
  /// whole.
  static func decoded(_ body: String) -> (text: String, urlSafe: Bool, padded: Bool)? {
    guard body.utf8.count >= 24, !body.contains(bytes: " ") else { return nil }
    var body = body
    return body.withUTF8 { bytes -> (String, Bool, Bool)? in
      let count = bytes.count
      var end = count
      while end > 0,
        bytes[end - 1] == UInt8(ascii: "=") || bytes[end - 1] == 0x0A
          || bytes[end - 1] == 0x0D
      {
        end -= 1
      }
      guard let head = Base64Run.decode(bytes, 0..<min(end, 64)), isText(head),
        !has(UInt8(ascii: "="), in: bytes, before: end),
        let whole = Base64Run.decode(bytes, 0..<end), isText(whole),
        let text = String(validating: whole, as: UTF8.self)
      else { return nil }
      let urlSafe =
        has(UInt8(ascii: "-"), in: bytes, before: end)
        || has(UInt8(ascii: "_"), in: bytes, before: end)
      // A run whose length is a multiple of four needed no padding: its encoder may pad, and a
      // decoder that insists on padding (Foundation's) reads the text written back only padded.
      return (text, urlSafe, end < count && bytes[end] == UInt8(ascii: "=") || end % 4 == 0)
    }
  }

  /// Text in ASCII (``Base64Run/isText(_:)``), or in any script: no control character but
  /// white space, which 48 random bytes hold with odds of a thousand to one; the whole must
  /// be UTF-8 besides.
  private static func isText(_ decoded: [UInt8]) -> Bool {
    if Base64Run.isText(decoded) { return true }
    guard decoded.count >= 12 else { return false }
    for byte in decoded {
      switch byte {
      case 0x09, 0x0A, 0x0D: continue
      case 0..<0x20, 0x7F: return false
      default: continue
      }
    }
    return true
  }

  private static func has(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, before end: Int)
    -> Bool
  {
    (EmbeddedQueryPairs.next(byte, in: bytes, from: 0) ?? end) < end
  }

  /// `text` as base64 in the alphabet and padding `decoded(_:)` found.
  static func encoded(_ text: String, urlSafe: Bool, padded: Bool) -> String {
    var encoded = Data(text.utf8).base64EncodedString()
    if urlSafe {
      encoded = encoded.replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_")
    }
    if !padded { encoded = encoded.replacingOccurrences(of: "=", with: "") }
    return encoded
  }
}
