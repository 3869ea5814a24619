/// Values assigned to a name in text that is neither JSON nor a form: YAML (`password: …`),
/// TOML and INI files (`password = "…"`), `.env` files (`API_SECRET="…"`) and scripts
/// (`const apiKey = '…'`, `{ apiKey: '…' }`). Cassettes redact, and logs mask, those whose name
/// a JSON member rule selects: the names a configuration file or a script gives its secrets are
/// the names a JSON body gives them.
enum TextAssignments {
  /// A bare name at a word's start, `:` or `=` (group 2), and maybe a value in quotes on the
  /// same line (group 4 holds what is inside them). A bare value is read by
  /// ``bareValueEnd(in:from:)`` instead, so a name in it (`user: ada password: …`) is still
  /// found.
  private static let assignment = SharedRegex(
    literal:
      #"(?<![\w."'])([A-Za-z_][\w.\-]{0,99})[ \t]*([:=])[ \t]*(?:(["'])((?:(?!\3)[^\\\n]|\\.)*)\3)?"#
  )

  /// One assignment: the name, and the range of its value (inside its quotes, when quoted).
  struct Assignment {
    var name: Substring
    var value: Range<String.Index>
    var isQuoted: Bool
  }

  /// The assignments in `text` whose value is not empty, in order. A bare value after `:` runs
  /// to the end of its line (`Authorization: Bearer …` whole, a YAML scalar), or to a
  /// character that ends a value in a script or markup: a quote, `,`, `;`, `<`, `>` or a
  /// bracket. A bare value after `=` is a pair's, which ``EmbeddedQueryPairs`` reads; with
  /// `quotedOnly`, bare values are left out altogether.
  static func assignments(in text: String, quotedOnly: Bool = false) -> [Assignment] {
    guard text.contains(":") || text.contains("=") else { return [] }
    return assignment.matches(in: text).compactMap { match in
      guard let name = Range(match.range(at: 1), in: text), let whole = Range(match.range, in: text)
      else { return nil }
      if let quoted = Range(match.range(at: 4), in: text) {
        return quoted.isEmpty ? nil : Assignment(name: text[name], value: quoted, isQuoted: true)
      }
      guard !quotedOnly, text[whole].contains(":") else { return nil }
      let end = bareValueEnd(in: text, from: whole.upperBound)
      guard whole.upperBound < end else { return nil }
      return Assignment(name: text[name], value: whole.upperBound..<end, isQuoted: false)
    }
  }

  private static func bareValueEnd(in text: String, from start: String.Index) -> String.Index {
    let scalars = text.unicodeScalars
    var end = start
    var index = start
    while index < scalars.endIndex, !endsBareValue(scalars[index]) {
      index = scalars.index(after: index)
      if !scalars[scalars.index(before: index)].properties.isWhitespace { end = index }
    }
    return end
  }

  private static func endsBareValue(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "\n", "\r", "\"", "'", "`", ",", ";", "<", ">", "{", "}", "[", "]", "(", ")": true
    default: false
    }
  }
}

extension CompiledRedaction {
  /// The byte ranges of credential values assigned by name in `text`, each with its
  /// placeholder: as it is inside quotes, percent-encoded bare (so markup and URLs around it
  /// stay as they were).
  func assignmentReplacements(in text: String, echoes: inout RedactionEchoes)
    -> [(Range<Int>, String)]
  {
    guard !memberNames.isEmpty else { return [] }
    var replacements: [(Range<Int>, String)] = []
    var covered = text.startIndex
    for assignment in TextAssignments.assignments(in: text)
    where assignment.value.lowerBound >= covered {
      guard let key = placeholderName(forMember: String(assignment.name)) else { continue }
      let value = String(text[assignment.value])
      guard !RedactionPlaceholder.isPresent(in: value) else { continue }
      // A bare value runs over the names after it on its line; it covers theirs.
      covered = assignment.value.upperBound
      echoes.remember(memberValue: value, as: key)
      replacements.append(
        (
          Self.byteRange(of: assignment.value, in: text),
          assignment.isQuoted
            ? RedactionPlaceholder.text(key) : RedactionPlaceholder.percentEncoded(key)
        ))
    }
    return replacements
  }
}
