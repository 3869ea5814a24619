/// The ASCII classes that byte-level parsers test one byte at a time (RFC 3986's `ALPHA`,
/// `DIGIT`, `HEXDIG` and scheme characters, RFC 9110's `tchar`), in one place rather than a copy
/// per parser.
package enum ASCIIByte {
  static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

  static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  static func isHexDigit(_ byte: UInt8) -> Bool {
    isDigit(byte) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66)
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
}
