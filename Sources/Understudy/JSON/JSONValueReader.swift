/// A direct UTF-8 JSON reader for the common case, so JSON body matchers do not pay for
/// `JSONDecoder`.
///
/// `JSONValue`'s `Decodable` initialiser has to guess each value's type by trying Bool, Double,
/// String, array and object in turn, and every wrong guess throws a `DecodingError`: the benchmark
/// measured JSON decoding at a third of the process's CPU time with four JSON matchers on one
/// route. This reader builds the same values in one pass over ``JSONScanner``'s tokens. It accepts
/// only input it is sure about (strict RFC 8259 in UTF-8, no duplicate keys, finite numbers,
/// modest nesting) and returns `nil` for anything else, which then goes to `JSONDecoder` as
/// before, so edge cases and error messages stay exactly what they were.
struct JSONValueReader {
  private var scanner: JSONScanner
  private var depth = 0

  private static let maximumDepth = 256

  /// The value in `data`, or `nil` when the input needs `JSONDecoder`'s judgement.
  static func parse(_ data: Data) -> JSONValue? {
    data.withUnsafeBytes { bytes in
      var parser = JSONValueReader(scanner: JSONScanner(bytes))
      guard let value = parser.value() else { return nil }
      parser.scanner.skipWhitespace()
      // Not a ternary: JSONValue is ExpressibleByNilLiteral, so `nil` there would mean `.null`.
      guard parser.scanner.isAtEnd else { return nil }
      return value
    }
  }

  private init(scanner: JSONScanner) {
    self.scanner = scanner
  }

  private mutating func value() -> JSONValue? {
    scanner.skipWhitespace()
    guard let byte = scanner.current else { return nil }
    switch byte {
    case UInt8(ascii: "{"): return object()
    case UInt8(ascii: "["): return array()
    case UInt8(ascii: "\""): return string().map(JSONValue.string)
    case UInt8(ascii: "t"): return scanner.scanLiteral("true") ? .bool(true) : nil
    case UInt8(ascii: "f"): return scanner.scanLiteral("false") ? .bool(false) : nil
    case UInt8(ascii: "n"): return scanner.scanLiteral("null") ? .null : nil
    default:
      guard let range = scanner.scanNumber(), let number = scanner.double(range) else {
        return nil
      }
      return .number(number)
    }
  }

  private mutating func string() -> String? {
    scanner.scanString().map { JSONScanner.decode($0, in: scanner.bytes) }
  }

  private mutating func object() -> JSONValue? {
    depth += 1
    defer { depth -= 1 }
    guard depth <= Self.maximumDepth else { return nil }
    scanner.index += 1  // {
    var members: [String: JSONValue] = [:]
    scanner.skipWhitespace()
    if scanner.consume(UInt8(ascii: "}")) { return .object(members) }
    while true {
      scanner.skipWhitespace()
      guard scanner.current == UInt8(ascii: "\""), let key = string() else { return nil }
      scanner.skipWhitespace()
      guard scanner.consume(UInt8(ascii: ":")) else { return nil }
      // A repeated key is left to JSONDecoder, whose choice between the values is the reference.
      guard let member = value(), members.updateValue(member, forKey: key) == nil else {
        return nil
      }
      scanner.skipWhitespace()
      if scanner.consume(UInt8(ascii: "}")) { return .object(members) }
      guard scanner.consume(UInt8(ascii: ",")) else { return nil }
    }
  }

  private mutating func array() -> JSONValue? {
    depth += 1
    defer { depth -= 1 }
    guard depth <= Self.maximumDepth else { return nil }
    scanner.index += 1  // [
    var elements: [JSONValue] = []
    scanner.skipWhitespace()
    if scanner.consume(UInt8(ascii: "]")) { return .array(elements) }
    while true {
      guard let element = value() else { return nil }
      elements.append(element)
      scanner.skipWhitespace()
      if scanner.consume(UInt8(ascii: "]")) { return .array(elements) }
      guard scanner.consume(UInt8(ascii: ",")) else { return nil }
    }
  }
}
