/// Finds the first place where an actual JSON document departs from an expected one, and names
/// it by its JSON path (`$.user.roles[0]`) so a report points at the one value that differs.
struct JSONDifference {
  enum Mode {
    /// Same values; objects have the same keys, arrays the same elements in order.
    case equal
    /// Every key of an expected object is in the actual object with a subset-matching value;
    /// other keys may be present. Arrays must have the same length and match element by element
    /// in order, since a "subset" of an ordered list has no single obvious meaning.
    case subset
  }

  let mode: Mode

  /// A sentence such as `at $.user.role: expected "admin", got "user"`, or `nil` when `actual`
  /// conforms to `expected`.
  func find(expected: JSONValue, actual: JSONValue, path: String = "$") -> String? {
    switch (expected, actual) {
    case (.object(let expectedMembers), .object(let actualMembers)):
      for (key, expectedValue) in expectedMembers.sorted(by: { $0.key < $1.key }) {
        guard let actualValue = actualMembers[key] else {
          return "at \(path): missing key \(JSONValue.quoted(key).clipped(to: 40))"
        }
        let child = find(expected: expectedValue, actual: actualValue, path: Self.member(path, key))
        if let child { return child }
      }
      if mode == .equal,
        let extra = actualMembers.keys.sorted().first(where: { expectedMembers[$0] == nil })
      {
        return "at \(path): unexpected key \(JSONValue.quoted(extra).clipped(to: 40))"
      }
      return nil
    case (.array(let expectedElements), .array(let actualElements)):
      guard expectedElements.count == actualElements.count else {
        return
          "at \(path): expected \(expectedElements.count) elements, got \(actualElements.count)"
      }
      for (index, pair) in zip(expectedElements, actualElements).enumerated() {
        if let child = find(expected: pair.0, actual: pair.1, path: "\(path)[\(index)]") {
          return child
        }
      }
      return nil
    default:
      guard expected != actual else { return nil }
      // Masked before they are cut: a credential member the cut splits (`{"password":"hun…`)
      // is no longer one the report's masking can recognise. Where the expected side holds a
      // placeholder, a recording replaced a credential there, and the value standing there now
      // is one too (a token the live server hands out), named or not.
      let expectedText = expected.description
      let shown =
        RedactionPlaceholder.isPresent(in: expectedText)
        ? LogRedaction.masked(actual.description)
        : actual.description.masked(beforeCuttingTo: 40).clipped(to: 40)
      return
        "at \(path): expected \(expectedText.masked(beforeCuttingTo: 40).clipped(to: 40)), "
        + "got \(shown)"
    }
  }

  /// Whether `actual` conforms to `expected`: the same answer as `find(…) == nil`, without
  /// building the report's text or sorting keys.
  func conforms(expected: JSONValue, actual: JSONValue) -> Bool {
    switch (expected, actual) {
    case (.object(let expectedMembers), .object(let actualMembers)):
      if mode == .equal && expectedMembers.count != actualMembers.count { return false }
      for (key, expectedValue) in expectedMembers {
        guard let actualValue = actualMembers[key],
          conforms(expected: expectedValue, actual: actualValue)
        else { return false }
      }
      return true
    case (.array(let expectedElements), .array(let actualElements)):
      guard expectedElements.count == actualElements.count else { return false }
      for (expectedElement, actualElement) in zip(expectedElements, actualElements)
      where !conforms(expected: expectedElement, actual: actualElement) {
        return false
      }
      return true
    default:
      return expected == actual
    }
  }

  /// `$.name` for plain keys, `$["odd key"]` for the rest.
  private static func member(_ path: String, _ key: String) -> String {
    let plain =
      key.first.map { $0.isASCII && ($0.isLetter || $0 == "_") } == true
      && key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    return plain ? "\(path).\(key)" : "\(path)[\(JSONValue.quoted(key))]"
  }
}
