/// The ASCII classes that byte-level parsers test one byte at a time (RFC 3986's `ALPHA`,
/// `DIGIT`, `HEXDIG` and scheme characters), in one place rather than a copy per parser.
enum ASCIIByte {
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
}
