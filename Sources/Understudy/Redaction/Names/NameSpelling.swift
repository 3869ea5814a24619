import Foundation

/// A name spelled in escapes, read as the program that reads it reads it: `p\u{61}ssword` in
/// JavaScript, `p\u0061ssword` in JSON, `p\x61ssword` in Python or YAML, `pass%77ord` in a
/// URL, `&#x70;assword` in a page, and a MIME header's encoded word (RFC 2047:
/// `=?UTF-8?B?cGFzc3dvcmQ=?=`, `=?UTF-8?Q?pass=77ord?=`) in a multipart part's name.
///
/// ``CredentialName/matches(_:)`` and ``CredentialWords/isCredential(_:at:)`` judge a name
/// after this reading, so every reader that finds a name (a JSON member, a pair, an XML element,
/// a multipart part, an assignment) judges it decoded without undoing escapes of its own. A
/// name with no `\`, `%`, `&` or `=?` costs one look at its bytes.
///
/// An escape is undone only where it spells a character a name is made of: a letter or a digit
/// of any script, `_`, `-`, `.` or a space. One that spells `<`, `>`, a quote or `:` stays as
/// written: the text around a placeholder (`password%3E`, the end of `%3Credacted:password%3E`)
/// is no name that spells `password>`.
enum NameSpelling {
  /// `name` with its escapes undone, or `nil` when it holds none that decode. Decoded up to
  /// three times, so an escape inside another (`%5Cu0070assword`) is read too.
  static func decoded(_ name: String) -> String? {
    guard mayHoldEscape(name) else { return nil }
    var current = name
    for _ in 0..<3 {
      var next = current
      if let words = encodedWords(next) { next = words }
      if let percent = percentDecoded(next) { next = percent }
      if let references = HTMLCharacterReferences.decoded(next) { next = references }
      if let escapes = backslashDecoded(next) { next = escapes }
      guard next != current else { break }
      current = next
    }
    return current == name ? nil : current
  }

