/// Redaction by member name in text that holds JSON members but cannot be parsed as a whole:
/// JSON nested deeper than the parser allows (which no JSON reader here can open, so skipping
/// it would skip its secrets silently), a cut-short body, or JSON inside HTML or a script.
///
/// Each `"name": value` whose name a rule selects and whose value is a string, number, `true`,
/// `false` or `null` gets the placeholder string as its value, as the structured redaction
/// would write it; objects and arrays are left for their own members to be found. The same
/// quoted name before `=` (TOML's `"api-key" = "…"`) or before a bare word (YAML's
/// `"api_key": 89E7Ol…`, which is no number however it starts) is read the same way.
enum JSONMemberText {
  private static let member = SharedRegex(
    literal:
      #""((?:[^"\\\n]|\\.){1,200})"[ \t]*(?::|=(?![=>~]))[ \t]*("(?:[^"\\\n]|\\.)*"|(?:-?[0-9][0-9.eE+-]*|true|false|null)(?![^\s,}\]])|[^\s"',}\]\[{][^\s,}\]]*)"#
  )

  /// Whether `text` holds a quoted name before `:` or `=`, which the expression looks for.
  static func mayHoldMembers(_ text: String) -> Bool {
    text.contains(bytes: "\":") || text.contains(bytes: "\" :") || text.contains(bytes: "\"=")
      || text.contains(bytes: "\" =")
  }

  /// The byte ranges of `text` to replace, each with its replacement.
  static func replacements(
    in text: String, rules: CompiledRedaction, echoes: inout RedactionEchoes
  ) -> [(Range<Int>, String)] {
    guard mayHoldMembers(text) else { return [] }
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
      let bytes = CompiledRedaction.byteRange(of: valueRange, in: text)
      replacements.append((bytes, replacement))
      // A script's `{"Authorization": "Basic " + b64encode(b'…')}`: the whole expression.
      if value.hasPrefix("\"") {
        let utf8 = text.utf8
        for literal in CompiledRedaction.concatenatedLiterals(after: bytes.upperBound - 1, in: text)
        {
          replacements.append((literal, RedactionPlaceholder.text(name)))
          let start = utf8.index(utf8.startIndex, offsetBy: literal.lowerBound)
          echoes.remember(
            memberValue: String(text[start..<utf8.index(start, offsetBy: literal.count)]), as: name)
        }
      }
    }
    // A name member holding a credential's name next to its value member.
    for (held, namesAKey, valueRange) in HeldCredentialName.neighbours(in: text) {
      guard
        let name = HeldCredentialName.placeholderName(
          held: unescaped(held), namingAKey: namesAKey,
          isCredential: { rules.memberNames.matches($0) })
      else { continue }
      let value = text[valueRange]
      let replacement = "\"\(RedactionPlaceholder.text(name))\""
      guard value != replacement, !RedactionPlaceholder.isPresent(in: value) else { continue }
      let secret = value.hasPrefix("\"") ? unescaped(value.dropFirst().dropLast()) : String(value)
      echoes.remember(memberValue: secret, as: name)
      replacements.append((CompiledRedaction.byteRange(of: valueRange, in: text), replacement))
    }
    return replacements
  }

  /// A member written inside a JSON string, its quotes escaped (`"{\"password\":\"…\"}"`): JSON
  /// sent as a string inside JSON (a GraphQL `variables` string, a queued job's payload, a log
  /// record), which no parser of the outer document opens. Values with escapes of their own are
  /// left to the credential scan.
  private static let escapedMember = SharedRegex(
    literal:
      #"\\"([A-Za-z0-9_.$@:-]{1,200})\\"\s*:\s*(\\"[^"\\\n]*\\"|-?[0-9][0-9.eE+-]*|true|false|null)"#
  )

  /// ``replacements(in:rules:echoes:)`` for members written inside a JSON string: each value
  /// becomes the placeholder, its quotes escaped as the string needs.
  static func escapedReplacements(
    in text: String, rules: CompiledRedaction, echoes: inout RedactionEchoes
  ) -> [(Range<Int>, String)] {
    guard text.contains(bytes: #"\":"#) || text.contains(bytes: #"\" :"#) else { return [] }
    var replacements: [(Range<Int>, String)] = []
    for match in escapedMember.matches(in: text) {
      guard let nameRange = Range(match.range(at: 1), in: text),
        let valueRange = Range(match.range(at: 2), in: text),
        let name = rules.placeholderName(forMember: String(text[nameRange]))
      else { continue }
      let value = text[valueRange]
      let replacement = #"\""# + RedactionPlaceholder.text(name) + #"\""#
      guard value != replacement else { continue }
      let secret = value.hasPrefix(#"\""#) ? String(value.dropFirst(2).dropLast(2)) : String(value)
      echoes.remember(memberValue: secret, as: name)
      replacements.append((CompiledRedaction.byteRange(of: valueRange, in: text), replacement))
    }
    return replacements
  }

  /// A JSON string's contents decoded, or a YAML double-quoted scalar's (`p\\x61ssword`), or
  /// as written when they do not decode.
  private static func unescaped(_ contents: Substring) -> String {
    guard contents.contains(bytes: "\\") else { return String(contents) }
    let quoted = Array("\"\(contents)\"".utf8)
    guard let node = try? JSONNode.parse(quoted), case .string(let text) = node.value else {
      return YAMLScalar.unescaped(doubleQuoted: contents) ?? String(contents)
    }
    return text
  }
}
