import Foundation

/// The ways a secret value can be written where a cassette or a log holds it: as it is; in
/// another case; percent-encoded (escapes in upper and lower case, `+` or `%20` for a space, only
/// the reserved characters or every byte); escaped inside a JSON string (`\/`, `\uXXXX` as Go,
/// .NET and PHP write them); base64, standard and URL-safe, padded or not, and the characters
/// that spell only the value at each of the three places it can start inside a longer base64
/// run; hex, lower and upper case; and escaped as XML and HTML text (`&amp;`, `&lt;`). A known
/// value (``of(_:inURL:everyEscape:)`` with `everyEscape`) also every byte as `\xHH` and as
/// C's octal `\ooo`, every character as JavaScript's `%uXXXX`, and base32 as base64 is. Each
/// of those for the value composed and decomposed.
///
/// Each spelling is worked out once, when a value becomes known, so the search over a body is
/// one `memmem` a spelling (``ByteSearch``) and never a loop over the body's bytes in Swift.
enum ValueSpellings {
  /// One way to write a value, and whether it is percent-encoded (so the placeholder that
  /// replaces it is percent-encoded too, and a URL holding it still parses).
  struct Spelling: Hashable {
    var text: String
    var isEncoded: Bool
    /// A base64 form, which may stand inside a longer base64 run.
    var isBase64 = false
    /// A list of the value's bytes (``byteLists(of:)``), which a JSON array holds as numbers.
    var isByteList = false
  }

  /// Every spelling of `value`, the value itself first, each once. `inURL` marks the value as
  /// URL text, whose placeholder is percent-encoded wherever it is found. `everyEscape` adds
  /// the spellings only a known value is searched in (``characterEscapes(of:)``, base32): a
  /// value a rule found is searched for in every entry of a cassette that may hold thousands.
  static func of(_ value: String, inURL: Bool = false, everyEscape: Bool = false) -> [Spelling] {
    var spellings = spelled(value, inURL: inURL, everyEscape: everyEscape)
    // Text outside ASCII has two canonical forms, composed (`ü`) and decomposed (`u` and a
    // combining diaeresis), and a system may hand back either: each form is spelled every way.
    guard !value.utf8.allSatisfy({ $0 < 0x80 }) else { return spellings }
    // Compared as bytes: `String`'s `==` and hashing treat the two forms as one.
    var seen = Set(spellings.map { Array($0.text.utf8) })
    for form in [
      value.precomposedStringWithCanonicalMapping, value.decomposedStringWithCanonicalMapping,
    ] where !form.utf8.elementsEqual(value.utf8) {
      for spelling in spelled(form, inURL: inURL, everyEscape: everyEscape)
      where seen.insert(Array(spelling.text.utf8)).inserted {
        spellings.append(spelling)
      }
    }
    return spellings
  }

  /// ``of(_:inURL:everyEscape:)`` for one normalization form of a value.
  private static func spelled(_ value: String, inURL: Bool, everyEscape: Bool) -> [Spelling] {
    var spellings: [Spelling] = []
    var seen: Set<String> = []
    func add(_ text: String, encoded: Bool, base64: Bool = false, byteList: Bool = false) {
      if !text.isEmpty, seen.insert(text).inserted {
        spellings.append(
          Spelling(text: text, isEncoded: encoded, isBase64: base64, isByteList: byteList))
      }
    }
    add(value, encoded: inURL)
    // A server may hand a value back in another case: hex tokens and digests have no case of
    // their own, and some systems upper-case what they echo.
    add(value.uppercased(), encoded: inURL)
    add(value.lowercased(), encoded: inURL)
    for encoded in percentEncodings(of: value) { add(encoded, encoded: true) }
    for escaped in jsonEscapes(of: value) { add(escaped, encoded: false) }
    for escaped in markupEscapes(of: value) { add(escaped, encoded: false) }
    // A server can hand a value back encoded: a token in a base64 JSON blob or a JWT claim, a
    // key in a hex dump or a signature's debug string. These forms are longer than the value.
    for encoded in binaryToText(Data(value.utf8)) {
      add(encoded, encoded: false, base64: !encoded.utf8.allSatisfy(ASCIIByte.isHexDigit))
    }
    for list in byteLists(of: Data(value.utf8)) { add(list, encoded: false, byteList: true) }
    if everyEscape {
      for escaped in characterEscapes(of: value) { add(escaped, encoded: false) }
      for encoded in base32(Data(value.utf8)) { add(encoded, encoded: false, base64: true) }
    }
    // Any of these written into a URL is percent-encoded once more by whatever writes the URL:
    // an upper-cased value's `!` as `%21`, a JSON escape's `\` as `%5C`, a percent-encoded
    // value's `%` as `%25`. A spelling of letters and digits alone is its own URL form.
    for spelling in spellings {
      for form in urlForms(of: spelling.text) { add(form, encoded: true) }
    }
    return spellings
  }

