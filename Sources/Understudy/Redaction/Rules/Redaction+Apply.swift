extension Redaction {
  /// The archive with every value the rules select replaced by its placeholder, and each such
  /// value also replaced wherever it appears again in its entry or a later one.
  public func redact(_ har: HAR) -> HAR { redactedWithEchoes(har).har }

  /// ``redact(_:)-(HAR)``, with the compiled rules and every value they replaced (the known
  /// ones too), spelled for a search: what a `beforeRecord` hook returns is searched for them,
  /// as a hook can write back a value it took from the test.
  func redactedWithEchoes(_ har: HAR) -> (
    har: HAR, rules: CompiledRedaction, echoes: RedactionEchoes
  ) {
    var result = har
    let rules = CompiledRedaction(self)
    var echoes = rules.known
    result.log.entries = har.log.entries.map { rules.redact($0, echoes: &echoes) }
    // A value found later, in the same entry (a response header naming what its request sent)
    // or in a later one (a token first seen in a redirect, named only by the next request), is
    // searched for in every entry once all are read, and so is a value the rules' own reading
    // brought to light (HTML character references decoded). Searched for after each entry as
    // well, a body was read three times where two do.
    if !echoes.isEmpty {
      for index in result.log.entries.indices {
        rules.replaceEchoes(in: &result.log.entries[index], echoes: &echoes)
      }
    }
    // A placeholder that replaced a placeholder keeps its digest (`<redacted:key:7f3a>`).
    for index in result.log.entries.indices {
      result.log.entries[index].request = RedactionDigests.mark(
        result.log.entries[index].request, original: har.log.entries[index].request, key: nil)
    }
    // A page's title is usually its URL; it is checked against everything the entries held.
    for index in result.log.pages.indices {
      var page = result.log.pages[index]
      page.title = rules.redactText(page.title, echoes: &echoes)
      page.comment = page.comment.map { rules.redactText($0, echoes: &echoes) }
      // The same replacement as each entry's `pageref` had, so the two still match.
      page.id = rules.redactText(page.id, echoes: &echoes)
      // Free text like the page's own comment: the rules read it, not only the echoes.
      page.pageTimings.comment = page.pageTimings.comment.map {
        rules.redactText($0, echoes: &echoes)
      }
      result.log.pages[index] = page
    }
    result.log.comment = result.log.comment.map { rules.redactText($0, echoes: &echoes) }
    // The format's version is a string a file can fill with anything; `1.2` holds nothing.
    result.log.version = rules.redactText(result.log.version, echoes: &echoes)
    // An exporter's name and version are free text like any other: one named
    // `Exporter access_token=…` is redacted as a comment is.
    result.log.creator = rules.redact(har.log.creator, echoes: &echoes)
    result.log.browser = har.log.browser.map { rules.redact($0, echoes: &echoes) }
    for index in result.log.entries.indices {
      writingReplacement(in: &result.log.entries[index])
    }
    return (result, rules, echoes)
  }

  /// The values the rules remove from `entry`, for an output that shows the entry its own way
  /// and must hide what a cassette hides: a report masks them wherever else it shows them.
  /// Known values are not listed: every output searches for those on its own.
  func removedValues(from entry: HAR.Entry) -> Set<String> {
    CompiledRedaction(self).removedValues(from: entry)
  }

  /// The entry with every value the rules select replaced by its placeholder.
  ///
  /// Replay can run a live request through this too, so it compares with a recorded one on the
  /// same, redacted, terms.
  public func redact(_ entry: HAR.Entry) -> HAR.Entry { redactedWithRemovals(entry).entry }

  /// ``redact(_:)-(HAR.Entry)``, and the values the rules removed from `entry`
  /// (``removedValues(from:)``), from one reading.
  func redactedWithRemovals(_ entry: HAR.Entry) -> (entry: HAR.Entry, removed: Set<String>) {
    let rules = CompiledRedaction(self)
    var echoes = rules.known
    var redacted = rules.redact(entry, echoes: &echoes)
    let removed = echoes.values.subtracting(rules.known.values)
    if !echoes.isEmpty { rules.replaceEchoes(in: &redacted, echoes: &echoes) }
    // A placeholder that replaced a placeholder keeps its digest (`<redacted:key:7f3a>`).
    redacted.request = RedactionDigests.mark(redacted.request, original: entry.request, key: nil)
    writingReplacement(in: &redacted)
    return (redacted, removed)
  }

  /// The archive with placeholders replaced by `values`, keyed by placeholder name (the `NAME`
  /// in `<redacted:NAME>`); placeholders without a value stay.
  ///
  /// Replay uses this to hand the code under test a working token, or a cookie it expects,
  /// without the cassette storing one. A value restored into a URL or form body is
  /// percent-encoded, into a JSON body escaped as a JSON string; `Cookie` and `Set-Cookie`
  /// placeholders restore to the same value in the header and the `cookies` array.
  public func restoring(_ har: HAR, values: [String: String]) -> HAR {
    guard !values.isEmpty else { return har }
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
        // A request's placeholders carry a digest (`<redacted:name:7f3a>`); the value goes in
        // place of the whole placeholder either way.
        var restored = RedactionPlaceholder.removingDigests(from: text)
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
package struct CompiledRedaction: Sendable {
  let headerNames: CredentialName
  let queryNames: CredentialName
  let memberNames: CredentialName
  let jsonPaths: [Redaction.JSONPath]
  let patterns: [Redaction.BodyPattern]
  /// Userinfo is the URL's spelling of Basic authorization, so it goes with that header's rule.
  let redactsUserinfo: Bool
  /// The known values (``Redaction/knownValues`` and, when on, the environment's), spelled
  /// once: every redaction starts with them remembered.
  let known: RedactionEchoes
  /// The only headers written, lower-cased (``Redaction/keepingOnlyHeaders(_:)``).
  let keptHeaders: Set<String>?
  /// Headers whose values are URLs, which can carry credentials in their query; HTTP/2's
  /// `:path` pseudo-header, which Chrome exports, repeats the request's query.
  static let urlHeaders: Set<String> = ["location", "content-location", "referer", ":path"]
  /// Headers whose value is a URL's authority (`host[:port]`), which a client may write with the
  /// user information a URL held (`ada:…@host`, HTTP/2's `:authority` from a URL with it).
  static let authorityHeaders: Set<String> = [":authority", "host", "x-forwarded-host"]
  /// Headers that say how a message is framed and encoded, which a body pattern never reads.
  static let framingHeaders: Set<String> = [
    "content-length", "content-type", "content-encoding", "transfer-encoding", "content-range",
    "accept-ranges", "connection", "keep-alive", "date", "vary", ":status", ":method",
    ":scheme",
  ]

  package init(_ redaction: Redaction) {
    let words = redaction.readsNamesAsWords
    headerNames = CredentialName(redaction.headerNames, readingWordsAt: words ? .header : nil)
    queryNames = CredentialName(
      redaction.queryParameterNames, readingWordsAt: words ? .parameter : nil)
    memberNames = CredentialName(
      redaction.jsonMemberNames, readingWordsAt: words ? .jsonMember : nil)
    jsonPaths = redaction.jsonPaths
    patterns = redaction.bodyPatterns
    redactsUserinfo = headerNames.matches("Authorization")
    var known =
      redaction.redactsEnvironmentValues ? KnownValues.environmentEchoes : RedactionEchoes()
    if !redaction.knownValues.isEmpty {
      KnownValues.keepOutOfNames(redaction.knownValues)
      let declared = KnownValues.echoes(for: redaction.knownValues)
      // Declared names first: a value that is in the environment too takes the test's name.
      known =
        known.isEmpty
        ? declared
        : {
          var all = declared
          all.formUnion(known)
          return all
        }()
    }
    self.known = known
    keptHeaders = redaction.keptHeaderNames.map { Set($0.map { $0.lowercased() }) }
  }

  /// Whether redacting `request` could change it: false for a bodiless request with no
  /// credential header, userinfo or credential query parameter, which replay can then compare
  /// as it is, skipping a conversion that costs more than the rest of a replay.
  func mayChange(_ request: InterceptedRequest) -> Bool {
    if !(request.body?.isEmpty ?? true) || request.url.user != nil { return true }
    if let keptHeaders,
      request.headers.contains(where: { !keptHeaders.contains($0.name.lowercased()) })
    {
      return true
    }
    if !known.isEmpty,
      known.occurs(in: request.url.absoluteString)
        || request.headers.contains(where: { known.occurs(in: $0.name + ":" + $0.value) })
    {
      return true
    }
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
      if !patterns.isEmpty, !Self.framingHeaders.contains(field.name.lowercased()) {
        var scratch = RedactionEchoes()
        if applyPatterns(field.value, echoes: &scratch) != field.value { return true }
      }
      if redactsUserinfo && has(field.value, "@") { return true }
      guard has(field.value, "=") || has(field.value, ":") else { return false }
      var scratch = RedactionEchoes()
      return redact(field.value, in: .header(name: field.name), echoes: &scratch) != field.value
    }
    if request.headers.contains(where: headerMayChange) { return true }
    // An absolute URL's decoded path is the snapshot's (which says "/" for an empty one);
    // decoding it again costs as much as the rest of this check.
    let path = request.url.baseURL == nil ? request.path : request.url.path
    return has(request.url.query, ";") || has(path, ";") || Self.mayHoldSegmentText(path)
      || has(request.url.fragment, "=")
      || request.queryItems.contains { queryNames.matches($0.name) }
  }

  /// Free text with URL query credentials and every remembered value replaced.
  func redactText(_ text: String, echoes: inout RedactionEchoes) -> String {
    let redacted = ruled(text, in: .text, echoes: &echoes)
    return settled(
      echoes.replace(in: redacted, field: .text), was: redacted, in: .text, echoes: &echoes)
  }

  /// The creator's or browser's name, version and comment as free text.
  func redact(_ creator: HAR.Creator, echoes: inout RedactionEchoes) -> HAR.Creator {
    var creator = creator
    creator.name = redactText(creator.name, echoes: &echoes)
    creator.version = redactText(creator.version, echoes: &echoes)
    creator.comment = creator.comment.map { redactText($0, echoes: &echoes) }
    return creator
  }

  /// Whether the free-text rules could change `text` (see ``redactOtherString(_:echoes:)``):
  /// an HTTP token (`GET`, `Content-Type`, `h2`) holds no `=`, `:`, space or `@`, so it can
  /// hold no pair, assignment, URL or command line.
  static func mayHoldRuledText(_ text: String) -> Bool {
    !text.utf8.allSatisfy(ASCIIByte.isTokenCharacter)
  }

  /// A string no field rule reads (a header's or parameter's name, a media type, a method, an
  /// HTTP version, the server address) with the free-text rules applied: a header named
  /// `X-Token: …` or a media type `image/png; sig=…` is redacted as a comment would be.
  func redactOtherString(_ text: String, echoes: inout RedactionEchoes) -> String {
    guard Self.mayHoldRuledText(text) else { return text }
    return ruledAfterEchoes(text, in: .text, echoes: &echoes)
  }

  /// `value` with every remembered value replaced, then the rules applied. An echo can be
  /// what made a neighbour a credential: a value that spells a name (a declared `api_key`)
  /// turns `api_key: …` into `<redacted:k>: …`, and a name that holds a placeholder is never
  /// read as a credential's, so the value after it would stay. So where an echo was replaced,
  /// the rules read the text as it was first, only to remember what they select, and those
  /// values are replaced with the echoes.
  private func ruledAfterEchoes(
    _ value: String, in field: RedactableField, echoes: inout RedactionEchoes
  ) -> String {
    guard !echoes.isEmpty else { return ruled(value, in: field, echoes: &echoes) }
    var echoed = echoes.replace(in: value, field: field)
    if echoed != value {
      let before = echoes.count
      _ = ruled(value, in: field, echoes: &echoes)
      if echoes.count != before { echoed = echoes.replace(in: value, field: field) }
    }
    return ruled(echoed, in: field, echoes: &echoes)
  }

  /// The entry with the rules applied, each field after the values remembered before it were
  /// replaced there. A value the rules find in a later field is not yet searched for in the
  /// fields before it: ``replaceEchoes(in:echoes:)`` does that, once every entry is read.
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
      ruledAfterEchoes(value, in: field, echoes: &echoes)
    }
    // Every other string passes the same rules, so no string of the entry escapes them.
    entry.transformOtherStrings { redactOtherString($0, echoes: &echoes) }
    // Left out only now: the rules have read every header, so a credential one held is
    // searched for wherever else it was echoed.
    if let keptHeaders { entry.keepOnlyHeaders(keptHeaders) }
    return entry
  }

  /// `entry` with every value `echoes` remembers replaced wherever it appears: the fields the
  /// rules read, binary bodies, and every other string (header and cookie names, file names).
  func replaceEchoes(in entry: inout HAR.Entry, echoes: inout RedactionEchoes) {
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

  /// The values the rules remove from `entry`, besides the known values (which every output
  /// searches for on its own).
  func removedValues(from entry: HAR.Entry) -> Set<String> {
    var echoes = known
    _ = redact(entry, echoes: &echoes)
    return echoes.values.subtracting(known.values)
  }

  /// The values the rules remove from `value` standing in `field`, for an output that shows
  /// the value its own way (a log masks them) and must hide what a cassette hides.
  func removedValues(from value: String, in field: RedactableField) -> Set<String> {
    var echoes = RedactionEchoes()
    guard redact(value, in: field, echoes: &echoes) != value else { return [] }
    return echoes.values
  }

  /// A value replaced whole may hold a secret a server echoes alone (a token in a cookie's
  /// URL-encoded JSON): it is read as a query value is, each cookie's on its own, and what the
  /// rules find inside is searched for as well.
  private func rememberInside(_ value: String, cookies: Bool, echoes: inout RedactionEchoes) {
    guard cookies else {
      _ = redact(value, in: .queryParameter(name: ""), echoes: &echoes)
      return
    }
    for pair in value.split(separator: ";") {
      guard let equals = pair.firstIndex(of: "=") else { continue }
      let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
      guard !queryNames.matches(name) else { continue }
      _ = redact(
        String(pair[pair.index(after: equals)...]), in: .queryParameter(name: name), echoes: &echoes
      )
    }
  }

  private func redact(_ value: String, in field: RedactableField, echoes: inout RedactionEchoes)
    -> String
  {
    switch field {
    case .url:
      // A `data:` URL holds a body of its own type, as one in a JSON string does.
      if DataURL(value) != nil { return redactBody(value, mimeType: "", echoes: &echoes) }
      let redacted = redactURL(value, echoes: &echoes)
      // What is no absolute URL (an exporter's `redirectURL` of free text) is read as text too.
      return value.contains(bytes: "://") ? redacted : redactFreeText(redacted, echoes: &echoes)
    case .header(let name):
      if headerNames.matches(name) {
        let key = RedactionPlaceholder.name(from: name.lowercased())
        echoes.remember(headerValue: value, named: name, as: key)
        let lowered = name.lowercased()
        rememberInside(
          value, cookies: lowered == "cookie" || lowered == "set-cookie", echoes: &echoes)
        return RedactionPlaceholder.text(key)
      }
      let lowered = name.lowercased()
      // A pattern describes a value, wherever it stands: a `ref-…` a body shows may be sent back
      // in an `X-Order-Ref` header, or stand only there. The headers that frame the message are
      // never the user's data, and a pattern like `\d+` must not take a `Content-Length`.
      let value =
        patterns.isEmpty || Self.framingHeaders.contains(lowered)
        ? value : applyPatterns(value, echoes: &echoes)
      if Self.urlHeaders.contains(lowered) { return redactURL(value, echoes: &echoes) }
      if Self.authorityHeaders.contains(lowered), value.contains(bytes: "@") {
        // Read as the authority of a scheme-relative URL, then written back without its `//`.
        return String(redactURL("//" + value, echoes: &echoes).dropFirst(2))
      }
      return redactHeaderText(value, echoes: &echoes)
    case .cookie(let isRequest):
      let key = isRequest ? "cookie" : "set-cookie"
      guard headerNames.matches(key) else { return value }
      echoes.remember(value, as: key)
      rememberInside(value, cookies: true, echoes: &echoes)
      return RedactionPlaceholder.text(key)
    case .queryParameter(let name):
      if queryNames.matches(name) {
        let key = RedactionPlaceholder.name(from: name.lowercased())
        echoes.remember(value, as: key)
        return RedactionPlaceholder.text(key)
      }
      // `a=1;token=x` arrives as one parameter `a` with the value `1;token=x`.
      let pairs =
        value.contains(bytes: ";")
        ? redactPairs(Substring(value), encoded: false, echoes: &echoes) : value
      // A URL as a value (an OAuth `redirect_uri`, a `next` link) has query pairs of its own,
      // maybe behind further escapes.
      rememberNestedPairs(in: pairs[...], echoes: &echoes)
      // JSON as a value (`state={"csrf":"…"}`), maybe behind further escapes.
      if let opened = openedJSON(pairs, echoes: &echoes)
        ?? openedValue(pairs[...], echoes: &echoes)
      {
        return opened
      }
      return Self.splice(pairs, embeddedQueryReplacements(in: pairs, echoes: &echoes))
    case .formParameter(let name):
      guard queryNames.matches(name) else {
        let opened =
          openedJSON(value, echoes: &echoes) ?? openedValue(value[...], echoes: &echoes)
        return applyPatterns(opened ?? value, echoes: &echoes)
      }
      let key = RedactionPlaceholder.name(from: name.lowercased())
      echoes.remember(value, as: key)
      return RedactionPlaceholder.text(key)
    case .body(let mimeType):
      return redactBody(value, mimeType: mimeType, echoes: &echoes)
    case .text:
      return redactFreeText(value, echoes: &echoes)
    }
  }

  /// Free text (a comment, a status text, a page's title, a header's name, an exporter's
  /// name): its JSON members, assignments, command-line credentials and credential pairs, read
  /// as a text body's are, and the body patterns, since a comment may quote a body (the
  /// near-miss report in an attachment's entry comment).
  private func redactFreeText(_ value: String, echoes: inout RedactionEchoes) -> String {
    let value = patterns.isEmpty ? value : applyPatterns(value, echoes: &echoes)
    return redactFreeTextByName(value, echoes: &echoes)
  }

  private func redactFreeTextByName(_ value: String, echoes: inout RedactionEchoes) -> String {
    let lineValues = credentialLineValues(in: value)
    var value = value
    if value.utf8.contains(UInt8(ascii: "\"")) {
      value = Self.splice(
        value, JSONMemberText.replacements(in: value, rules: self, echoes: &echoes))
    }
    value = Self.splice(value, assignmentReplacements(in: value, echoes: &echoes))
    value = Self.splice(value, commandLineReplacements(in: value, echoes: &echoes))
    value = Self.splice(value, wiFiNetworkCodeReplacements(in: value, echoes: &echoes))
    value = Self.splice(value, embeddedQueryReplacements(in: value, echoes: &echoes))
    return Self.splice(value, credentialLineReplacements(lineValues, in: value, echoes: &echoes))
  }

  /// `value` with each base64 run of text in it (behind a version or a scheme: `v1.eyJ…`,
  /// `enc:eyJ…`; between `.`s) read as the body it holds and written back in the same alphabet;
  /// `nil` when none holds anything the rules change.
  private func redactedBase64Runs(in value: String, echoes: inout RedactionEchoes) -> String? {
    let bytes = Array(value.utf8)
    func isRunByte(_ byte: UInt8) -> Bool { ASCIIByte.isBase64(byte) || byte == UInt8(ascii: "=") }
    var replacements: [(Range<Int>, String)] = []
    var index = 0
    while index < bytes.count {
      guard isRunByte(bytes[index]) else {
        index += 1
        continue
      }
      let start = index
      while index < bytes.count, isRunByte(bytes[index]) { index += 1 }
      // The whole value was tried already; a run is a part of it.
      guard start > 0 || index < bytes.count,
        let wrapped = Base64Body.decoded(String(decoding: bytes[start..<index], as: UTF8.self))
      else { continue }
      let redacted = redactBody(wrapped.text, mimeType: "", echoes: &echoes)
      guard redacted != wrapped.text else { continue }
      replacements.append(
        (
          start..<index,
          Base64Body.encoded(redacted, urlSafe: wrapped.urlSafe, padded: wrapped.padded)
        ))
    }
    return replacements.isEmpty ? nil : Self.splice(value, replacements)
  }

  /// A header no rule names: a `Link` with URLs, a list of pairs (`Baggage: userId=ada,
  /// sessionToken=…`), a JSON object, a configuration or command line a service passes along,
  /// each with its credentials replaced as a text body's are, lines that name one included.
  private func redactHeaderText(_ value: String, echoes: inout RedactionEchoes) -> String {
    // Base64 of text (`X-Userinfo: eyJ…`, a service's `base64url({"api_token": …})`) is read as
    // the text it holds, as a body's is, and written back in the same alphabet.
    if let wrapped = Base64Body.decoded(value) {
      let redacted = redactBody(wrapped.text, mimeType: "", echoes: &echoes)
      if redacted != wrapped.text {
        return Base64Body.encoded(redacted, urlSafe: wrapped.urlSafe, padded: wrapped.padded)
      }
    } else if let opened = redactedBase64Runs(in: value, echoes: &echoes) {
      return opened
    }
    // Hex or base32 of text, or base64 over lines, likewise.
    if let opened = openedEncodedRuns(in: value, echoes: &echoes) { return opened }
    // Read before the rules below change it, as a text body's lines are.
    let lineValues = JSONNode.container(in: value) == nil ? credentialLineValues(in: value) : []
    var value = Self.splice(
      value, JSONMemberText.replacements(in: value, rules: self, echoes: &echoes))
    value = Self.splice(value, assignmentReplacements(in: value, echoes: &echoes))
    value = Self.splice(value, commandLineReplacements(in: value, echoes: &echoes))
    value = Self.splice(
      value, embeddedQueryReplacements(in: value, commaSeparated: true, echoes: &echoes))
    return Self.splice(value, credentialLineReplacements(lineValues, in: value, echoes: &echoes))
  }

  func redactBody(_ text: String, mimeType: String, echoes: inout RedactionEchoes)
    -> String
  {
    // A byte order mark is no part of the text: `password: …` after it starts the text.
    if text.unicodeScalars.first == "\u{FEFF}" {
      let rest = String(text.unicodeScalars.dropFirst())
      return "\u{FEFF}" + redactBody(rest, mimeType: mimeType, echoes: &echoes)
    }
    // A `data:` URL (an avatar or a link in a JSON string) holds a body of its own type.
    if let dataURL = DataURL(text) {
      let redacted = redactBody(dataURL.payload, mimeType: dataURL.mediaType, echoes: &echoes)
      if redacted != dataURL.payload { return dataURL.replacingPayload(with: redacted) }
    }
    // Hex of text likewise (a body, or a JSON string, written as `7b2270…`).
    if let wrapped = HexBody.decoded(text) {
      let redacted = redactBody(wrapped.text, mimeType: "", echoes: &echoes)
      if redacted != wrapped.text { return HexBody.encoded(redacted, upperCase: wrapped.upperCase) }
    }
    // Base64 of text is read as the text it holds, whatever the type says.
    if let wrapped = Base64Body.decoded(text) {
      let redacted = redactBody(wrapped.text, mimeType: "", echoes: &echoes)
      if redacted != wrapped.text {
        return Base64Body.encoded(redacted, urlSafe: wrapped.urlSafe, padded: wrapped.padded)
      }
    }
    // Percent-encoded text likewise, written back with the escapes it came with.
    if let encoded = PercentEncodedBody(text) {
      let redacted = redactBody(encoded.text, mimeType: mimeType, echoes: &echoes)
      if redacted != encoded.text { return encoded.encoded(redacted) }
    }
    // A name or a value spelled in character references (`&#x74;oken=…`) is read as a browser
    // reads it; the text is written with them decoded only when that finds something.
    if let decoded = HTMLCharacterReferences.decoded(text) {
      var trial = echoes
      let redacted = redactBody(decoded, mimeType: mimeType, echoes: &trial)
      if redacted != decoded || trial.occurs(in: decoded) {
        echoes = trial
        return redacted
      }
    }
    var text = text
    // A MIME part in base64 (an e-mail's body) is read as the text it holds, as a body that is
    // base64 whole is, declared values and echoes included: their base64 is cut by its lines.
    var mimeParts: [(Range<Int>, String)] = []
    let blocks = MIMEBase64Parts.blocks(in: text)
    let textBytes = blocks.isEmpty ? [] : Array(text.utf8)
    for block in blocks {
      let part = String(decoding: textBytes[block.range], as: UTF8.self)
      guard let wrapped = Base64Body.decoded(part) else { continue }
      var redacted = redactBody(wrapped.text, mimeType: "", echoes: &echoes)
      if !echoes.isEmpty { redacted = echoes.replace(in: redacted, field: .text) }
      guard redacted != wrapped.text else { continue }
      mimeParts.append(
        (
          block.range,
          MIMEBase64Parts.encoded(redacted, lineBreak: block.lineBreak, width: block.width)
        ))
    }
    text = Self.splice(text, mimeParts)
    // Base64, hex or base32 of text anywhere else in it (an element, a cell, an attribute, a
    // log line's value, a part with no transfer encoding) likewise.
    text = Self.splice(text, encodedRunReplacements(in: text, echoes: &echoes))
    var isJSON = false
    if !jsonPaths.isEmpty || !memberNames.isEmpty {
      let found = AlmostJSON.documents(in: text) { bytes in
        // Member names alone need no tree: a walk finds them.
        let matches =
          jsonPaths.isEmpty
          ? memberMatches(in: bytes)
          : (try? JSONNode.parse(bytes)).map { jsonMatches(in: $0) + arrayPairMatches(in: bytes) }
        return matches.map { ($0, JSONStringText.ranges(in: bytes)) }
      }
      isJSON = !found.documents.isEmpty
      var replacements: [(Range<Int>, String)] = []
      for (offset, (matches, strings)) in found.documents {
        for match in matches {
          if let secret = match.secret { echoes.remember(memberValue: secret, as: match.name) }
          let range = (match.range.lowerBound + offset)..<(match.range.upperBound + offset)
          replacements.append((range, "\"\(RedactionPlaceholder.text(match.name))\""))
        }
        let selected = Set(matches.map(\.range.lowerBound))
        replacements += stringTextReplacements(
          in: text, at: strings.filter { !selected.contains($0.lowerBound) }, offset: offset,
          echoes: &echoes)
      }
      text = Self.splice(text, replacements)
      if !found.isComplete {
        text = Self.splice(
          text, JSONMemberText.replacements(in: text, rules: self, echoes: &echoes))
      }
      text = Self.splice(
        text, JSONMemberText.escapedReplacements(in: text, rules: self, echoes: &echoes))
    }
    if FormBody.isForm(text, mimeType: mimeType) {
      text = redactPairs(Substring(text), encoded: true, echoes: &echoes)
      text = Self.splice(text, userinfoReplacements(in: text, echoes: &echoes))
    } else {
      // JSON's members are its names, and a minified document is one line.
      let lineValues = isJSON ? [] : credentialLineValues(in: text)
      text = redactMultipart(text, mimeType: mimeType, echoes: &echoes)
      if !isJSON {
        text = Self.splice(text, xmlElementReplacements(in: text, echoes: &echoes))
      }
      text = Self.splice(text, tableReplacements(in: text, mimeType: mimeType, echoes: &echoes))
      if !isJSON { text = Self.splice(text, htmlTableReplacements(in: text, echoes: &echoes)) }
      text = Self.splice(text, eventStreamReplacements(in: text, echoes: &echoes))
      text = Self.splice(text, splitEventDataReplacements(in: text, echoes: &echoes))
      text = Self.splice(text, labelledBlockReplacements(in: text, echoes: &echoes))
      text = Self.splice(text, yamlHeldNameReplacements(in: text, echoes: &echoes))
      // In JSON too: a GraphQL query names its arguments inside a string.
      text = Self.splice(
        text, assignmentReplacements(in: text, readingNamedStrings: !isJSON, echoes: &echoes))
      text = Self.splice(text, commandLineReplacements(in: text, echoes: &echoes))
      text = Self.splice(text, wiFiNetworkCodeReplacements(in: text, echoes: &echoes))
      text = Self.splice(
        text, whitespacePairReplacements(in: text, mimeType: mimeType, echoes: &echoes))
      text = Self.splice(text, embeddedQueryReplacements(in: text, echoes: &echoes))
      // Last, for what no rule above took: a random-looking value on a line that names a
      // credential, as the text read before them.
      if !lineValues.isEmpty {
        text = Self.splice(
          text, credentialLineReplacements(lineValues, in: text, echoes: &echoes))
      }
    }
    // Quotes, `<` and `&` written as references are read decoded as well, and what that
    // reading finds that the rules above did not is replaced in the text as written
    // (`&quot;password&quot;: &quot;…&quot;` in a `<pre>`).
    if let reading = HTMLCharacterReferences.decodedForReading(text),
      reading != HTMLCharacterReferences.decoded(text) ?? text
    {
      var trial = echoes
      _ = redactBody(reading, mimeType: mimeType, echoes: &trial)
      if trial.count > echoes.count {
        echoes = trial
        text = echoes.replace(in: text, field: .body(mimeType: mimeType))
      }
    }
    return applyPatterns(text, echoes: &echoes)
  }

  /// Each JSON string at `strings` (``JSONStringText``, offsets from `offset`) decoded, read as
  /// a text body is (JSON inside it redacted the same way, so at any depth of escaping: each
  /// level is shorter than the one around it), and written back escaped where that changed it.
  private func stringTextReplacements(
    in text: String, at strings: [Range<Int>], offset: Int, echoes: inout RedactionEchoes
  ) -> [(Range<Int>, String)] {
    guard !strings.isEmpty else { return [] }
    var text = text
    return text.withUTF8 { bytes in
      strings.compactMap { string in
        let range = (string.lowerBound + offset)..<(string.upperBound + offset)
        guard let decoded = JSONNode.string(at: range, in: bytes) else { return nil }
        let redacted = redactBody(decoded, mimeType: "", echoes: &echoes)
        guard redacted != decoded else { return nil }
        return (range, "\"" + RedactionEchoes.jsonEscaped(redacted) + "\"")
      }
    }
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
    var selected = selection.selected
    var names = selection.names
    let keyNames = selection.keyNameMembers
    for (range, name) in HeldCredentialName.pairs(
      names: selection.nameMembers, values: selection.valueMembers, in: bytes,
      judge: {
        Self.heldName(
          at: $0, namingAKey: keyNames.contains($0.lowerBound), in: bytes, names: &names)
      })
    {
      selected.append((range, name))
    }
    for pair in HeldCredentialName.arrayPairs(in: bytes) {
      if let name = Self.heldName(at: pair.held, namingAKey: false, in: bytes, names: &names) {
        selected.append((pair.value, name))
      }
    }
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

  /// The placeholder name the name member's string at `range` gives, when the member-name
  /// rules make it a credential's (``HeldCredentialName``).
  private static func heldName(
    at range: Range<Int>, namingAKey: Bool, in bytes: UnsafeBufferPointer<UInt8>,
    names: inout CredentialName.Memo
  ) -> String? {
    let inside = bytes[(range.lowerBound + 1)..<(range.upperBound - 1)]
    // Most held names are plain words, judged by their bytes as member names are; base64 (an
    // etcd key) is decoded below.
    if !namingAKey,
      inside.count < 24
        || inside.contains(where: { !ASCIIByte.isBase64($0) && $0 != UInt8(ascii: "=") }),
      !inside.contains(where: {
        $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: ":")
      })
    {
      guard names.matches(utf8: .init(rebasing: inside)) else { return nil }
      return RedactionPlaceholder.name(from: String(decoding: inside, as: UTF8.self))
    }
    guard let held = JSONNode.string(at: range, in: bytes) else { return nil }
    return HeldCredentialName.placeholderName(held: held, namingAKey: namingAKey) {
      names.matches($0)
    }
  }

  /// The members of a body whose names the member-name rules select: each value's bytes and
  /// the name.
  private struct MemberSelection: JSONMemberVisitor {
    let bytes: UnsafeBufferPointer<UInt8>
    var names: CredentialName.Memo
    var selected: [(value: Range<Int>, name: String)] = []
    /// The string values of name members (``HeldCredentialName``), judged only when a
    /// sibling value member is found.
    var nameMembers: [Range<Int>] = []
    /// The name members among ``nameMembers`` that name a key (`keyName`), by their start.
    var keyNameMembers: Set<Int> = []
    /// Value members whose string, number or small object a sibling name member may make a
    /// credential.
    var valueMembers: [Range<Int>] = []

    mutating func member(name nameRange: Range<Int>, isPlain: Bool, value: Range<Int>) {
      if isPlain {
        // Recognised by its bytes: no String for each of a body's millions of members.
        let inside = (nameRange.lowerBound + 1)..<(nameRange.upperBound - 1)
        let name = UnsafeBufferPointer(rebasing: bytes[inside])
        if names.matches(utf8: name) {
          selected.append((value, String(decoding: bytes[inside], as: UTF8.self)))
        } else if let kind = HeldCredentialName.kind(utf8: name) {
          structured(kind, value: value)
        }
      } else if let name = JSONNode.string(at: nameRange, in: bytes) {
        if names.matches(name) {
          selected.append((value, name))
        } else if HeldCredentialName.isNameKey(name) {
          structured(HeldCredentialName.namesAKey(name) ? .keyName : .name, value: value)
        } else if HeldCredentialName.isValueKey(name) {
          structured(.value, value: value)
        }
      }
    }

    /// Notes a name member holding a credential's name, or a value member.
    private mutating func structured(_ kind: HeldCredentialName.Kind, value: Range<Int>) {
      let first = bytes[value.lowerBound]
      switch kind {
      case .name, .keyName:
        guard first == UInt8(ascii: "\""), value.count > 2 else { return }
        nameMembers.append(value)
        if kind == .keyName { keyNameMembers.insert(value.lowerBound) }
      case .value:
        // A small object holds one typed value (OpenTelemetry's `{"stringValue": …}`).
        guard
          first == UInt8(ascii: "\"") || first == UInt8(ascii: "-")
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
            || first == UInt8(ascii: "{") && value.count <= 256
        else { return }
        valueMembers.append(value)
      }
    }
  }

  /// The second string of each array of two whose first names a credential
  /// (``HeldCredentialName/arrayPairs(in:)``), for the parsed reading; the walk finds them too.
  private func arrayPairMatches(in bytes: UnsafeBufferPointer<UInt8>) -> [JSONMatch] {
    guard !memberNames.isEmpty else { return [] }
    var names = CredentialName.Memo(memberNames)
    return HeldCredentialName.arrayPairs(in: bytes).compactMap { pair in
      Self.heldName(at: pair.held, namingAKey: false, in: bytes, names: &names).map {
        JSONMatch(range: pair.value, name: $0, secret: JSONNode.string(at: pair.value, in: bytes))
      }
    }
  }

  /// The values the member names and paths select, each with its placeholder name.
  private func jsonMatches(in document: JSONNode) -> [JSONMatch] {
    var matches = jsonPaths.flatMap { path in
      // A known value in the key is the gate's to find, once the values are declared.
      path.matches(in: document).map {
        JSONMatch($0, name: RedactionPlaceholder.name(from: path.name))
      }
    }
    if !memberNames.isEmpty {
      var names = CredentialName.Memo(memberNames)
      document.visitMembers { key, value in
        if names.matches(key) {
          matches.append(JSONMatch(value, name: RedactionPlaceholder.name(from: key)))
        }
      }
      document.visitObjects { members in
        var held: String?
        for member in members where held == nil && HeldCredentialName.isNameKey(member.key) {
          guard case .string(let text) = member.value.value else { continue }
          held = HeldCredentialName.placeholderName(
            held: text, namingAKey: HeldCredentialName.namesAKey(member.key)
          ) { names.matches($0) }
        }
        guard let held else { return }
        for member in members where HeldCredentialName.isValueKey(member.key) {
          switch member.value.value {
          case .string, .number: matches.append(JSONMatch(member.value, name: held))
          case .object where member.value.range.count <= 256:
            matches.append(JSONMatch(member.value, name: held))
          default: break
          }
        }
      }
    }
    return matches
  }

  /// The placeholder name for a JSON member named `key`, when a rule selects it by name: the
  /// member-name rules, or a `$..name` path, which is one too.
  func placeholderName(forMember key: String) -> String? {
    if memberNames.matches(key) { return RedactionPlaceholder.name(from: key) }
    return jsonPaths.first { $0.steps == [.descendant(key)] }.map {
      RedactionPlaceholder.name(from: $0.name)
    }
  }

  /// `text` with each body pattern's matches replaced, one pattern after another. A match of no
  /// characters holds no secret and is left alone, and so is one that reaches into a
  /// placeholder: `.` would otherwise take each character of the placeholders it had just
  /// written, fifteen times longer with each of the rules' rounds (a 4-character body took
  /// 10 s), and a redacted cassette would change when redacted again. The text is built once
  /// per pattern, not edited match by match, so the cost stays linear in the matches. Each
  /// value taken is remembered as an echo: a value a test named by its shape is as secret where
  /// a header, a `Location` or a later request repeats it.
  func applyPatterns(_ text: String, echoes: inout RedactionEchoes) -> String {
    var text = text
    for pattern in patterns {
      let name = RedactionPlaceholder.cleanedName(from: pattern.name)
      let placeholder = RedactionPlaceholder.text(name)
      defer { text = Self.referencedPatternMatches(pattern, in: text, as: placeholder) }
      let matches = pattern.regex.matches(in: text)
      guard !matches.isEmpty else { continue }
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
        echoes.remember(String(text[range]), as: name)
        rest = range.upperBound
      }
      result += text[rest...]
      text = result
    }
    return text
  }

  /// `text` with what `pattern` matches where the page wrote a character it names as a
  /// reference (`&#x27;` for `'`) replaced by `placeholder`, placeholders left as they are.
  private static func referencedPatternMatches(
    _ pattern: Redaction.BodyPattern, in text: String, as placeholder: String
  ) -> String {
    let referenced = pattern.regex.matchRangesThroughReferences(in: text)
    guard !referenced.isEmpty else { return text }
    let spans = RedactionPlaceholder.byteSpans(in: text)
    return splice(
      text,
      referenced.filter { range in !spans.contains { $0.overlaps(range) } }.map {
        ($0, placeholder)
      })
  }

  /// A command line's credential options (``CommandLineCredentials``), each value remembered as
  /// an echo.
  func commandLineReplacements(in text: String, echoes: inout RedactionEchoes) -> [(
    Range<Int>, String
  )] {
    // Rules that name no header (`Redaction.none`, a scan of shapes alone) read no command.
    guard !headerNames.isEmpty else { return [] }
    return CommandLineCredentials.ranges(in: text, headerNames: headerNames).compactMap { found in
      let value = String(text[found.range])
      guard !RedactionPlaceholder.isPresent(in: value) else { return nil }
      echoes.remember(value, as: found.name)
      return (Self.byteRange(of: found.range, in: text), RedactionPlaceholder.text(found.name))
    }
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
    guard let first = text.utf8.first(where: { !ASCIIByte.isJSONWhitespace($0) }),
      first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    else { return nil }
    return try? parse(Array(text.utf8))
  }
}
