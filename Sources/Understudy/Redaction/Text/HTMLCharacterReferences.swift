/// Character references (`&#112;`, `&#x70;`, `&equals;`) that spell a name or a value in a
/// page: `&#x74;oken=…` and `token&equals;…` are `token=…` to a browser and to anyone who reads
/// the cassette, so the rules read them so too.
///
/// ``decoded(_:)`` decodes only references to characters that mean the same written plainly in
/// HTML: letters, digits, `_-.:=/+~@!$*,[]` and the space, by number or by name. A reference to
/// `<`, `&` or a quote stays, since decoding it would change what the markup says; the rules
/// still read the text with those decoded too (``decodedForReading(_:)``) and search for what
/// they find there wherever it stands (`&quot;password&quot;: &quot;…&quot;` in a `<pre>`). A
/// text with no `&` costs one `memchr`.
enum HTMLCharacterReferences {
  /// `text` with the references to plain characters decoded, or `nil` when it has none.
  static func decoded(_ text: String) -> String? { decoded(text, keeping: isPlain) }

  /// `text` with every reference to an ASCII character decoded (quotes, `<` and `&` too), or
  /// `nil` when it has none: a reading, never written.
  static func decodedForReading(_ text: String) -> String? { decoded(text, keeping: { _ in true }) }

  private static func decoded(_ text: String, keeping: (UInt8) -> Bool) -> String? {
    guard text.contains(bytes: "&") else { return nil }
    var text = text
    return text.withUTF8 { bytes in
      reading(bytes, keeping: keeping, mapping: false).map {
        String(decoding: $0.bytes, as: UTF8.self)
      }
    }
  }

  /// `bytes` with every reference to an ASCII character decoded, as ``decodedForReading(_:)``
  /// reads them, and for each byte of the result the range of `bytes` it was read from; `nil`
  /// when none is decoded. A search over the reading finds a value whose quotes or `&` a page
  /// wrote as references in any of their spellings (`&#x27;`, `&#39;`, `&apos;`, `&#X22;`), and
  /// the map says where it stands in the bytes as written.
  static func mappedReading(_ bytes: UnsafeRawBufferPointer) -> (
    bytes: [UInt8], sources: [Range<Int>]
  )? {
    guard ByteSearch.contains(Array("&".utf8), in: bytes) else { return nil }
    return reading(bytes.assumingMemoryBound(to: UInt8.self), keeping: { _ in true }, mapping: true)
  }

  /// The one decoder: each reference at an `&` that `keeping` accepts replaced by its
  /// character, and with `mapping` the source of each byte of the result.
  private static func reading(
    _ bytes: UnsafeBufferPointer<UInt8>, keeping: (UInt8) -> Bool, mapping: Bool
  ) -> (bytes: [UInt8], sources: [Range<Int>])? {
    var output: [UInt8] = []
    var sources: [Range<Int>] = []
    var copied = 0
    var searchFrom = 0
    let marker: StaticString = "&"
    let needle = UnsafeRawBufferPointer(start: marker.utf8Start, count: 1)
    func copy(upTo end: Int) {
      output.append(contentsOf: bytes[copied..<end])
      if mapping { sources += (copied..<end).map { $0..<($0 + 1) } }
    }
    while let at = ByteSearch.firstOffset(
      of: needle, in: UnsafeRawBufferPointer(bytes), from: searchFrom)
    {
      searchFrom = at + 1
      guard let (scalar, end) = reference(at: at, in: bytes), keeping(scalar) else { continue }
      if output.isEmpty {
        output.reserveCapacity(bytes.count)
        if mapping { sources.reserveCapacity(bytes.count) }
      }
      copy(upTo: at)
      output.append(scalar)
      if mapping { sources.append(at..<end) }
      copied = end
      searchFrom = end
    }
    guard copied > 0 else { return nil }
    copy(upTo: bytes.count)
    return (output, sources)
  }

  /// The ASCII character the reference at `start` (`&#…;` or `&name;`) stands for and where
  /// it ends.
  private static func reference(at start: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> (UInt8, Int)?
  {
    guard start + 1 < bytes.count else { return nil }
    guard bytes[start + 1] == UInt8(ascii: "#") else { return named(at: start, in: bytes) }
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

  /// A named reference to an ASCII character (`&equals;`), which needs its `;`.
  private static func named(at start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (UInt8, Int)? {
    var index = start + 1
    while index < bytes.count, index - start <= 8, ASCIIByte.isLetter(bytes[index]) { index += 1 }
    guard index < bytes.count, index > start + 1, bytes[index] == UInt8(ascii: ";"),
      let scalar = names[
        String(decoding: UnsafeBufferPointer(rebasing: bytes[(start + 1)..<index]), as: UTF8.self)]
    else { return nil }
    return (scalar, index + 1)
  }

  /// HTML's names for ASCII characters.
  private static let names: [String: UInt8] = [
    "equals": 0x3D, "colon": 0x3A, "sol": 0x2F, "period": 0x2E, "comma": 0x2C, "lowbar": 0x5F,
    "UnderBar": 0x5F, "hyphen": 0x2D, "dash": 0x2D, "plus": 0x2B, "commat": 0x40, "excl": 0x21,
    "dollar": 0x24, "ast": 0x2A, "midast": 0x2A, "lsqb": 0x5B, "lbrack": 0x5B, "rsqb": 0x5D,
    "rbrack": 0x5D, "quot": 0x22, "QUOT": 0x22, "apos": 0x27, "amp": 0x26, "AMP": 0x26,
    "lt": 0x3C, "LT": 0x3C, "gt": 0x3E, "GT": 0x3E, "num": 0x23, "quest": 0x3F, "percnt": 0x25,
    "semi": 0x3B, "lpar": 0x28, "rpar": 0x29, "lcub": 0x7B, "lbrace": 0x7B, "rcub": 0x7D,
    "rbrace": 0x7D, "vert": 0x7C, "verbar": 0x7C, "VerticalLine": 0x7C, "bsol": 0x5C,
    "grave": 0x60, "DiacriticalGrave": 0x60, "Hat": 0x5E, "NewLine": 0x0A, "Tab": 0x09,
  ]

  private static func isPlain(_ byte: UInt8) -> Bool {
    ASCIIByte.isLetter(byte) || ASCIIByte.isDigit(byte) || plainPunctuation.contains(byte)
  }

  private static let plainPunctuation: Set<UInt8> = Set("_-.:=/+~@!$*,[] ".utf8)
}