  /// A value holding `&`, `<`, `>` or quotes as XML and HTML text writes it: `&amp;`, `&lt;`
  /// and `&gt;` alone (Python's `xml.sax.saxutils.escape`, an element's text), and with the
  /// quotes too, as `&quot;` and `&#39;` (`html.escape`) or `&apos;` (XML attributes); none for
  /// a value without them.
  static func markupEscapes(of value: String) -> [String] {
    guard value.utf8.contains(where: { "&<>\"'".utf8.contains($0) }) else { return [] }
    func escaped(_ quotes: (double: String, single: String)?) -> String {
      var text = ""
      for character in value {
        switch character {
        case "&": text += "&amp;"
        case "<": text += "&lt;"
        case ">": text += "&gt;"
        case "\"": text += quotes?.double ?? "\""
        case "'": text += quotes?.single ?? "'"
        default: text.append(character)
        }
      }
      return text
    }
    return [escaped(nil), escaped(("&quot;", "&#39;")), escaped(("&quot;", "&apos;"))]
  }

  /// `text` as URL writers put it in a path or a query: every byte outside RFC 3986's
  /// unreserved characters escaped (Python's `quote`, `encodeURIComponent`), or only those a
  /// path cannot hold (`URLComponents`), escapes in upper and lower case; none when `text` has
  /// nothing to escape. Worked out byte by byte: a value has several dozen spellings, and
  /// Foundation's encoder for each cost more than the rest of remembering it.
  ///
  /// Written for the debug build `swift test` compiles too, where each value's several dozen
  /// spellings pass through here: counted loops, three appends per escape rather than an array
  /// literal (an allocation each), and bytes compared as numbers rather than by `UInt8(ascii:)`
  /// (a call each). Remembering 2,000 values spent 40% of its time here before.
  static func urlForms(of text: String) -> [String] {
    let bytes = Array(text.utf8)
    let count = bytes.count
    var index = 0
    while index < count, isUnreserved(bytes[index]) { index += 1 }
    guard index < count else { return [] }
    var forms: [String] = []
    for keepsPathCharacters in [false, true] {
      for upper in [true, false] {
        var encoded: [UInt8] = []
        encoded.reserveCapacity(count * 3)
        let digits = upper ? upperHexDigits : hexDigits
        var position = 0
        while position < count {
          let byte = bytes[position]
          if isUnreserved(byte) || keepsPathCharacters && isPathSubDelimiter(byte) {
            encoded.append(byte)
          } else {
            encoded.append(0x25)  // %
            encoded.append(digits[Int(byte >> 4)])
            encoded.append(digits[Int(byte & 15)])
          }
          position += 1
        }
        let form = String(decoding: encoded, as: UTF8.self)
        if form != text, !forms.contains(form) { forms.append(form) }
      }
    }
    return forms
  }

  /// Letters, digits, `-`, `.`, `_` and `~`.
  private static func isUnreserved(_ byte: UInt8) -> Bool {
    (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
      || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2E || byte == 0x5F
      || byte == 0x7E
  }

  /// What `CharacterSet.urlPathAllowed` keeps besides the unreserved characters:
  /// `!$&'()*+,;=:@/`.
  private static func isPathSubDelimiter(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x21, 0x24, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x3B, 0x3D, 0x3A, 0x40, 0x2F:
      true
    default: false
    }
  }

