/// XML and SOAP bodies: an element named like a credential member (`<password>`,
/// `<wsse:Password>`, `<apiKey>`) holds one, as the JSON member of the same name would.
extension CompiledRedaction {
  /// An element with only text inside, plain or in CDATA sections; the prefix before `:` is a
  /// namespace.
  private static let element = SharedRegex(
    literal: #"<((?:[A-Za-z_][\w.\-]*:)?([A-Za-z_][\w.\-]*))(\s[^<>]*)?>"#
      + #"((?:[^<]|<!\[CDATA\[[\s\S]*?\]\]>)++)</\1\s*>"#)

  /// The byte ranges of credential elements' text in `text`, each with the percent-encoded
  /// placeholder, which needs no XML escaping.
  func xmlElementReplacements(in text: String, echoes: inout RedactionEchoes)
    -> [(Range<Int>, String)]
  {
    guard !memberNames.isEmpty, text.contains("</") else { return [] }
    var replacements: [(Range<Int>, String)] = []
    for match in Self.element.matches(in: text) {
      guard let nameRange = Range(match.range(at: 2), in: text),
        let contentRange = Range(match.range(at: 4), in: text),
        memberNames.matches(String(text[nameRange]))
      else { continue }
      let content = String(text[contentRange])
      guard !RedactionPlaceholder.isPresent(in: content) else { continue }
      let key = RedactionPlaceholder.name(from: String(text[nameRange]))
      // The value a CDATA section holds is its text without the markers.
      let value = content.replacingOccurrences(of: "<![CDATA[", with: "", options: .literal)
        .replacingOccurrences(of: "]]>", with: "", options: .literal)
      echoes.remember(memberValue: value.trimmingCharacters(in: .whitespacesAndNewlines), as: key)
      replacements.append(
        (Self.byteRange(of: contentRange, in: text), RedactionPlaceholder.percentEncoded(key)))
    }
    return replacements
  }
}
