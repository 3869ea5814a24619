/// The text that stands in for a redacted value: `<redacted:NAME>`.
///
/// `NAME` is the rule's name: the lower-cased header or query parameter name
/// (`<redacted:authorization>`, `<redacted:access_token>`), a JSON path's name, or a body
/// pattern's name. Inside URLs, form bodies and URL-valued headers the placeholder is
/// percent-encoded (`%3Credacted:access_token%3E`) so the URL stays valid.
/// ``Redaction/restoring(_:values:)`` replaces both forms, and ``CredentialScanner`` never
/// reports them.
enum RedactionPlaceholder {
  /// Characters a name may use; anything else in a derived name becomes `_`.
  static func isAllowedInName(_ character: Character) -> Bool {
    character.isASCII && !character.isWhitespace && !"<>\"\\%&=#?/".contains(character)
  }

  /// Rejects a name that could not be found again inside a placeholder.
  static func validate(name: String) throws(PatternSyntaxError) {
    guard !name.isEmpty, name.allSatisfy(isAllowedInName) else {
      throw PatternSyntaxError(
        expression: name,
        problem: "placeholder names use ASCII letters, digits and punctuation other than "
          + "< > \" \\ % & = # ? /, and no spaces")
    }
  }

  /// `name` with each character a placeholder cannot hold replaced by `_`.
  static func name(from name: String) -> String {
    let cleaned = String(name.map { isAllowedInName($0) ? $0 : "_" })
    return cleaned.isEmpty ? "_" : cleaned
  }

  static func text(_ name: String) -> String { "<redacted:\(name)>" }

  /// Whether `value` holds a placeholder already, so it is not a secret to search for.
  static func isPresent(in value: String) -> Bool {
    value.range(of: "redacted:", options: .caseInsensitive) != nil
  }

  static func percentEncoded(_ name: String) -> String { percentEncode(text(name)) }

  /// Both spellings in one regular expression, for code that must skip them.
  static let anyPlaceholder = SharedRegex(
    literal: "(?i)<redacted:[^<>\\s\"]+>|%3Credacted:[^<>\\s\"%&=#]+%3E")

  /// Percent-encodes everything but the unreserved characters and `:`, the same way every time
  /// so placeholders can be found again.
  static func percentEncode(_ text: String) -> String {
    var allowed = CharacterSet(charactersIn: "-._~:")
    allowed.formUnion(CharacterSet(charactersIn: "a"..."z"))
    allowed.formUnion(CharacterSet(charactersIn: "A"..."Z"))
    allowed.formUnion(CharacterSet(charactersIn: "0"..."9"))
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
  }
}