  /// Percent-encodings as URL and form encoders write them, escapes in either case (.NET's
  /// `UrlEncode` writes `%2f`).
  static func percentEncodings(of value: String) -> [String] {
    let encodings = [
      RedactionPlaceholder.percentEncode(value),
      value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value,
      value.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? value,
      value.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? value,
      (value.addingPercentEncoding(withAllowedCharacters: formAllowed) ?? value)
        .replacingOccurrences(of: "%20", with: "+"),
      // Python's `quote_plus`, and JavaScript's `encodeURIComponent`.
      (value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value)
        .replacingOccurrences(of: "%20", with: "+"),
      value.addingPercentEncoding(withAllowedCharacters: componentAllowed) ?? value,
      // Letters and digits only, as Swift code often asks of `addingPercentEncoding`.
      value.addingPercentEncoding(withAllowedCharacters: alphanumerics) ?? value,
      // Some encoders escape every byte, letters and digits too.
      value.utf8.map { hexEscape($0, upper: true) }.joined(),
    ]
    return (encodings + encodings.map(lowerCasedEscapes)).filter { $0 != value }
  }

  /// The inside of a JSON string holding `value`, as encoders write it: the escapes every
  /// encoder uses, with `/` escaped (PHP, Jackson's option), with `<`, `>` and `&` as `\u003c`
  /// (Go's default), with every character outside ASCII as `\uXXXX` (Python's default), and
  /// with .NET's set (`'`, `+`, `` ` `` too, hex in upper case).
  static func jsonEscapes(of value: String) -> [String] {
    let plain = jsonEscaped(value)
    let html = unicodeEscaped(plain, characters: "<>&", upper: false)
    let ascii = unicodeEscaped(plain, characters: "", upper: false, nonASCII: true)
    let dotNet = unicodeEscaped(plain, characters: "<>&'+`", upper: true, nonASCII: true)
    // Every character as `\uXXXX`, ASCII too: what some encoders and obfuscating echoes
    // write, and the only spelling of a value no character of which shows.
    let every = everyCharacterEscaped(value)
    var forms: [String] = [every, every.uppercased().replacingOccurrences(of: "\\U", with: "\\u")]
    for form in [plain, html, ascii, dotNet, unicodeEscaped(plain, characters: "<>&", upper: true)]
    {
      forms.append(form)
      forms.append(form.replacingOccurrences(of: "/", with: "\\/"))
    }
    return forms.filter { $0 != value }
  }

  /// `data` in base64, standard and URL-safe, with and without padding, and in hex, lower and
  /// upper case; and the base64 characters that spell only `data` when it starts at each of the
  /// three places a byte can take in a base64 group of a longer run. Those inner forms are
  /// left out for data shorter than 6 bytes, whose inner form is short enough to occur by
  /// chance.
  static func binaryToText(_ data: Data) -> [String] {
    let base64 = data.base64EncodedString()
    let unpadded = String(base64.prefix { $0 != "=" })
    let hex = String(
      decoding: data.flatMap { [hexDigits[Int($0 >> 4)], hexDigits[Int($0 & 15)]] }, as: UTF8.self)
    let inner = data.count >= 6 ? (0..<3).map { innerBase64(of: data, after: $0) } : []
    var forms: [String] = []
    for form in [base64, unpadded, urlSafe(base64), urlSafe(unpadded), hex, hex.uppercased()]
      + inner + inner.map(urlSafe)
    where !form.isEmpty && !forms.contains(form) {
      forms.append(form)
    }
    return forms
  }

