/// A JSON document as a value: what `.jsonBody` compares, written with literals.
///
/// ```swift
/// let expected: JSONValue = ["name": "Ann", "roles": ["admin"], "age": 41, "manager": nil]
/// let parsed = try JSONValue(parsing: Data(#"{"ok": true}"#.utf8))
/// ```
///
/// Parsing goes through `JSONDecoder` into this type's own `Decodable` initialiser, which keeps
/// `true` a Boolean and `1` a number on every platform (`JSONSerialization` hands back `NSNumber`,
/// which blurs the two on Linux). Numbers are `Double`, so `1` and `1.0` are equal; integers
/// beyond 2^53 lose precision.
public enum JSONValue: Sendable, Hashable, Codable, CustomStringConvertible,
  ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number.
  case number(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object; key order is not significant.
  case object([String: JSONValue])

  /// Parses a JSON document; top-level scalars such as `42` are accepted.
  ///
  /// - Throws: `DecodingError` when `data` is not JSON.
  public init(parsing data: Data) throws {
    // The direct reader handles ordinary UTF-8 JSON; anything it is unsure of, errors included,
    // goes through JSONDecoder as the reference.
    if let value = JSONValueReader.parse(data) {
      self = value
    } else {
      self = try JSONDecoder().decode(JSONValue.self, from: data)
    }
  }

  /// Parses a JSON document from text; users parse bytes (`Data(text.utf8)`).
  package init(parsing text: String) throws {
    try self.init(parsing: Data(text.utf8))
  }

  /// Decodes any JSON value, trying `Bool` before `Double` so Booleans stay Booleans.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  /// Encodes the value; whole numbers are written without a fraction.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .number(let value):
      if let whole = Self.wholeNumber(value) {
        try container.encode(whole)
      } else {
        try container.encode(value)
      }
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }

  /// `null`.
  public init(nilLiteral: ()) {
    self = .null
  }

  /// A Boolean.
  public init(booleanLiteral value: Bool) {
    self = .bool(value)
  }

  /// A whole number.
  public init(integerLiteral value: Int) {
    self = .number(Double(value))
  }

  /// A number with a fraction.
  public init(floatLiteral value: Double) {
    self = .number(value)
  }

  /// A string.
  public init(stringLiteral value: String) {
    self = .string(value)
  }

  /// An array.
  public init(arrayLiteral elements: JSONValue...) {
    self = .array(elements)
  }

  /// An object; a repeated key keeps its last value.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(Dictionary(elements) { _, last in last })
  }

  /// Compact JSON with keys sorted, such as `{"a":1,"b":[true,null]}`.
  public var description: String {
    switch self {
    case .null: return "null"
    case .bool(let value): return value ? "true" : "false"
    case .number(let value): return Self.wholeNumber(value).map(String.init) ?? "\(value)"
    case .string(let value): return Self.quoted(value)
    case .array(let values): return "[" + values.map(\.description).joined(separator: ",") + "]"
    case .object(let members):
      let fields = members.sorted { $0.key < $1.key }.map {
        Self.quoted($0.key) + ":" + "\($0.value)"
      }
      return "{" + fields.joined(separator: ",") + "}"
    }
  }

  /// The value as an integer when it is whole and exactly representable, so `1.0` prints as `1`.
  private static func wholeNumber(_ value: Double) -> Int64? {
    guard value.rounded() == value, abs(value) < 9_007_199_254_740_992 else { return nil }
    return Int64(value)
  }

  /// `text` as a JSON string literal.
  static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}
