/// Redaction by member name in text that holds JSON members but cannot be parsed as a whole:
/// JSON nested deeper than the parser allows (which no JSON reader here can open, so skipping
/// it would skip its secrets silently), a cut-short body, or JSON inside HTML or a script.
///
/// Each `"name": value` whose name a rule selects and whose value is a string, number, `true`,
/// `false` or `null` gets the placeholder string as its value, as the structured redaction
/// would write it; objects and arrays are left for their own members to be found.
enum JSONMemberText {
  private static let member = SharedRegex(
    literal:
      #""((?:[^"\\\n]|\\.){1,200})"\s*:\s*("(?:[^"\\\n]|\\.)*"|-?[0-9][0-9.eE+-]*|true|false|null)"#
  )

  /// The byte ranges of `text` to replace, each with its replacement.
  static func replacements(
    in text: String, rules: CompiledRedaction, echoes: inout RedactionEchoes
  ) -> [(Range<Int>, String)] {
    guard text.contains("\":") else { return [] }
    var replacements: [(Range<Int>, String)] = []
    for match in member.matches(in: text) {
      guard let nameRange = Range(match.range(at: 1), in: text),
        let valueRange = Range(match.range(at: 2), in: text),
        let name = rules.placeholderName(forMember: unescaped(text[nameRange]))
      else { continue }
      let value = text[valueRange]
      let replacement = "\"\(RedactionPlaceholder.text(name))\""
      guard value != replacement else { continue }
      let secret = value.hasPrefix("\"") ? unescaped(value.dropFirst().dropLast()) : String(value)
      echoes.remember(memberValue: secret, as: name)
      replacements.append((CompiledRedaction.byteRange(of: valueRange, in: text), replacement))
    }
    return replacements
  }

  /// A JSON string's contents decoded, or as written when they do not decode.
  private static func unescaped(_ contents: Substring) -> String {
    guard contents.contains("\\") else { return String(contents) }
    let quoted = Array("\"\(contents)\"".utf8)
    guard let node = try? JSONNode.parse(quoted), case .string(let text) = node.value else {
      return String(contents)
    }
    return text
  }
}
