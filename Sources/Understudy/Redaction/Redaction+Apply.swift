extension Redaction {
  /// The archive with every value the rules select replaced by its placeholder, and each such
  /// value also replaced wherever it appears again in its entry or a later one.
  public func redact(_ har: HAR) -> HAR {
    var result = har
    let rules = CompiledRedaction(self)
    var echoes = RedactionEchoes()
    result.log.entries = har.log.entries.map { rules.redact($0, echoes: &echoes) }
    // A page's title is usually its URL; it is checked against everything the entries held.
    for index in result.log.pages.indices {
      var page = result.log.pages[index]
      page.title = rules.redactText(page.title, echoes: &echoes)
      page.comment = page.comment.map { rules.redactText($0, echoes: &echoes) }
      // The same replacement as each entry's `pageref` had, so the two still match.
      page.id = echoes.replace(in: page.id, field: .text)
      page.pageTimings.comment = page.pageTimings.comment.map {
        echoes.replace(in: $0, field: .text)
      }
      result.log.pages[index] = page
    }
    result.log.comment = result.log.comment.map { rules.redactText($0, echoes: &echoes) }
    return result
  }

  /// The entry with every value the rules select replaced by its placeholder.
  ///
  /// Replay can run a live request through this too, so it compares with a recorded one on the
  /// same, redacted, terms.
  public func redact(_ entry: HAR.Entry) -> HAR.Entry {
    var echoes = RedactionEchoes()
    return CompiledRedaction(self).redact(entry, echoes: &echoes)
  }

  /// The archive with placeholders replaced by `values`, keyed by placeholder name (the `NAME`
  /// in `<redacted:NAME>`); placeholders without a value stay.
  ///
  /// Replay uses this to hand the code under test a working token, or a cookie it expects,
  /// without the cassette storing one. A value restored into a URL or form body is
  /// percent-encoded, into a JSON body escaped as a JSON string; `Cookie` and `Set-Cookie`
  /// placeholders restore to the same value in the header and the `cookies` array.
  public func restoring(_ har: HAR, values: [String: String]) -> HAR {
    let replacements = values.sorted { $0.key < $1.key }
    var result = har
    for index in result.log.entries.indices {
      result.log.entries[index].transformRedactableFields { field, text in
        guard RedactionPlaceholder.isPresent(in: text) else { return text }
        let isJSON: Bool
        if case .body = field {
          isJSON = JSONNode.container(in: text) != nil
        } else {
          isJSON = false
        }
        var restored = text
        for (name, value) in replacements {
          restored = restored.replacingOccurrences(
            of: RedactionPlaceholder.text(name),
            with: isJSON ? RedactionEchoes.jsonEscaped(value) : value)
          for encoded in [
            RedactionPlaceholder.percentEncoded(name), RedactionPlaceholder.inAuthority(name),
          ] {
            restored = restored.replacingOccurrences(
              of: encoded, with: RedactionPlaceholder.percentEncode(value),
              options: .caseInsensitive)
          }
        }
        return restored
      }
    }
    return result
  }
}

/// The rules compiled once, applied to one entry at a time.
struct CompiledRedaction: Sendable {
  let headerNames: CredentialName
  let queryNames: CredentialName
  let memberNames: CredentialName
  let jsonPaths: [Redaction.JSONPath]
  let patterns: [Redaction.BodyPattern]
  /// Userinfo is the URL's spelling of Basic authorization, so it goes with that header's rule.
  let redactsUserinfo: Bool
  /// Headers whose values are URLs, which can carry credentials in their query; HTTP/2's
  /// `:path` pseudo-header, which Chrome exports, repeats the request's query.
  static let urlHeaders: Set<String> = ["location", "content-location", "referer", ":path"]

  init(_ redaction: Redaction) {
    headerNames = CredentialName(redaction.headerNames)
    queryNames = CredentialName(redaction.queryParameterNames)
    memberNames = CredentialName(redaction.jsonMemberNames)
    jsonPaths = redaction.jsonPaths
    patterns = redaction.bodyPatterns
    redactsUserinfo = headerNames.matches("Authorization")
  }

