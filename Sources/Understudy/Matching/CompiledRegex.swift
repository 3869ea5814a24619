/// A regular expression compiled once when a pattern is built, with the names of its capture
/// groups.
///
/// `NSRegularExpression` cannot list its named groups, so they are read from the pattern text; a
/// group the scan misreads only loses its capture, never the match.
///
/// `@unchecked` because `NSRegularExpression` is immutable and documented as thread-safe, but not
/// every SDK we support marks it `Sendable`.
struct CompiledRegex: @unchecked Sendable {
  let pattern: String
  private let regex: NSRegularExpression
  private let groupNames: [String]

  /// Compiles `pattern`, or returns `nil` when ICU rejects it.
  init?(_ pattern: String) {
    guard let regex = try? NSRegularExpression(pattern: pattern) else { return nil }
    self.pattern = pattern
    self.regex = regex
    self.groupNames = Self.namedGroups(in: pattern)
  }

  /// The values of the named groups of the first match anywhere in `text` (the pattern anchors it
  /// if it wants to), or `nil` when nothing matches.
  func firstMatch(in text: String) -> [String: String]? {
    guard let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text))
    else { return nil }
    var captures = [String: String]()
    for name in groupNames {
      if let range = Range(match.range(withName: name), in: text) {
        captures[name] = String(text[range])
      }
    }
    return captures
  }

  /// The names in `(?<name>…)` groups; ICU allows ASCII letters and digits, starting with a letter.
  private static func namedGroups(in pattern: String) -> [String] {
    let characters = Array(pattern)
    var names: [String] = []
    var index = 0
    while index < characters.count {
      if characters[index] == "\\" {
        index += 2
        continue
      }
      if characters[index...].starts(with: "(?<"), index + 3 < characters.count,
        characters[index + 3].isASCII, characters[index + 3].isLetter
      {
        let name = characters[(index + 3)...].prefix { $0.isASCII && ($0.isLetter || $0.isNumber) }
        names.append(String(name))
      }
      index += 1
    }
    return names
  }
}

extension RequestPattern {
  /// Compiles `pattern` and hands it to `build`, or returns a never-matching condition whose
  /// problem says how to fix the expression.
  static func withRegex(
    _ pattern: String, field: String,
    build: (_ regex: CompiledRegex, _ expected: String) -> RequestPattern
  ) -> RequestPattern {
    let expected = "matches regex \(pattern)"
    guard let regex = CompiledRegex(pattern) else {
      return .invalid(
        field: field, expected: expected,
        problem: "The regular expression \(pattern.quoted()) for \(field) does not compile; "
          + "balance its brackets and escape literal characters such as ( [ { . * + ? with \\.")
    }
    return build(regex, expected)
  }
}
