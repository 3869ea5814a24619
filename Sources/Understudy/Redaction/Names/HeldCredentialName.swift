import Foundation

/// A credential whose name is held in a value, not in a key: an object that says what it holds
/// in one member and holds it in another.
///
///     {"name": "DB_PASSWORD", "value": "…"}              Kubernetes env
///     {"Name": "/prod/db/password", "Value": "…"}        AWS SSM
///     {"ParameterKey": "DbPassword", "ParameterValue": "…"}  CloudFormation
///     {"key": "api_token", "value": "…"}                 Postman
///
///     {"type": "password", "value": "…"}                Keycloak credential
///     {"label": "API key", "value": "…"}                 a vault's field
///     {"op": "replace", "path": "/password", "value": "…"}  JSON Patch
///     {"key": "db.password", "value": {"stringValue": "…"}}  OpenTelemetry attribute
///     {"keyName": "key1", "value": "…"}                  Azure's listKeys
///     [["DB_PASSWORD", "…"]]                             a list of pairs
///
/// A name member is one of ``nameKeys`` in any case or separator; a value member is `value` or
/// `parameterValue`, holding a string, a number or a small object (OpenTelemetry's
/// `{"stringValue": …}`). `id` is not a name member: ids are opaque, and an id that reads as a
/// credential's name (`"id": "token"`) names a record far more often than it says what a
/// sibling holds. When a name member holds a string that reads as a credential's name by the
/// same judgement as a member's own name (whole; for a path `/prod/db/password` its last
/// segment; base64 of such a name, as etcd writes keys), its sibling value member is a
/// credential of that name: redaction writes `<redacted:password>` (the placeholder named after
/// what was held) and masking masks it. A `keyName` names a key, so what it holds is judged as
/// a key's name (`key1` as `key1 key`, a credential's; `sort` as `sort key`, an everyday one).
/// An array of two strings whose first reads so holds the credential in its second.
/// `{"name": "page_size", "value": "50"}` and `{"type": "key", "value": "Enter"}` are kept.
enum HeldCredentialName {
  /// Member names whose string says what a sibling value member holds, normalised.
  static let nameKeys: Set<String> = [
    "name", "key", "parameterkey", "keyname", "type", "field", "fieldname", "label", "path",
    "title",
  ]
  /// The name member whose string names a key.
  static let keyNamingKey = "keyname"

  /// Whether a member named `key` holds what its object's value member is.
  static func isNameKey(_ key: String) -> Bool {
    guard key.utf8.count <= 14 else { return false }
    return nameKeys.contains(CredentialName.normalised(key))
  }

  /// Whether a member named `key` names a key (``keyNamingKey``).
  static func namesAKey(_ key: String) -> Bool {
    key.utf8.count <= 10 && CredentialName.normalised(key) == keyNamingKey
  }

  /// Whether a member named `key` holds what its object's name member says.
  static func isValueKey(_ key: String) -> Bool {
    guard key.utf8.count <= 16 else { return false }
    let normalised = CredentialName.normalised(key)
    return normalised == "value" || normalised == "parametervalue"
  }

  /// What a member is by the bytes of its name (between the quotes, no escapes).
  enum Kind { case name, keyName, value }

  /// The member's kind, read from its name's bytes without building a String: the walk over a
  /// body's millions of members pays a few comparisons for each.
  static func kind(utf8 name: UnsafeBufferPointer<UInt8>) -> Kind? {
    // Bounds compared, not `(3...16).contains`: a generic call at `-Onone`, once a member.
    guard name.count >= 3, name.count <= 16 else { return nil }
    let first = name[0]
    // Only the keys that start with the name's first letter are compared: a body's members are
    // mostly other names, and each comparison is a loop the debug build runs slowly.
    switch first | 0x20 {
    case UInt8(ascii: "n"): return folds(name, to: "name") ? .name : nil
    case UInt8(ascii: "k"):
      if folds(name, to: "key") { return .name }
      return folds(name, to: "keyname") ? .keyName : nil
    case UInt8(ascii: "p"):
      if folds(name, to: "path") || folds(name, to: "parameterkey") { return .name }
      return folds(name, to: "parametervalue") ? .value : nil
    case UInt8(ascii: "v"): return folds(name, to: "value") ? .value : nil
    case UInt8(ascii: "t"): return folds(name, to: "type") || folds(name, to: "title") ? .name : nil
    case UInt8(ascii: "f"):
      return folds(name, to: "field") || folds(name, to: "fieldname") ? .name : nil
    case UInt8(ascii: "l"): return folds(name, to: "label") ? .name : nil
    default: return nil
    }
  }