  /// Whether redacting `request` could change it: false for a bodiless request with no
  /// credential header, userinfo or credential query parameter, which replay can then compare
  /// as it is, skipping a conversion that costs more than the rest of a replay.
  func mayChange(_ request: InterceptedRequest) -> Bool {
    if !(request.body?.isEmpty ?? true) || request.url.user != nil { return true }
    // Bytes, not `contains("=")`: on Linux that is Foundation's substring search through
    // NSString, which made this check most of the per-entry cost of loading a cassette.
    func has(_ text: String?, _ character: Unicode.Scalar) -> Bool {
      text?.utf8.contains(UInt8(ascii: character)) ?? false
    }
    // A header may hold a URL with a query or user information (`Link: <https://u:p@host/>`),
    // or a pair, a JSON member or an assignment no header rule names: those are looked for only
    // in a value with an `=` or a `:`, as redaction would.
    let headerMayChange = { (field: HTTPHeaders.Field) in
      if headerNames.matches(field.name) { return true }
      if redactsUserinfo && has(field.value, "@") { return true }
      guard has(field.value, "=") || has(field.value, ":") else { return false }
      var scratch = RedactionEchoes()
      return redact(field.value, in: .header(name: field.name), echoes: &scratch) != field.value
    }
    if request.headers.contains(where: headerMayChange) { return true }
    // An absolute URL's decoded path is the snapshot's (which says "/" for an empty one);
    // decoding it again costs as much as the rest of this check.
    let path = request.url.baseURL == nil ? request.path : request.url.path
    return has(request.url.query, ";") || has(path, ";") || has(request.url.fragment, "=")
      || request.queryItems.contains { queryNames.matches($0.name) }
  }

  /// Free text with URL query credentials and every remembered value replaced.
  func redactText(_ text: String, echoes: inout RedactionEchoes) -> String {
    let redacted = ruled(text, in: .text, echoes: &echoes)
    return settled(
      echoes.replace(in: redacted, field: .text), was: redacted, in: .text, echoes: &echoes)
  }

  /// The entry with the rules applied, then every value they removed (now or in an earlier
  /// entry, as `echoes` remembers) replaced wherever else it appears.
  func redact(_ entry: HAR.Entry, echoes: inout RedactionEchoes) -> HAR.Entry {
    var entry = entry
    // Redaction reads every body; one read from a file is decoded once and kept decoded, so
    // the scan of the result before it is written does not decode it again.
    entry.request.postData?.textStorage.decode()
    entry.response.content.textStorage?.decode()
    entry.transformRedactableFields { field, value in
      // Values remembered from earlier fields go first: a rule that reads less of a value than
      // the rule that found it (an HTML-minded query pair stops at `'`) would replace its start
      // and leave the rest, which no echo search could find then.
      let echoed = echoes.isEmpty ? value : echoes.replace(in: value, field: field)
      return ruled(echoed, in: field, echoes: &echoes)
    }
    if !echoes.isEmpty {
      let remembered = echoes
      entry.transformRedactableFields(
        binary: { remembered.replace(inBinary: $0) },
        { field, value in
          settled(echoes.replace(in: value, field: field), was: value, in: field, echoes: &echoes)
        })
      // Rules read only the fields above; a value they removed can be echoed anywhere else.
      let final = echoes
      entry.transformOtherStrings { final.replace(in: $0, field: .text) }
    }
    return entry
  }

  /// `value` with the rules applied until they change nothing. A placeholder can change how the
  /// rules read a small text: `x_token=…&x=1#sig=%3CVBOR`…` is no form while its last value
  /// holds a backtick, and is one once that value is a placeholder, so a second redaction took
  /// `x_token`. A text of ``FormBody/shapeLimit`` bytes or more is never read by its shape, and
  /// is redacted once: running the rules again over a 50 MB body would double its cost.
  private func ruled(_ value: String, in field: RedactableField, echoes: inout RedactionEchoes)
    -> String
  {
    var current = redact(value, in: field, echoes: &echoes)
    guard current.utf8.count < FormBody.shapeLimit else { return current }
    var previous = value
    var rounds = 0
    // Each round can only replace more text with placeholders, so it ends; the bound is a guard.
    while current != previous, rounds < 4 {
      previous = current
      current = redact(current, in: field, echoes: &echoes)
      rounds += 1
    }
    return current
  }

