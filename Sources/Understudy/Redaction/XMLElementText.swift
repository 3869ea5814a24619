/// XML and SOAP bodies: an element named like a credential member (`<password>`,
/// `<wsse:Password>`, `<apiKey>`) holds one, as the JSON member of the same name would.
extension CompiledRedaction {
  /// The byte ranges of credential elements' content and credential attributes' values in
  /// `text`, each with the percent-encoded placeholder, which needs no XML escaping.
  func xmlElementReplacements(in text: String, echoes: inout RedactionEchoes)
    -> [(Range<Int>, String)]
  {
    guard !memberNames.isEmpty, text.contains("<") else { return [] }
    var replacements: [(Range<Int>, String)] = []
    var contents: [Range<String.Index>] = []
    if text.contains("</") {
      for element in XMLElementContent.elements(in: text, selecting: memberNames.matches) {
        let content = String(text[element.content])
        guard !RedactionPlaceholder.isPresent(in: content) else { continue }
        let key = RedactionPlaceholder.name(from: element.name)
        // The value a CDATA section holds is its text without the markers.
        let value = content.replacingOccurrences(of: "<![CDATA[", with: "", options: .literal)
          .replacingOccurrences(of: "]]>", with: "", options: .literal)
        echoes.remember(
          memberValue: value.trimmingCharacters(in: .whitespacesAndNewlines), as: key)
        contents.append(element.content)
        replacements.append(
          (Self.byteRange(of: element.content, in: text), RedactionPlaceholder.percentEncoded(key)))
      }
    }
    // An attribute inside a credential element's content goes with that content.
    for attribute in XMLElementContent.attributes(in: text, selecting: memberNames.matches)
    where !contents.contains(where: { $0.overlaps(attribute.value) }) {
      let value = String(text[attribute.value])
      guard !RedactionPlaceholder.isPresent(in: value) else { continue }
      let key = RedactionPlaceholder.name(from: attribute.name)
      echoes.remember(memberValue: value, as: key)
      replacements.append(
        (Self.byteRange(of: attribute.value, in: text), RedactionPlaceholder.percentEncoded(key)))
    }
    return replacements.sorted { $0.0.lowerBound < $1.0.lowerBound }
  }
}

/// Finds the content of XML elements by name: everything between the start tag and the end tag,
/// whether text, CDATA sections, comments or child elements, so that neither a comment
/// (`<password><!-- x -->secret</password>`) nor markup hides a value. Cassettes and logs both
/// read XML through it.
enum XMLElementContent {
  /// A start tag that is not self-closing; the prefix before `:` is a namespace.
  private static let startTag = SharedRegex(
    literal: #"<((?:[A-Za-z_][\w.\-]*:)?([A-Za-z_][\w.\-]*))(?:\s[^<>]*)?(?<!/)>"#)

  /// The elements `selecting` chooses by local name, in order, without overlaps; each with its
  /// local name and the range of its content, which is never empty.
  static func elements(in text: String, selecting: (String) -> Bool)
    -> [(name: String, content: Range<String.Index>)]
  {
    var found: [(name: String, content: Range<String.Index>)] = []
    var covered = text.startIndex
    for match in startTag.matches(in: text) {
      guard let tag = Range(match.range, in: text), tag.lowerBound >= covered,
        let qualified = Range(match.range(at: 1), in: text),
        let local = Range(match.range(at: 2), in: text),
        selecting(String(text[local])),
        let end = endTag(of: text[qualified], in: text, after: tag.upperBound),
        tag.upperBound < end.lowerBound
      else { continue }
      found.append((String(text[local]), tag.upperBound..<end.lowerBound))
      covered = end.upperBound
    }
    return found
  }

  /// A start or empty tag with attributes, which are group 1.
  private static let tagWithAttributes = SharedRegex(
    literal: #"<[A-Za-z_][\w.:\-]*(\s[^<>]*?)/?>"#)
  /// One attribute: its local name (group 1, after any namespace prefix) and its value in double
  /// (group 2) or single quotes (group 3), or unquoted as HTML allows (group 4).
  private static let attribute = SharedRegex(
    literal:
      #"(?:[A-Za-z_][\w.\-]*:)?([A-Za-z_][\w.\-]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))"#)

  /// The attributes that name the value of their tag's `value` or `content` attribute, as an
  /// HTML form's hidden field and a page's meta tag do: `<input name="csrf_token" value="…">`,
  /// `<meta name="csrf-token" content="…">`.
  private static let namingAttributes: Set<String> = ["name", "id", "property"]
  private static let namedAttributes: Set<String> = ["value", "content"]

  /// The values of the attributes `selecting` chooses by local name (`<auth token="…"/>`), and
  /// of those another attribute of the tag names (`<input name="csrf_token" value="…">`), in
  /// order; each with its name and the range of its value, which is never empty.
  static func attributes(in text: String, selecting: (String) -> Bool)
    -> [(name: String, value: Range<String.Index>)]
  {
    var found: [(name: String, value: Range<String.Index>)] = []
    for tag in tagWithAttributes.matches(in: text) {
      guard let inside = Range(tag.range(at: 1), in: text) else { continue }
      var named: (name: String, value: Range<String.Index>)?
      var naming: String?
      for match in attribute.matches(in: text, within: inside) {
        guard let nameRange = Range(match.range(at: 1), in: text),
          let value = (2...4).lazy.compactMap({ Range(match.range(at: $0), in: text) }).first,
          !value.isEmpty
        else { continue }
        let name = String(text[nameRange])
        if selecting(name) {
          found.append((name, value))
        } else if namingAttributes.contains(name.lowercased()), selecting(String(text[value])) {
          naming = String(text[value])
        } else if namedAttributes.contains(name.lowercased()) {
          named = (name, value)
        }
      }
      if let naming, let named { found.append((naming, named.value)) }
    }
    return found.sorted { $0.value.lowerBound < $1.value.lowerBound }
  }

  /// The first end tag for `name` from `start`: `</name>`, or `<\/name>` as JSON escapes it.
  private static func endTag(of name: Substring, in text: String, after start: String.Index)
    -> Range<String.Index>?
  {
    var search = start
    while let open = text[search...].firstIndex(of: "<") {
      var cursor = text[open...].dropFirst()
      if cursor.hasPrefix("\\/") {
        cursor = cursor.dropFirst(2)
      } else if cursor.hasPrefix("/") {
        cursor = cursor.dropFirst()
      } else {
        search = cursor.startIndex
        continue
      }
      if cursor.hasPrefix(name) {
        let rest = cursor.dropFirst(name.count).drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        if rest.first == ">" { return open..<rest.index(after: rest.startIndex) }
      }
      search = cursor.startIndex
    }
    return nil
  }
}