  /// Whether `name` is `target` (lower-case letters) in any case, with `_`, `-` or `.` between
  /// its letters; compared in place, with no array built.
  private static func folds(_ name: UnsafeBufferPointer<UInt8>, to target: StaticString) -> Bool {
    var index = 0
    let count = target.utf8CodeUnitCount
    let letters = target.utf8Start
    // A counted loop and literals: `for … in` and `UInt8(ascii:)` are calls per byte at `-Onone`.
    var position = 0
    while position < name.count {
      let byte = name[position]
      position += 1
      if byte == 0x5F || byte == 0x2D || byte == 0x2E { continue }  // _ - .
      guard index < count, byte | 0x20 == letters[index] else { return false }
      index += 1
    }
    return index == count
  }

  /// The credential's placeholder name `held` gives, by `isCredential` (the member-name
  /// judgement); `nil` when it names no credential. A path is judged by its last segment too,
  /// and named after it.
  static func placeholderName(
    held: String, namingAKey: Bool = false, isCredential: (String) -> Bool
  ) -> String? {
    guard !held.isEmpty, held.utf8.count <= 200 else { return nil }
    if namingAKey {
      return isCredential(held + " key") ? RedactionPlaceholder.name(from: "key") : nil
    }
    // etcd and Consul write keys in base64: `L2FwcC9kYi9wYXNzd29yZA==` is `/app/db/password`.
    if held.utf8.count >= 8, let decoded = Base64Body.decoded(held),
      let name = placeholderName(held: decoded.text, isCredential: isCredential)
    {
      return name
    }
    if isCredential(held) {
      let last = lastSegment(of: held)
      return RedactionPlaceholder.name(from: last.isEmpty ? held : last)
    }
    let last = lastSegment(of: held)
    guard !last.isEmpty, last != held, isCredential(last) else { return nil }
    return RedactionPlaceholder.name(from: last)
  }

  private static func lastSegment(of held: String) -> String {
    guard let slash = held.lastIndex(where: { $0 == "/" || $0 == ":" }) else { return held }
    return String(held[held.index(after: slash)...])
  }

  /// Whether the JSON bytes `start..<end`, between two members' values, stay in one object:
  /// no container is left, and every one opened is closed. Ends at the first container left,
  /// which for members of different objects comes within their own object's end.
  static func joinsSiblings(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int)
    -> Bool
  {
    var depth = 0
    var index = start
    while index < end {
      switch bytes[index] {
      case UInt8(ascii: "\""):
        index += 1
        while index < end, bytes[index] != UInt8(ascii: "\"") {
          index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
        }
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
        if depth < 0 { return false }
      default:
        break
      }
      index += 1
    }
    return depth == 0
  }

  /// The value members that a sibling name member makes credentials, each with its placeholder
  /// name. `names` are the ranges of name members' string values, `values` the value members'
  /// value ranges, each in document order or not; `judge` gives the placeholder name for a
  /// held name's range, or `nil` for a name that is no credential's. Only a name member with a
  /// sibling value member is judged, so a body of many `{"name": "Ada"}` pays no judgement.
  /// Each value looks at the few nearest name members on either side: a short scan per value.
  static func pairs(
    names: [Range<Int>], values: [Range<Int>], in bytes: UnsafeBufferPointer<UInt8>,
    judge: (Range<Int>) -> String?
  ) -> [(range: Range<Int>, name: String)] {
    guard !names.isEmpty, !values.isEmpty else { return [] }
    let names = names.sorted { $0.lowerBound < $1.lowerBound }
    var judged: [Int: String?] = [:]
    func name(at index: Int) -> String? {
      if let known = judged[index] { return known }
      let found = judge(names[index])
      judged[index] = found
      return found
    }
    let nearest = 4
    var result: [(range: Range<Int>, name: String)] = []
    for value in values {
      // The first name member after the value.
      var low = 0
      var high = names.count
      while low < high {
        let middle = (low + high) / 2
        if names[middle].lowerBound < value.lowerBound {
          low = middle + 1
        } else {
          high = middle
        }
      }
      var found: String?
      for index in stride(from: low - 1, through: max(0, low - nearest), by: -1)
      where found == nil
        && joinsSiblings(bytes, from: names[index].upperBound, to: value.lowerBound)
      {
        found = name(at: index)
      }
      for index in low..<min(names.count, low + nearest)
      where found == nil
        && joinsSiblings(bytes, from: value.upperBound, to: names[index].lowerBound)
      {
        found = name(at: index)
      }
      if let found { result.append((value, found)) }
    }
    return result
  }

  // MARK: Text that is not read as JSON

