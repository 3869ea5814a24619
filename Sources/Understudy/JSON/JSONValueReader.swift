/// A direct UTF-8 JSON reader for the common case, so JSON body matchers do not pay for
/// `JSONDecoder`.
///
/// `JSONValue`'s `Decodable` initialiser has to guess each value's type by trying Bool, Double,
/// String, array and object in turn, and every wrong guess throws a `DecodingError`: the benchmark
/// measured JSON decoding at a third of the process's CPU time with four JSON matchers on one
/// route. This reader builds the same values in one pass. It accepts only input it is sure about
/// (strict RFC 8259 in UTF-8, no duplicate keys, finite numbers, modest nesting) and returns `nil`
/// for anything else, which then goes to `JSONDecoder` as before, so edge cases and error messages
/// stay exactly what they were.
struct JSONValueReader {
  private let bytes: UnsafeRawBufferPointer
  private var index = 0
  private var depth = 0

  private static let maximumDepth = 256

  /// The value in `data`, or `nil` when the input needs `JSONDecoder`'s judgement.
  static func parse(_ data: Data) -> JSONValue? {
    data.withUnsafeBytes { bytes in
      var parser = JSONValueReader(bytes: bytes)
      guard let value = parser.value() else { return nil }
      parser.skipWhitespace()
      // Not a ternary: JSONValue is ExpressibleByNilLiteral, so `nil` there would mean `.null`.
      guard parser.index == bytes.count else { return nil }
      return value
    }
  }

  private init(bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
  }

  private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  private mutating func skipWhitespace() {
    while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
      index += 1
    }
  }

  private mutating func value() -> JSONValue? {
    skipWhitespace()
    guard let byte = current else { return nil }
    switch byte {
    case UInt8(ascii: "{"): return object()
    case UInt8(ascii: "["): return array()
    case UInt8(ascii: "\""): return string().map(JSONValue.string)
    case UInt8(ascii: "t"): return literal("true", .bool(true))
    case UInt8(ascii: "f"): return literal("false", .bool(false))
    case UInt8(ascii: "n"): return literal("null", .null)
    default: return number()
    }
  }

  private mutating func literal(_ text: StaticString, _ value: JSONValue) -> JSONValue? {
    let count = text.utf8CodeUnitCount
    guard index + count <= bytes.count else { return nil }
    for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] {
      return nil
    }
    index += count
    return value
  }

  private mutating func object() -> JSONValue? {
    depth += 1
    defer { depth -= 1 }
    guard depth <= Self.maximumDepth else { return nil }
    index += 1  // {
    var members: [String: JSONValue] = [:]
    skipWhitespace()
    if current == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard current == UInt8(ascii: "\""), let key = string() else { return nil }
      skipWhitespace()
      guard current == UInt8(ascii: ":") else { return nil }
      index += 1
      // A repeated key is left to JSONDecoder, whose choice between the values is the reference.
      guard let member = value(), members.updateValue(member, forKey: key) == nil else {
        return nil
      }
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "}"):
        index += 1
        return .object(members)
      default: return nil
      }
    }
  }

  private mutating func array() -> JSONValue? {
    depth += 1
    defer { depth -= 1 }
    guard depth <= Self.maximumDepth else { return nil }
    index += 1  // [
    var elements: [JSONValue] = []
    skipWhitespace()
    if current == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      guard let element = value() else { return nil }
      elements.append(element)
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "]"):
        index += 1
        return .array(elements)
      default: return nil
      }
    }
  }

  /// A string starting at the opening quote; `nil` for control characters, invalid escapes,
  /// unpaired surrogates or invalid UTF-8.
  private mutating func string() -> String? {
    index += 1  // "
    let start = index
    var sawEscape = false
    var sawNonASCII = false
    while let byte = current {
      switch byte {
      case UInt8(ascii: "\""):
        let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
        index += 1
        return sawEscape ? unescape(raw) : utf8String(raw, checked: sawNonASCII)
      case UInt8(ascii: "\\"):
        sawEscape = true
        index += 2
      case ..<0x20:
        return nil
      default:
        if byte >= 0x80 { sawNonASCII = true }
        index += 1
      }
    }
    return nil
  }

  private func utf8String(_ raw: UnsafeRawBufferPointer, checked: Bool) -> String? {
    let text = String(decoding: raw, as: UTF8.self)
    // Decoding replaces invalid UTF-8 with U+FFFD; an input that had no U+FFFD of its own but
    // gained one was invalid, so it goes to JSONDecoder.
    if checked && text.unicodeScalars.contains("\u{FFFD}") { return nil }
    return text
  }

  private func unescape(_ raw: UnsafeRawBufferPointer) -> String? {
    var scalars = String.UnicodeScalarView()
    var plain = 0  // start of the run of bytes without escapes
    var position = 0
    while position < raw.count {
      guard raw[position] == UInt8(ascii: "\\") else {
        position += 1
        continue
      }
      guard
        let run = utf8String(
          UnsafeRawBufferPointer(rebasing: raw[plain..<position]), checked: true),
        position + 1 < raw.count
      else { return nil }
      scalars.append(contentsOf: run.unicodeScalars)
      let escape = raw[position + 1]
      position += 2
      switch escape {
      case UInt8(ascii: "\""): scalars.append("\"")
      case UInt8(ascii: "\\"): scalars.append("\\")
      case UInt8(ascii: "/"): scalars.append("/")
      case UInt8(ascii: "b"): scalars.append("\u{08}")
      case UInt8(ascii: "f"): scalars.append("\u{0C}")
      case UInt8(ascii: "n"): scalars.append("\n")
      case UInt8(ascii: "r"): scalars.append("\r")
      case UInt8(ascii: "t"): scalars.append("\t")
      case UInt8(ascii: "u"):
        guard let unit = hex4(raw, at: position) else { return nil }
        position += 4
        if let scalar = Unicode.Scalar(unit) {
          scalars.append(scalar)
        } else {
          // A high surrogate must be followed by \u and a low surrogate.
          guard (0xD800..<0xDC00).contains(unit), position + 6 <= raw.count,
            raw[position] == UInt8(ascii: "\\"), raw[position + 1] == UInt8(ascii: "u"),
            let low = hex4(raw, at: position + 2), (0xDC00..<0xE000).contains(low),
            let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
          else { return nil }
          position += 6
          scalars.append(scalar)
        }
      default:
        return nil
      }
      plain = position
    }
    guard
      let tail = utf8String(UnsafeRawBufferPointer(rebasing: raw[plain...]), checked: true)
    else { return nil }
    scalars.append(contentsOf: tail.unicodeScalars)
    return String(scalars)
  }

  private func hex4(_ raw: UnsafeRawBufferPointer, at position: Int) -> UInt32? {
    guard position + 4 <= raw.count else { return nil }
    var value: UInt32 = 0
    for offset in 0..<4 {
      let byte = raw[position + offset]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: return nil
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, as a finite Double.
  private mutating func number() -> JSONValue? {
    let start = index
    func digits() -> Int {
      let first = index
      while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
        index += 1
      }
      return index - first
    }
    if current == UInt8(ascii: "-") { index += 1 }
    if current == UInt8(ascii: "0") {
      index += 1
    } else {
      guard digits() > 0 else { return nil }
    }
    if current == UInt8(ascii: ".") {
      index += 1
      guard digits() > 0 else { return nil }
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      index += 1
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
      guard digits() > 0 else { return nil }
    }
    let text = String(
      decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    guard let number = Double(text), number.isFinite else { return nil }
    return .number(number)
  }
}
