/// Numeric character references (`&#112;`, `&#x70;`) that spell a name or a value in a page:
/// `&#x74;oken=…` is `token=…` to a browser and to anyone who reads the cassette, so the rules
/// read it so too.
///
/// Only references to characters that mean the same written plainly in HTML are decoded:
/// letters, digits, `_-.:=/+~@!$*,[]` and the space. A reference to `<`, `&` or a quote stays,
/// since decoding it would change what the markup says. A text with no `&#` costs one `memmem`.
enum HTMLCharacterReferences {
  /// `text` with those references decoded, or `nil` when it has none.
  static func decoded(_ text: String) -> String? {
    guard text.contains(bytes: "&#") else { return nil }
    var text = text
    return text.withUTF8 { bytes -> String? in
      var output: [UInt8] = []
      var copied = 0
      var searchFrom = 0
      let marker: StaticString = "&#"
      let needle = UnsafeRawBufferPointer(start: marker.utf8Start, count: 2)
      while let at = ByteSearch.firstOffset(
        of: needle, in: UnsafeRawBufferPointer(bytes), from: searchFrom)
      {
        searchFrom = at + 2
        guard let (scalar, end) = reference(at: at, in: bytes), isPlain(scalar) else { continue }
        if output.isEmpty { output.reserveCapacity(bytes.count) }
        output.append(contentsOf: bytes[copied..<at])
        output.append(scalar)
        copied = end
        searchFrom = end
      }
      guard copied > 0 else { return nil }
      output.append(contentsOf: bytes[copied...])
      return String(decoding: output, as: UTF8.self)
    }
  }

  /// The ASCII character the reference at `at` (`&#…;`) stands for and where it ends.
  private static func reference(at start: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> (UInt8, Int)?
  {
    var index = start + 2
    let hex = index < bytes.count && (bytes[index] | 0x20) == UInt8(ascii: "x")
    if hex { index += 1 }
    var value = 0
    let digitsStart = index
    while index < bytes.count, index - digitsStart < 8 {
      let byte = bytes[index]
      let digit: Int
      if ASCIIByte.isDigit(byte) {
        digit = Int(byte - 0x30)
      } else if hex, (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20) {
        digit = Int((byte | 0x20) - 0x61 + 10)
      } else {
        break
      }
      value = value * (hex ? 16 : 10) + digit
      index += 1
    }
    // The `;` may be left out, as browsers allow.
    guard index > digitsStart, value < 0x80 else { return nil }
    if index < bytes.count, bytes[index] == UInt8(ascii: ";") { index += 1 }
    return (UInt8(value), index)
  }

  private static func isPlain(_ byte: UInt8) -> Bool {
    ASCIIByte.isLetter(byte) || ASCIIByte.isDigit(byte) || plainPunctuation.contains(byte)
  }

  private static let plainPunctuation: Set<UInt8> = Set("_-.:=/+~@!$*,[] ".utf8)
}