  /// `value`, which echoes changed from `original`, redacted again until the rules change
  /// nothing. A replaced echo can change how the rules read a text: in
  /// `https:/next?key%3Dkxt?sig=1` the echo `/next?key%3Dk` takes the `?` that began the
  /// query, so `sig=1` becomes a pair the rules select. Left there, a second redaction would
  /// take it, and a redacted cassette would change when redacted again.
  private func settled(
    _ value: String, was original: String, in field: RedactableField,
    echoes: inout RedactionEchoes
  ) -> String {
    guard value != original else { return value }
    var value = value
    // Each round can only replace more text with placeholders, so it ends; the bound is a guard.
    for _ in 0..<4 {
      let again = redact(value, in: field, echoes: &echoes)
      if again == value { return value }
      value = echoes.replace(in: again, field: field)
    }
    return value
  }

  private func redact(_ value: String, in field: RedactableField, echoes: inout RedactionEchoes)
    -> String
  {
    switch field {
    case .url:
      return redactURL(value, echoes: &echoes)
    case .header(let name):
      if headerNames.matches(name) {
        let key = RedactionPlaceholder.name(from: name.lowercased())
        echoes.remember(headerValue: value, named: name, as: key)
        return RedactionPlaceholder.text(key)
      }
      if Self.urlHeaders.contains(name.lowercased()) { return redactURL(value, echoes: &echoes) }
      return redactHeaderText(value, echoes: &echoes)
    case .cookie(let isRequest):
      let key = isRequest ? "cookie" : "set-cookie"
      guard headerNames.matches(key) else { return value }
      echoes.remember(value, as: key)
      return RedactionPlaceholder.text(key)
    case .queryParameter(let name):
      if queryNames.matches(name) {
        let key = RedactionPlaceholder.name(from: name.lowercased())
        echoes.remember(value, as: key)
        return RedactionPlaceholder.text(key)
      }
      // `a=1;token=x` arrives as one parameter `a` with the value `1;token=x`.
      let pairs =
        value.contains(";") ? redactPairs(Substring(value), encoded: false, echoes: &echoes) : value
      // A URL as a value (an OAuth `redirect_uri`, a `next` link) has query pairs of its own,
      // maybe behind further escapes.
      rememberNestedPairs(in: pairs[...], echoes: &echoes)
      return Self.splice(pairs, embeddedQueryReplacements(in: pairs, echoes: &echoes))
    case .formParameter(let name):
      guard queryNames.matches(name) else { return applyPatterns(value) }
      let key = RedactionPlaceholder.name(from: name.lowercased())
      echoes.remember(value, as: key)
      return RedactionPlaceholder.text(key)
    case .body(let mimeType):
      return redactBody(value, mimeType: mimeType, echoes: &echoes)
    case .text:
      return Self.splice(value, embeddedQueryReplacements(in: value, echoes: &echoes))
    }
  }

  /// A header no rule names: a `Link` with URLs, a list of pairs (`Baggage: userId=ada,
  /// sessionToken=…`), or a JSON object or a configuration line a service passes along, each
  /// with its credentials replaced as a text body's are.
  private func redactHeaderText(_ value: String, echoes: inout RedactionEchoes) -> String {
    var value = Self.splice(
      value, JSONMemberText.replacements(in: value, rules: self, echoes: &echoes))
    value = Self.splice(value, assignmentReplacements(in: value, echoes: &echoes))
    return Self.splice(
      value, embeddedQueryReplacements(in: value, commaSeparated: true, echoes: &echoes))
  }

