import Foundation

/// A credential whose name is held in a value, not in a key: an object that says what it holds
/// in one member and holds it in another.
///
///     {"name": "DB_PASSWORD", "value": "…"}              Kubernetes env
///     {"Name": "/prod/db/password", "Value": "…"}        AWS SSM
///     {"ParameterKey": "DbPassword", "ParameterValue": "…"}  CloudFormation
///     {"key": "api_token", "value": "…"}                 Postman
///
/// A name member is `name`, `key` or `parameterKey`, in any case or separator; a value member
/// is `value` or `parameterValue`. `id` is not a name member: ids are opaque, and an id that
/// reads as a credential's name (`"id": "token"`) names a record far more often than it says
/// what a sibling holds. When a name member holds a string that reads as a credential's name by
/// the same judgement as a member's own name (whole, or for a path `/prod/db/password` its last
/// segment), its sibling value member is a credential of that name: redaction writes
/// `<redacted:password>` (the placeholder named after what was held) and masking masks it.
/// `{"name": "page_size", "value": "50"}` is kept.
enum HeldCredentialName {
  /// Whether a member named `key` holds what its object's value member is.
  static func isNameKey(_ key: String) -> Bool {
    guard key.utf8.count <= 14 else { return false }
    let normalised = CredentialName.normalised(key)
    return normalised == "name" || normalised == "key" || normalised == "parameterkey"
  }

  /// Whether a member named `key` holds what its object's name member says.
  static func isValueKey(_ key: String) -> Bool {
    guard key.utf8.count <= 16 else { return false }
    let normalised = CredentialName.normalised(key)
    return normalised == "value" || normalised == "parametervalue"
  }

  /// What a member is by the bytes of its name (between the quotes, no escapes).
  enum Kind { case name, value }

  /// The member's kind, read from its name's bytes without building a String: the walk over a
  /// body's millions of members pays a few comparisons for each.
  static func kind(utf8 name: UnsafeBufferPointer<UInt8>) -> Kind? {
    guard let first = name.first, (3...16).contains(name.count) else { return nil }
    switch first | 0x20 {
    case UInt8(ascii: "n"), UInt8(ascii: "k"), UInt8(ascii: "p"), UInt8(ascii: "v"): break
    default: return nil
    }
    if folds(name, to: "name") || folds(name, to: "key") || folds(name, to: "parameterkey") {
      return .name
    }
    if folds(name, to: "value") || folds(name, to: "parametervalue") { return .value }
    return nil
  }

  /// Whether `name` is `target` (lower-case letters) in any case, with `_`, `-` or `.` between
  /// its letters; compared in place, with no array built.
  private static func folds(_ name: UnsafeBufferPointer<UInt8>, to target: StaticString) -> Bool {
    var index = 0
    let count = target.utf8CodeUnitCount
    let letters = target.utf8Start
    for byte in name {
      switch byte {
      case UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."): continue
      default:
        guard index < count, byte | 0x20 == letters[index] else { return false }
        index += 1
      }
    }
    return index == count
  }

  /// The credential's placeholder name `held` gives, by `isCredential` (the member-name
  /// judgement); `nil` when it names no credential. A path is judged by its last segment too,
  /// and named after it.
  static func placeholderName(held: String, isCredential: (String) -> Bool) -> String? {
    guard !held.isEmpty, held.utf8.count <= 200 else { return nil }
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

  private static let nameKey = #"(?i:name|key|parameter_?key)"#
  private static let valueKey = #"(?i:value|parameter_?value)"#
  private static let string = #""((?:[^"\\\n]|\\.){1,200})""#
  private static let value = #"("(?:[^"\\\n]|\\.)*"|-?[0-9][0-9.eE+-]*)"#

  /// A name member and then its value member, next to each other: group 1 holds the name, 2 the
  /// value (quotes included when a string).
  static let nameThenValue = SharedRegex(
    literal: #"""# + nameKey + #""\s*:\s*"# + string + #"\s*,\s*""# + valueKey + #""\s*:\s*"#
      + value)
  /// A value member and then its name member: group 1 holds the value, 2 the name.
  static let valueThenName = SharedRegex(
    literal: #"""# + valueKey + #""\s*:\s*"# + value + #"\s*,\s*""# + nameKey + #""\s*:\s*"#
      + string)

  /// Each pair of neighbouring name and value members in `text` whose name member holds a
  /// credential's name: the held name's contents (as written) and the value's range.
  static func neighbours(in text: String)
    -> [(held: Substring, value: Range<String.Index>)]
  {
    guard text.contains(bytes: "\":") else { return [] }
    var found: [(held: Substring, value: Range<String.Index>)] = []
    for (regex, heldGroup, valueGroup) in [(nameThenValue, 1, 2), (valueThenName, 2, 1)] {
      for match in regex.matches(in: text) {
        guard let held = Range(match.range(at: heldGroup), in: text),
          let value = Range(match.range(at: valueGroup), in: text)
        else { continue }
        found.append((text[held], value))
      }
    }
    return found
  }
}
