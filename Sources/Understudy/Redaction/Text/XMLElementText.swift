/// XML and SOAP bodies: an element named like a credential member (`<password>`,
/// `<wsse:Password>`, `<apiKey>`) holds one, as the JSON member of the same name would.
extension CompiledRedaction {
  /// The byte ranges of credential elements' content and credential attributes' values in
  /// `text`, each with the percent-encoded placeholder, which needs no XML escaping.
  func xmlElementReplacements(in text: String, echoes: inout RedactionEchoes)
    -> [(Range<Int>, String)]
  {
    guard !memberNames.isEmpty, text.contains(bytes: "<") else { return [] }
    var replacements: [(Range<Int>, String)] = []
    var contents: [Range<String.Index>] = []
    if text.contains(bytes: "</") {
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
    // An attribute inside a credential element's content goes with that content; none is
    // written without an `=`, which memchr rules out at full speed.
    guard text.contains(bytes: "=") else { return replacements }
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
  /// A start tag that is not self-closing; the prefix before `:` is a namespace, and group 3
  /// holds the attributes. A name may end in bracketed words, as Rails writes a nested field
  /// (`user[password]`), which some XML serializers keep as they are.
  private static let startTag = SharedRegex(
    literal: #"<((?:[\p{L}_][\w.\-]*:)?([\p{L}_][\w.\-]*(?:\[[\w.\-]*\])*))(\s[^<>]*)?(?<!/)>"#)

  /// The elements `selecting` chooses by local name, or by the name their `key`, `name` or
  /// `type` attribute gives them (`<field xsi:type="password">…</field>`,
  /// `<entry key="password">…</entry>`, as a Java properties file in XML
  /// and Spring's `<prop key="…">` write one; Android's `<string name="api_key">…</string>`, a
  /// Java applet's or Struts' `<param name="password">…</param>`, an HTML `<textarea
  /// name="token">`), in order, without overlaps; each with that name and the range of its
  /// content, which is never empty. An HTML `id` does not name an element's content:
  /// `<section id="password-reset">` holds a page, not a password.
  static func elements(in text: String, selecting: (String) -> Bool)
    -> [(name: String, content: Range<String.Index>)]
  {
    var found: [(name: String, content: Range<String.Index>)] = []
    var covered = text.startIndex
    for match in startTag.matches(in: text) {
      guard let tag = Range(match.range, in: text), tag.lowerBound >= covered,
        let qualified = Range(match.range(at: 1), in: text),
        let local = Range(match.range(at: 2), in: text)
      else { continue }
      let name =
        selecting(String(text[local]))
        ? String(text[local])
        : Range(match.range(at: 3), in: text).flatMap {
          namingValue(in: text, within: $0, by: ["key", "name", "type"], selecting: selecting)
        }
      guard let name, let end = endTag(of: text[qualified], in: text, after: tag.upperBound),
        tag.upperBound < end.lowerBound
      else { continue }
      found.append((name, tag.upperBound..<end.lowerBound))
      covered = end.upperBound
    }
    let held = heldNameElements(in: text, selecting: selecting)
    guard !held.isEmpty else { return found }
    var merged: [(name: String, content: Range<String.Index>)] = []
    for element in (found + held).sorted(by: { $0.content.lowerBound < $1.content.lowerBound })
    where merged.last.map({ !$0.content.overlaps(element.content) }) ?? true {
      merged.append(element)
    }
    return merged
  }

  /// A label element (any case, any namespace, with attributes or none) whose text is a
  /// credential's name, and the start tag of the element right after it, whose whole content is
  /// the value: a plist's `<key>password</key><string>…</string>`, SOAP's
  /// `<Name>password</Name><Value>…</Value>`, XML-RPC's `<name>password</name><value>…`, and
  /// the pages that show settings as label and value: a definition list's `<dt>API key</dt>
  /// <dd>…</dd>`, a table row's `<th>Password</th><td>…</td>` or `<td>PASSWORD</td><td><pre>…`
  /// (a Django debug page), `<label>Token</label><span>…</span>`, `<b>Secret:</b> <code>…`.
  /// A label's text is judged as a member's name, so `<td>Name</td><td>Ada</td>` is kept.
  private static let heldName = SharedRegex(
    literal:
      #"<((?:[\p{L}_][\w.\-]*:)?(?i:key|name|dt|th|td|label|b|strong))(?:\s[^<>]*)?>\s*([^<>]{1,200}?)\s*</\1>\s*<((?:[\p{L}_][\w.\-]*:)?[\p{L}_][\w.\-]*)(?:\s[^<>]*)?(?<!/)>"#
  )

  /// The next sibling elements whose text a `<key>` or `<name>` element before them makes a
  /// credential (``HeldCredentialName``'s rule for XML), each named after the held name (a
  /// path by its last segment).
  private static func heldNameElements(in text: String, selecting: (String) -> Bool)
    -> [(name: String, content: Range<String.Index>)]
  {
    // A label's end tag: `</key>`, `</name>`, `</dt>`, `</th>`, `</td>`, `</label>`, `</b>`,
    // `</strong>`, in either case, found by memmem before the expression runs.
    let labelEnds: [StaticString] = [
      "ey>", "EY>", "ame>", "AME>", "dt>", "DT>", "th>", "TH>", "td>", "TD>", "el>", "EL>",
      "/b>", "/B>", "ng>", "NG>",
    ]
    guard labelEnds.contains(where: { text.contains(bytes: $0) }) else { return [] }
    return heldName.matches(in: text).compactMap { match in
      guard let held = Range(match.range(at: 2), in: text),
        let tag = Range(match.range, in: text),
        let sibling = Range(match.range(at: 3), in: text),
        let name = HeldCredentialName.placeholderName(
          held: String(text[held]), isCredential: selecting),
        let end = endTag(of: text[sibling], in: text, after: tag.upperBound),
        tag.upperBound < end.lowerBound
      else { return nil }
      return (name, tag.upperBound..<end.lowerBound)
    }
  }

  /// A start or empty tag with attributes, which are group 1.
  private static let tagWithAttributes = SharedRegex(
    literal: #"<[\p{L}_][\w.:\-]*(\s[^<>]*?)/?>"#)
  /// One attribute: its local name (group 1, after any namespace prefix) and its value in double
  /// (group 2) or single quotes (group 3), or unquoted as HTML allows (group 4).
  private static let attribute = SharedRegex(
    literal:
      #"(?:[\p{L}_][\w.\-]*:)?([\p{L}_][\w.\-]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))"#)

  /// The attributes that name the value of their tag's `value` or `content` attribute, as an
  /// HTML form's hidden field and a page's meta tag do: `<input name="csrf_token" value="…">`,
  /// `<meta name="csrf-token" content="…">`.
  private static let namingAttributes: Set<String> = ["name", "id", "property", "key"]
  private static let namedAttributes: Set<String> = ["value", "content"]

  /// The values of the attributes `selecting` chooses by local name (`<auth token="…"/>`), and
  /// of those another attribute of the tag names (`<input name="csrf_token" value="…">`,
  /// `.NET`'s `<add key="ApiKey" value="…"/>`), in order; each with its name and the range of
  /// its value, which is never empty.
  static func attributes(in text: String, selecting: (String) -> Bool)
    -> [(name: String, value: Range<String.Index>)]
  {
    var found: [(name: String, value: Range<String.Index>)] = []
    for tag in tagWithAttributes.matches(in: text) {
      guard let inside = Range(tag.range(at: 1), in: text) else { continue }
      var named: Range<String.Index>?
      var isPasswordField = false
      for (name, value) in attributeValues(in: text, within: inside) {
        if selecting(name) {
          found.append((name, value))
        } else if namedAttributes.contains(name.lowercased()) {
          named = value
        } else if name.lowercased() == "type" {
          // `<input type="password" name="pw" value="…">`: the field says what it holds.
          isPasswordField = text[value].lowercased() == "password"
        }
      }
      if let named,
        let naming = namingValue(
          in: text, within: inside, by: namingAttributes, selecting: selecting)
      {
        found.append((naming, named))
      } else if let named, isPasswordField {
        found.append(("password", named))
      }
    }
    return found.sorted { $0.value.lowerBound < $1.value.lowerBound }
  }

  /// The value of the tag's attribute among `naming`, when `selecting` chooses it: the name
  /// of what the tag holds.
  private static func namingValue(
    in text: String, within attributes: Range<String.Index>, by naming: Set<String>,
    selecting: (String) -> Bool
  ) -> String? {
    for (name, value) in attributeValues(in: text, within: attributes)
    where naming.contains(name.lowercased()) && selecting(String(text[value])) {
      return String(text[value])
    }
    return nil
  }

  /// Each attribute in `attributes` with a value that is not empty: its local name and the
  /// range of its value.
  private static func attributeValues(in text: String, within attributes: Range<String.Index>)
    -> [(name: String, value: Range<String.Index>)]
  {
    attribute.matches(in: text, within: attributes).compactMap { match in
      guard let name = Range(match.range(at: 1), in: text),
        let value = (2...4).lazy.compactMap({ Range(match.range(at: $0), in: text) }).first,
        !value.isEmpty
      else { return nil }
      return (String(text[name]), value)
    }
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
