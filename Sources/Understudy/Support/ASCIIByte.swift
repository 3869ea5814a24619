/// The ASCII classes that byte-level parsers test one byte at a time (RFC 3986's `ALPHA`,
/// `DIGIT`, `HEXDIG` and scheme characters, RFC 9110's `tchar`), in one place rather than a copy
/// per parser.
package enum ASCIIByte {
  static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

  static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  static func isAlphanumeric(_ byte: UInt8) -> Bool { isLetter(byte) || isDigit(byte) }

  static func isUpper(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }

  static func isLower(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }

  /// A line feed or a carriage return: where a line of text ends.
  static func isLineBreak(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }

  /// `byte` lower-cased when it is an upper-case letter.
  static func lowercased(_ byte: UInt8) -> UInt8 { isUpper(byte) ? byte | 0x20 : byte }

  /// JSON's white space: space, tab, line feed, carriage return. A `switch`, since an array
  /// literal's `contains` builds the array on every call in a debug build.
  static func isJSONWhitespace(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x20, 0x09, 0x0A, 0x0D: true
    default: false
    }
  }

  /// A character of either base64 alphabet: a letter, a digit, `+` and `/` (RFC 4648's
  /// standard one) or `-` and `_` (its URL-safe one). Padding is not included.
  static func isBase64(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
    default: isAlphanumeric(byte)
    }
  }

  /// A character of the standard base64 alphabet alone: a letter, a digit, `+` or `/`.
  static func isStandardBase64(_ byte: UInt8) -> Bool {
    isAlphanumeric(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")
  }

  static func isHexDigit(_ byte: UInt8) -> Bool {
    isDigit(byte) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66)
  }

  /// The value of a hexadecimal digit in either case, or `nil` for any other byte.
  static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: byte - 0x30  // 0-9
    case 0x61...0x66: byte - 0x61 + 10  // a-f
    case 0x41...0x46: byte - 0x41 + 10  // A-F
    default: nil
    }
  }

  /// The byte that the percent escape at `index` spells (`%2F` and `%2f` both spell `/`), or
  /// `nil` when no escape starts there.
  static func percentEscaped(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt8? {
    guard index >= 0, index + 2 < bytes.count, bytes[index] == 0x25,  // %
      let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
    else { return nil }
    return high << 4 | low
  }

  /// A letter, digit, `+`, `-` or `.`: what may follow a scheme's first letter.
  static func isSchemeCharacter(_ byte: UInt8) -> Bool {
    isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
      || byte == UInt8(ascii: ".")
  }

  /// RFC 9110's `tchar`, what a method and a header field's name are made of: a letter, a digit
  /// or one of ``!#$%&'*+-.^_`|~``.
  package static func isTokenCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"),
      UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"),
      UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
      UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
      true
    default: isLetter(byte) || isDigit(byte)
    }
  }

  /// The longest method a cassette may hold: the longest registered, `UPDATEREDIRECTREF`, has 17
  /// characters.
  package static let longestMethod = 32

  /// Whether `method` is one a client can send: an RFC 9110 token (``isTokenCharacter(_:)``)
  /// of at most ``longestMethod`` characters. Anything else (a space, a quote, a control
  /// character) no client sends, and may carry anything.
  package static func isMethodToken(_ method: some StringProtocol) -> Bool {
    !method.isEmpty && method.utf8.count <= longestMethod
      && method.utf8.allSatisfy(isTokenCharacter)
  }
}
