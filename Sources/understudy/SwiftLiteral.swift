import Understudy

/// Swift source text for values, as `stub` writes them into generated code.
enum SwiftLiteral {
  /// A string literal that reads back as `text`: plain when it can be, raw (`#"…"#`) when it
  /// holds quotes or backslashes, escaped when it holds line breaks or other control
  /// characters.
  static func string(_ text: String) -> String {
    let hasControlCharacters = text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    if !hasControlCharacters, text.contains("\"") || text.contains("\\") {
      var hashes = "#"
      while text.contains("\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
      return hashes + "\"" + text + "\"" + hashes
    }
    var literal = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": literal += "\\\""
      case "\\": literal += "\\\\"
      case "\n": literal += "\\n"
      case "\r": literal += "\\r"
      case "\t": literal += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        literal += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default: literal.unicodeScalars.append(scalar)
      }
    }
    return literal + "\""
  }

  /// A `JSONValue` literal with object keys sorted, so the same JSON always gives the same code.
  static func json(_ value: JSONValue) -> String {
    switch value {
    case .null: return "nil"
    case .bool(let flag): return String(flag)
    case .number(let number):
      if number.rounded() == number, abs(number) < 9_007_199_254_740_992 {
        return String(Int64(number))
      }
      return "\(number)"
    case .string(let text): return string(text)
    case .array(let elements): return "[" + elements.map(json).joined(separator: ", ") + "]"
    case .object(let members):
      guard !members.isEmpty else { return "[:]" }
      return "["
        + members.sorted { $0.key < $1.key }.map { string($0.key) + ": " + json($0.value) }
        .joined(separator: ", ") + "]"
    }
  }

  /// A `[String: String]` or `HTTPHeaders` literal of `pairs`, in order: a dictionary literal
  /// when the names are unique, otherwise `HTTPHeaders([.init(name:value:), …])`, since a
  /// dictionary literal with a repeated key traps.
  static func headers(_ pairs: [(name: String, value: String)]) -> String {
    let names = pairs.map { $0.name.lowercased() }
    if Set(names).count == names.count {
      return dictionary(pairs)
    }
    return "HTTPHeaders(["
      + pairs.map { ".init(name: \(string($0.name)), value: \(string($0.value)))" }
      .joined(separator: ", ") + "])"
  }

  /// `["a": "b", "c": "d"]`, or `[:]`.
  static func dictionary(_ pairs: [(name: String, value: String)]) -> String {
    guard !pairs.isEmpty else { return "[:]" }
    return "[" + pairs.map { string($0.name) + ": " + string($0.value) }.joined(separator: ", ")
      + "]"
  }
}