  /// Whether `name` holds a byte that starts an escape.
  private static func mayHoldEscape(_ name: String) -> Bool {
    // A counted loop over the bytes in place: this runs for every name judged, and a closure
    // per byte is a call at `-Onone`, what `swift test` compiles.
    let found = name.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
      var index = 0
      while index < bytes.count {
        let byte = bytes[index]
        if byte == 0x5C || byte == 0x25 || byte == 0x26 || byte == 0x3F { return true }  // \ % & ?
        index += 1
      }
      return false
    }
    return found ?? name.utf8.contains { $0 == 0x5C || $0 == 0x25 || $0 == 0x26 || $0 == 0x3F }
  }

  /// `%XX` escapes of a name's characters decoded (bytes of a character outside ASCII too),
  /// when the result is UTF-8.
  private static func percentDecoded(_ name: String) -> String? {
    let bytes = Array(name.utf8)
    guard bytes.contains(UInt8(ascii: "%")) else { return nil }
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var index = 0
    var changed = false
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
        ASCIIByte.isHexDigit(bytes[index + 1]), ASCIIByte.isHexDigit(bytes[index + 2]),
        let byte = UInt8(
          String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self), radix: 16),
        byte >= 0x80 || isNameCharacter(Unicode.Scalar(byte))
      {
        result.append(byte)
        index += 3
        changed = true
        continue
      }
      result.append(bytes[index])
      index += 1
    }
    guard changed, let decoded = String(bytes: result, encoding: .utf8) else { return nil }
    return decoded
  }

  /// Whether `scalar` is a character a name is made of: a letter or a digit of any script,
  /// `_`, `-`, `.` or a space.
  private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar == "_"
      || scalar == "-" || scalar == "." || scalar == " "
  }

  /// Backslash escapes of a name's characters decoded: `\uXXXX` (a surrogate pair as one
  /// character), `\u{X…}`, `\xHH`, `\UXXXXXXXX`, and `\` before a name's character (`\-`,
  /// `\_`); `nil` when `name` has none, or an escape is malformed or spells another character.
  private static func backslashDecoded(_ name: String) -> String? {
    guard name.utf8.contains(UInt8(ascii: "\\")) else { return nil }
    var scalars = Array(name.unicodeScalars)[...]
    var result = String.UnicodeScalarView()
    var pendingHigh: UInt32?
    func hex(_ digits: Int) -> UInt32? {
      guard scalars.count >= digits else { return nil }
      let text = String(String.UnicodeScalarView(scalars.prefix(digits)))
      guard text.unicodeScalars.allSatisfy({ $0.properties.isASCIIHexDigit }) else { return nil }
      scalars = scalars.dropFirst(digits)
      return UInt32(text, radix: 16)
    }
    while let scalar = scalars.popFirst() {
      guard scalar == "\\" else {
        result.append(scalar)
        continue
      }
      guard let escape = scalars.popFirst() else { return nil }
      var value: UInt32?
      switch escape {
      case "u":
        if scalars.first == "{" {
          scalars = scalars.dropFirst()
          guard let close = scalars.firstIndex(of: "}"), close - scalars.startIndex <= 6 else {
            return nil
          }
          value = UInt32(String(String.UnicodeScalarView(scalars[..<close])), radix: 16)
          scalars = scalars[(close + 1)...]
        } else {
          value = hex(4)
        }
      case "x": value = hex(2)
      case "U": value = hex(8)
      case "n", "r", "t", "0": return nil
      default: value = escape.value
      }
      guard let value else { return nil }
      if (0xD800...0xDBFF).contains(value) {
        pendingHigh = value
        continue
      }
      var code = value
      if let high = pendingHigh, (0xDC00...0xDFFF).contains(value) {
        code = 0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00)
      }
      pendingHigh = nil
      guard let decoded = Unicode.Scalar(code), isNameCharacter(decoded) else { return nil }
      result.append(decoded)
    }
    let decoded = String(result)
    return decoded == name ? nil : decoded
  }

  /// RFC 2047's encoded words decoded (`=?charset?B?…?=` as base64, `=?charset?Q?…?=` as
  /// quoted-printable with `_` for a space), in UTF-8, US-ASCII or Latin-1; `nil` when `name`
  /// holds none.
  static func encodedWords(_ name: String) -> String? {
    guard name.contains("=?") else { return nil }
    var result = ""
    var rest = name[...]
    var decodedAny = false
    while let open = rest.range(of: "=?") {
      let head = rest[open.upperBound...]
      let parts = head.split(separator: "?", maxSplits: 3, omittingEmptySubsequences: false)
      guard parts.count == 4, parts[3].hasPrefix("="),
        let text = decodedWord(
          charset: String(parts[0]), encoding: String(parts[1]), text: String(parts[2]))
      else {
        result += rest[..<open.upperBound]
        rest = rest[open.upperBound...]
        continue
      }
      // Blanks between two encoded words are no part of the text.
      let before = rest[..<open.lowerBound]
      if !(decodedAny && before.allSatisfy { $0 == " " || $0 == "\t" }) { result += before }
      result += text
      decodedAny = true
      rest = parts[3].dropFirst()
    }
    guard decodedAny else { return nil }
    return result + rest
  }

  private static func decodedWord(charset: String, encoding: String, text: String) -> String? {
    let bytes: [UInt8]
    switch encoding.uppercased() {
    case "B":
      var padded = text
      while padded.utf8.count % 4 != 0 { padded += "=" }
      guard let data = Data(base64Encoded: padded) else { return nil }
      bytes = Array(data)
    case "Q":
      var decoded: [UInt8] = []
      let utf8 = Array(text.utf8)
      var index = 0
      while index < utf8.count {
        let byte = utf8[index]
        if byte == UInt8(ascii: "_") {
          decoded.append(0x20)
        } else if byte == UInt8(ascii: "="), index + 2 < utf8.count,
          let value = UInt8(
            String(decoding: utf8[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
        {
          decoded.append(value)
          index += 2
        } else {
          decoded.append(byte)
        }
        index += 1
      }
      bytes = decoded
    default:
      return nil
    }
    // A language after `*` (RFC 2231: `UTF-8*en`) says nothing about the bytes.
    let name = charset.lowercased().split(separator: "*").first.map(String.init) ?? ""
    switch name {
    case "utf-8", "utf8", "us-ascii":
      return String(bytes: bytes, encoding: .utf8)
    case "iso-8859-1", "latin1", "windows-1252":
      return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    default:
      return nil
    }
  }
}