  private func redactBody(_ text: String, mimeType: String, echoes: inout RedactionEchoes)
    -> String
  {
    var text = text
    var isJSON = false
    if !jsonPaths.isEmpty || !memberNames.isEmpty {
      let found = AlmostJSON.documents(in: text) { bytes in
        // Member names alone need no tree: a walk finds them.
        jsonPaths.isEmpty ? memberMatches(in: bytes) : (try? JSONNode.parse(bytes)).map(jsonMatches)
      }
      isJSON = !found.documents.isEmpty
      var replacements: [(Range<Int>, String)] = []
      for (offset, matches) in found.documents {
        for match in matches {
          if let secret = match.secret { echoes.remember(memberValue: secret, as: match.name) }
          let range = (match.range.lowerBound + offset)..<(match.range.upperBound + offset)
          replacements.append((range, "\"\(RedactionPlaceholder.text(match.name))\""))
        }
      }
      text = Self.splice(text, replacements)
      if !found.isComplete {
        text = Self.splice(
          text, JSONMemberText.replacements(in: text, rules: self, echoes: &echoes))
      }
    }
    if FormBody.isForm(text, mimeType: mimeType) {
      text = redactPairs(Substring(text), encoded: true, echoes: &echoes)
      text = Self.splice(text, userinfoReplacements(in: text, echoes: &echoes))
    } else {
      text = redactMultipart(text, mimeType: mimeType, echoes: &echoes)
      if !isJSON {
        text = Self.splice(text, xmlElementReplacements(in: text, echoes: &echoes))
      }
      text = Self.splice(text, tableReplacements(in: text, mimeType: mimeType, echoes: &echoes))
      // In JSON too: a GraphQL query names its arguments inside a string.
      text = Self.splice(text, assignmentReplacements(in: text, echoes: &echoes))
      text = Self.splice(text, embeddedQueryReplacements(in: text, echoes: &echoes))
    }
    return applyPatterns(text)
  }

  /// A value a rule selects in a JSON document: its bytes, its placeholder name, and the text
  /// to search for as an echo when it is a string (decoded) or a number.
  struct JSONMatch {
    var range: Range<Int>
    var name: String
    var secret: String?

    init(range: Range<Int>, name: String, secret: String?) {
      self.range = range
      self.name = name
      self.secret = secret
    }

    init(_ node: JSONNode, name: String) {
      let secret: String?
      switch node.value {
      case .string(let text), .number(let text): secret = text
      default: secret = nil
      }
      self.init(range: node.range, name: name, secret: secret)
    }
  }

  /// The values the member names select in the document `bytes`, in document order, or `nil`
  /// when it is not JSON; read without building the document, each selected value parsed
  /// alone.
  private func memberMatches(in bytes: UnsafeBufferPointer<UInt8>) -> [JSONMatch]? {
    var selection = MemberSelection(bytes: bytes, names: CredentialName.Memo(memberNames))
    // The lean walk reads what it is sure of; the parser's walk decides the rest.
    if !JSONMemberWalk.members(in: bytes, to: &selection) {
      selection.selected.removeAll()
      do {
        try JSONNode.walk(bytes, scalars: false) { event in
          guard case .member(let nameRange, let isPlain, let value) = event else { return }
          selection.member(name: nameRange, isPlain: isPlain, value: value)
        }
      } catch {
        return nil
      }
    }
    let selected = selection.selected
    // The walk reports a member after the members inside it; a tree lists the outer first.
    return selected.sorted { $0.value.lowerBound < $1.value.lowerBound }.map { range, name in
      let secret: String?
      switch bytes[range.lowerBound] {
      case UInt8(ascii: "\""):
        secret = JSONNode.string(at: range, in: bytes)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        secret = String(decoding: bytes[range], as: UTF8.self)
      default:
        secret = nil
      }
      return JSONMatch(range: range, name: RedactionPlaceholder.name(from: name), secret: secret)
    }
  }

  /// The members of a body whose names the member-name rules select: each value's bytes and
  /// the name.
  private struct MemberSelection: JSONMemberVisitor {
    let bytes: UnsafeBufferPointer<UInt8>
    var names: CredentialName.Memo
    var selected: [(value: Range<Int>, name: String)] = []