  /// `value` with every character escaped one at a time, as code and debug output write a
  /// value none of whose characters is to show: each UTF-8 byte as `\xHH`, hex in lower and in
  /// upper case (Python's bytes repr, C, shell's `printf`) and as C's and Python's octal `\ooo`,
  /// and each UTF-16 unit as JavaScript's `escape()` writes it, `%uXXXX`, hex in either case;
  /// and the bytes' decimal values apart at spaces (`86 67 55`), as a debug print lists them.
  /// None for a value shorter than 4 bytes, whose escapes are short enough to occur by chance.
  static func characterEscapes(of value: String) -> [String] {
    let bytes = Array(value.utf8)
    guard bytes.count >= 4 else { return [] }
    var lower: [UInt8] = []
    var upper: [UInt8] = []
    var octal: [UInt8] = []
    lower.reserveCapacity(bytes.count * 4)
    upper.reserveCapacity(bytes.count * 4)
    octal.reserveCapacity(bytes.count * 4)
    let backslash = UInt8(ascii: "\\")
    let zero = UInt8(ascii: "0")
    for byte in bytes {
      lower += [backslash, UInt8(ascii: "x"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 15)]]
      upper += [
        backslash, UInt8(ascii: "x"), upperHexDigits[Int(byte >> 4)],
        upperHexDigits[Int(byte & 15)],
      ]
      octal += [backslash, zero + (byte >> 6), zero + ((byte >> 3) & 7), zero + (byte & 7)]
    }
    var unitsLower: [UInt8] = []
    var unitsUpper: [UInt8] = []
    for unit in value.utf16 {
      unitsLower += [UInt8(ascii: "%"), UInt8(ascii: "u")]
      unitsUpper += [UInt8(ascii: "%"), UInt8(ascii: "u")]
      for shift: UInt16 in [12, 8, 4, 0] {
        unitsLower.append(hexDigits[Int((unit >> shift) & 15)])
        unitsUpper.append(upperHexDigits[Int((unit >> shift) & 15)])
      }
    }
    return [lower, upper, octal, unitsUpper, unitsLower].map {
      String(decoding: $0, as: UTF8.self)
    } + [bytes.map { String($0) }.joined(separator: " ")]
  }

  /// `data` in base32 (RFC 4648's alphabet, upper case), padded and not, and the characters
  /// that spell only `data` when it starts at each of the five places a byte can take in a
  /// base32 group of a longer run, as ``binaryToText(_:)`` finds base64. Those inner forms are
  /// left out for data shorter than 6 bytes, as base64's are.
  static func base32(_ data: Data) -> [String] {
    let bytes = [UInt8](data)
    let unpadded = base32Characters(bytes)
    let padding = (8 - unpadded.count % 8) % 8
    var forms = [
      String(decoding: unpadded, as: UTF8.self) + String(repeating: "=", count: padding),
      String(decoding: unpadded, as: UTF8.self),
    ]
    if bytes.count >= 6 {
      for leading in 0..<5 {
        let encoded =
          leading == 0 ? unpadded : base32Characters(Array(repeating: 0, count: leading) + bytes)
        // The characters whose 5 bits start before `data`, and a last one that holds fewer
        // than 5 bits of it, whose low bits come from the next byte.
        let before = (leading * 8 + 4) / 5
        let after = ((leading + bytes.count) * 8) % 5 == 0 ? 0 : 1
        guard encoded.count - after > before else { continue }
        forms.append(String(decoding: encoded[before..<(encoded.count - after)], as: UTF8.self))
      }
    }
    var unique: [String] = []
    for form in forms where !form.isEmpty && !unique.contains(form) { unique.append(form) }
    return unique
  }

  /// `bytes` in base32's characters, without padding.
  private static func base32Characters(_ bytes: [UInt8]) -> [UInt8] {
    var characters: [UInt8] = []
    characters.reserveCapacity((bytes.count * 8 + 4) / 5)
    var buffer: UInt32 = 0
    var bits = 0
    for byte in bytes {
      buffer = (buffer << 8) | UInt32(byte)
      bits += 8
      while bits >= 5 {
        bits -= 5
        characters.append(base32Alphabet[Int((buffer >> UInt32(bits)) & 31)])
      }
      buffer &= (1 << UInt32(bits)) - 1
    }
    if bits > 0 { characters.append(base32Alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
    return characters
  }

  private static let base32Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

  /// `data` as a list of its byte values, as a debug print or a JSON array writes it: hex
  /// separated by spaces or colons, in lower and upper case (`58 59 5a`, `58:59:5A`), and
  /// decimal separated by commas,
  /// with and without a space after each (`88,89,90` and `88, 89, 90`, inside a JSON array's
  /// brackets or a C array's braces). None for data shorter than 4 bytes, whose list is short
  /// enough to occur by chance.
  static func byteLists(of data: Data) -> [String] {
    guard data.count >= 4 else { return [] }
    let hex = data.map {
      String(decoding: [hexDigits[Int($0 >> 4)], hexDigits[Int($0 & 15)]], as: UTF8.self)
    }.joined(separator: " ")
    let decimal = data.map { String($0) }
    // Colons too, as a fingerprint or a MAC address prints bytes (`58:59:5a`).
    let colons = hex.replacingOccurrences(of: " ", with: ":")
    return [
      hex, hex.uppercased(), colons, colons.uppercased(), decimal.joined(separator: ","),
      decimal.joined(separator: ", "),
    ]
  }

  private static func urlSafe(_ text: String) -> String {
    text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
  }

  /// The base64 characters that depend on `data` alone when `data` follows `leading` other
  /// bytes of a longer run. Each character holds 6 bits: the ones that also hold bits of the
  /// bytes before or after differ from run to run and are left out, one at each end at most,
  /// so what a run keeps of the value is a few bits of its first and last bytes.
  private static func innerBase64(of data: Data, after leading: Int) -> String {
    let encoded = Array(
      (Data(count: leading) + data).base64EncodedString().utf8.prefix { $0 != UInt8(ascii: "=") })
    // Before: the characters whose 6 bits start before `data`; after: a last character that
    // holds fewer than 6 bits of `data`, whose low bits come from the next byte.
    let before = (leading * 8 + 5) / 6
    let after = ((leading + data.count) * 8) % 6 == 0 ? 0 : 1
    guard encoded.count - after > before else { return "" }
    return String(decoding: encoded[before..<(encoded.count - after)], as: UTF8.self)
  }

  /// `value` as the inside of a JSON string, without the quotes: `"`, `\` and control
  /// characters escaped, `/` as it is.
  static func jsonEscaped(_ value: String) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .withoutEscapingSlashes
    let quoted = (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) }
    return quoted.map { String($0.dropFirst().dropLast()) } ?? value
  }

  /// `escaped` (already a JSON string's inside) with `characters`, and with `nonASCII` every
  /// character outside ASCII, written as `\uXXXX` (a surrogate pair above the BMP).
  private static func unicodeEscaped(
    _ escaped: String, characters: String, upper: Bool, nonASCII: Bool = false
  ) -> String {
    var result = ""
    for scalar in escaped.unicodeScalars {
      let escapes =
        (nonASCII && !scalar.isASCII)
        || (scalar.isASCII && characters.unicodeScalars.contains(scalar))
      guard escapes else {
        result.unicodeScalars.append(scalar)
        continue
      }
      for unit in String(scalar).utf16 {
        let hex = String(unit, radix: 16, uppercase: upper)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      }
    }
    return result
  }

  /// `value` with each UTF-16 unit as `\uXXXX`, hex in lower case.
  private static func everyCharacterEscaped(_ value: String) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(value.utf16.count * 6)
    for unit in value.utf16 {
      bytes += [UInt8(ascii: "\\"), UInt8(ascii: "u")]
      for shift in [12, 8, 4, 0] { bytes.append(hexDigits[Int((unit >> UInt16(shift)) & 15)]) }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func hexEscape(_ byte: UInt8, upper: Bool) -> String {
    let digits = upper ? upperHexDigits : hexDigits
    return String(
      decoding: [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 15)]], as: UTF8.self)
  }

  // Not `String(format:)`: Foundation's formatting cost a fifth of remembering a value.
  private static let hexDigits = Array("0123456789abcdef".utf8)
  private static let upperHexDigits = Array("0123456789ABCDEF".utf8)

  /// `text` with the hex digits of its percent escapes in lower case.
  private static func lowerCasedEscapes(_ text: String) -> String {
    guard text.contains(bytes: "%") else { return text }
    var bytes = Array(text.utf8)
    var index = 0
    while index + 2 < bytes.count {
      if bytes[index] == UInt8(ascii: "%") {
        for digit in index + 1...index + 2 where ASCIIByte.isLetter(bytes[digit]) {
          bytes[digit] |= 0x20
        }
        index += 3
      } else {
        index += 1
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// RFC 3986's unreserved characters: what the strictest encoders leave as it is.
  private static let unreserved: CharacterSet = {
    var allowed = CharacterSet(charactersIn: "-._~")
    allowed.formUnion(CharacterSet(charactersIn: "a"..."z"))
    allowed.formUnion(CharacterSet(charactersIn: "A"..."Z"))
    allowed.formUnion(CharacterSet(charactersIn: "0"..."9"))
    return allowed
  }()

  private static let alphanumerics: CharacterSet = {
    var allowed = CharacterSet(charactersIn: "a"..."z")
    allowed.formUnion(CharacterSet(charactersIn: "A"..."Z"))
    allowed.formUnion(CharacterSet(charactersIn: "0"..."9"))
    return allowed
  }()

  private static let componentAllowed = unreserved.union(CharacterSet(charactersIn: "!'()*"))

  private static let formAllowed: CharacterSet = {
    var allowed = CharacterSet.urlQueryAllowed
    allowed.remove(charactersIn: "&=+;")
    allowed.insert(" ")
    return allowed
  }()
}