  private static let nameKey =
    #"((?i:name|key|parameter[_-]?key|key[_-]?name|type|field[_-]?name|field|label|path|title))"#
  private static let valueKey = #"(?i:value|parameter_?value)"#
  private static let string = #""((?:[^"\\\n]|\\.){1,200})""#
  private static let value = #"("(?:[^"\\\n]|\\.)*"|-?[0-9][0-9.eE+-]*|\{[^{}\n]{1,200}\})"#

  /// A name member and then its value member, next to each other: group 1 holds the name
  /// member's key, 2 the name, 3 the value (quotes included when a string).
  static let nameThenValue = SharedRegex(
    literal: #"""# + nameKey + #""\s*:\s*"# + string + #"\s*,\s*""# + valueKey + #""\s*:\s*"#
      + value)
  /// A value member and then its name member: group 1 holds the value, 2 the name member's key,
  /// 3 the name.
  static let valueThenName = SharedRegex(
    literal: #"""# + valueKey + #""\s*:\s*"# + value + #"\s*,\s*""# + nameKey + #""\s*:\s*"#
      + string)
  /// An array of two strings: group 1 holds the name, 2 the value (quotes included).
  static let arrayPair = SharedRegex(
    literal: #"\[\s*"# + string + #"\s*,\s*("(?:[^"\\\n]|\\.)*")\s*\]"#)

  /// Each pair of neighbouring name and value members in `text` whose name member holds a
  /// credential's name, and each array of two strings: the held name's contents (as written),
  /// whether it names a key (``keyNamingKey``), and the value's range.
  static func neighbours(in text: String)
    -> [(held: Substring, namesAKey: Bool, value: Range<String.Index>)]
  {
    var found: [(held: Substring, namesAKey: Bool, value: Range<String.Index>)] = []
    if text.contains(bytes: "\":") {
      for (regex, keyGroup, heldGroup, valueGroup) in [
        (nameThenValue, 1, 2, 3), (valueThenName, 2, 3, 1),
      ] {
        for match in regex.matches(in: text) {
          guard let key = Range(match.range(at: keyGroup), in: text),
            let held = Range(match.range(at: heldGroup), in: text),
            let value = Range(match.range(at: valueGroup), in: text)
          else { continue }
          found.append((text[held], namesAKey(String(text[key])), value))
        }
      }
    }
    if text.contains(bytes: "[") {
      for match in arrayPair.matches(in: text) {
        guard let held = Range(match.range(at: 1), in: text),
          let value = Range(match.range(at: 2), in: text)
        else { continue }
        found.append((text[held], false, value))
      }
    }
    return found
  }

  /// Each array of exactly two strings in the JSON document `bytes` that is an element of an
  /// array or the document itself (`[["DB_PASSWORD", "…"]]`):
  /// the first string's range (quotes included), then the second's. Found from each `[` by
  /// `memchr`, so the bytes between arrays are never visited in Swift.
  static func arrayPairs(in bytes: UnsafeBufferPointer<UInt8>) -> [(
    held: Range<Int>, value: Range<Int>
  )] {
    var found: [(held: Range<Int>, value: Range<Int>)] = []
    var from = 0
    while let open = EmbeddedQueryPairs.next(UInt8(ascii: "["), in: bytes, from: from) {
      from = open + 1
      // An element of a list of pairs, or the whole document; a member's own value
      // (`"tags": ["sale", "new"]`) is a list of two, not a pair.
      var before = open - 1
      while before >= 0, ASCIIByte.isJSONWhitespace(bytes[before]) { before -= 1 }
      guard before < 0 || bytes[before] == UInt8(ascii: "[") || bytes[before] == UInt8(ascii: ",")
      else { continue }
      guard let first = string(after: open + 1, in: bytes),
        let comma = skipBlanks(from: first.upperBound, in: bytes),
        bytes[comma] == UInt8(ascii: ","),
        let second = string(after: comma + 1, in: bytes),
        let close = skipBlanks(from: second.upperBound, in: bytes),
        bytes[close] == UInt8(ascii: "]"), first.count > 2
      else { continue }
      found.append((first, second))
    }
    return found
  }

  /// The string that starts after blanks at `start`, quotes included.
  private static func string(after start: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> Range<Int>?
  {
    guard let open = skipBlanks(from: start, in: bytes), bytes[open] == UInt8(ascii: "\""),
      let close = JSONStringText.closingQuote(after: open, in: bytes)
    else { return nil }
    return open..<(close + 1)
  }

  private static func skipBlanks(from start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var index = start
    while index < bytes.count, ASCIIByte.isJSONWhitespace(bytes[index]) { index += 1 }
    return index < bytes.count ? index : nil
  }
}