    mutating func member(name nameRange: Range<Int>, isPlain: Bool, value: Range<Int>) {
      if isPlain {
        // Recognised by its bytes: no String for each of a body's millions of members.
        let inside = (nameRange.lowerBound + 1)..<(nameRange.upperBound - 1)
        if names.matches(utf8: .init(rebasing: bytes[inside])) {
          selected.append((value, String(decoding: bytes[inside], as: UTF8.self)))
        }
      } else if let name = JSONNode.string(at: nameRange, in: bytes), names.matches(name) {
        selected.append((value, name))
      }
    }
  }

  /// The values the member names and paths select, each with its placeholder name.
  private func jsonMatches(in document: JSONNode) -> [JSONMatch] {
    var matches = jsonPaths.flatMap { path in
      path.matches(in: document).map { JSONMatch($0, name: path.name) }
    }
    if !memberNames.isEmpty {
      var names = CredentialName.Memo(memberNames)
      document.visitMembers { key, value in
        if names.matches(key) {
          matches.append(JSONMatch(value, name: RedactionPlaceholder.name(from: key)))
        }
      }
    }
    return matches
  }

  /// The placeholder name for a JSON member named `key`, when a rule selects it by name: the
  /// member-name rules, or a `$..name` path, which is one too.
  func placeholderName(forMember key: String) -> String? {
    if memberNames.matches(key) { return RedactionPlaceholder.name(from: key) }
    return jsonPaths.first { $0.steps == [.descendant(key)] }?.name
  }

  /// `text` with each body pattern's matches replaced, one pattern after another. A match of no
  /// characters holds no secret and is left alone, and so is one that reaches into a
  /// placeholder: `.` would otherwise take each character of the placeholders it had just
  /// written, fifteen times longer with each of the rules' rounds (a 4-character body took
  /// 10 s), and a redacted cassette would change when redacted again. The text is built once
  /// per pattern, not edited match by match, so the cost stays linear in the matches.
  func applyPatterns(_ text: String) -> String {
    var text = text
    for pattern in patterns {
      let matches = pattern.regex.matches(in: text)
      guard !matches.isEmpty else { continue }
      let placeholder = RedactionPlaceholder.text(pattern.name)
      var kept = RedactionPlaceholder.spans(in: text)[...]
      var result = ""
      var rest = text.startIndex
      for match in matches {
        let group = match.numberOfRanges > 1 ? match.range(at: 1) : match.range
        guard group.location != NSNotFound, group.length > 0,
          let range = Range(group, in: text), range.lowerBound >= rest
        else { continue }
        while let span = kept.first, span.upperBound <= range.lowerBound { kept.removeFirst() }
        if let span = kept.first, span.lowerBound < range.upperBound { continue }
        result += text[rest..<range.lowerBound]
        result += placeholder
        rest = range.upperBound
      }
      result += text[rest...]
      text = result
    }
    return text
  }

  /// Replaces byte ranges of `text`; a range inside one already replaced is dropped.
  static func splice(_ text: String, _ replacements: [(Range<Int>, String)]) -> String {
    guard !replacements.isEmpty else { return text }
    var accepted: [(Range<Int>, String)] = []
    for replacement in replacements.sorted(by: { $0.0.lowerBound < $1.0.lowerBound }) {
      if let last = accepted.last, replacement.0.lowerBound < last.0.upperBound { continue }
      accepted.append(replacement)
    }
    var bytes = Array(text.utf8)
    for (range, value) in accepted.reversed() {
      bytes.replaceSubrange(range, with: Array(value.utf8))
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

extension JSONNode {
  /// `text` parsed when it is a JSON object or array; plain-text bodies are turned away by
  /// their first character without being parsed.
  static func container(in text: String) -> JSONNode? {
    guard let first = text.utf8.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }),
      first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    else { return nil }
    return try? parse(Array(text.utf8))
  }
}
