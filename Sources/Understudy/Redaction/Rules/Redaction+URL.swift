extension CompiledRedaction {
  /// Redacts the userinfo, the `;` parameters of path segments, the query and a `key=value`
  /// fragment of a URL, leaving every other byte as it was (re-serialising through
  /// URLComponents would re-encode parts of it).
  func redactURL(_ url: String, echoes: inout RedactionEchoes) -> String {
    var beforeFragment = Substring(url)
    var fragment: Substring?
    if let hash = url.firstIndex(of: "#") {
      beforeFragment = url[..<hash]
      fragment = url[url.index(after: hash)...]
    }
    var beforeQuery = beforeFragment
    var query: Substring?
    if let question = beforeFragment.firstIndex(of: "?") {
      beforeQuery = beforeFragment[..<question]
      query = beforeFragment[beforeFragment.index(after: question)...]
    }
    var result = redactUserinfo(in: beforeQuery, echoes: &echoes)
    if !queryNames.isEmpty, result.contains(bytes: ";") {
      result = redactPathParameters(in: result, echoes: &echoes)
    }
    if !queryNames.isEmpty, Self.holdsEscapedQuery(result) || Self.mayHoldSegmentText(result) {
      result = redactPathSegments(in: result, echoes: &echoes)
    }
    if let query {
      result += "?" + (queryNames.isEmpty ? String(query) : redactPairs(query, echoes: &echoes))
    }
    if let fragment {
      let redacts = !queryNames.isEmpty && fragment.contains(bytes: "=")
      result += "#" + (redacts ? redactPairs(fragment, echoes: &echoes) : String(fragment))
    }
    // A placeholder's `:` in a host, or in the first segment of a URL without a scheme
    // (`a;d:password=…`), would make Foundation refuse the URL; echoes are spelled the same way,
    // so a second redaction, which finds no echoes, writes what the first one did.
    return result == url ? url : RedactionPlaceholder.authoritySafe(result)
  }

  /// `scheme://user:password@host…` with the userinfo replaced by
  /// `%3Credacted:userinfo%3E`, which is still valid userinfo, so the URL still parses.
  private func redactUserinfo(in url: Substring, echoes: inout RedactionEchoes) -> String {
    // A scheme-relative URL (`//ada:…@cdn`) has an authority as well.
    guard redactsUserinfo,
      let scheme = url.range(of: "://")
        ?? (url.hasPrefix("//") ? url.startIndex..<url.index(url.startIndex, offsetBy: 2) : nil)
    else { return String(url) }
    let authority = url[scheme.upperBound...].prefix { $0 != "/" }
    guard let at = authority.lastIndex(of: "@") else { return String(url) }
    let userinfo = authority[..<at]
    guard !RedactionPlaceholder.isPresent(in: String(userinfo)) else { return String(url) }
    echoes.remember(userinfo: String(userinfo))
    return url[..<scheme.upperBound] + RedactionPlaceholder.percentEncoded("userinfo")
      + url[at...]
  }

  /// Path segments' `;name=value` parameters, such as `;jsessionid=…`.
  private func redactPathParameters(in url: String, echoes: inout RedactionEchoes) -> String {
    url.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
      guard let semicolon = segment.firstIndex(of: ";") else { return String(segment) }
      return segment[..<semicolon] + ";"
        + redactPairs(segment[segment.index(after: semicolon)...], echoes: &echoes)
    }.joined(separator: "/")
  }

  /// Path segments that hold text: a query behind escapes (`/x%3Faccess_token%3D…`, a URL
  /// built by escaping another into a path), read as a query value holding a URL is, its pairs'
  /// credentials remembered as echoes (``rememberNestedPairs(in:echoes:)``), which the echo
  /// pass replaces in this spelling too, and JSON or pairs behind escapes redacted in place
  /// (``openedValue(_:echoes:)``); base64 of text (`/callback/eyJwYXNzd29yZCI6…`), opened as
  /// a query value's is; and a pair (`/auth/token=…/`), read as a query's.
  private func redactPathSegments(in url: String, echoes: inout RedactionEchoes) -> String {
    url.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
      if Self.holdsEscapedQuery(segment) {
        rememberNestedPairs(in: segment, echoes: &echoes)
        return openedValue(segment, echoes: &echoes) ?? String(segment)
      }
      if segment.utf8.count >= Self.longSegment, let opened = openedValue(segment, echoes: &echoes)
      {
        return opened
      }
      return segment.contains(bytes: "=") ? redactPairs(segment, echoes: &echoes) : String(segment)
    }.joined(separator: "/")
  }

  /// The length from which a path segment may be base64 of text (``Base64Body``).
  static let longSegment = 24

  /// Whether a URL's part before its query may hold a segment ``redactPathSegments(in:echoes:)``
  /// reads: one with an `=`, or one of ``longSegment`` bytes or more. Read byte by byte: a path
  /// is short, and replay asks this of every request.
  static func mayHoldSegmentText(_ path: some StringProtocol) -> Bool {
    var length = 0
    for byte in path.utf8 {
      if byte == UInt8(ascii: "=") { return true }
      length = byte == UInt8(ascii: "/") ? 0 : length + 1
      if length >= longSegment { return true }
    }
    return false
  }

  /// Redacts the values of `name=value` pairs separated by `&` or `;`, as URLs and form bodies
  /// write them (`encoded`) or as `queryString` holds them, decoded.
  func redactPairs(_ pairs: Substring, encoded: Bool = true, echoes: inout RedactionEchoes)
    -> String
  {
    var result = ""
    var rest = pairs
    while true {
      let end = rest.firstIndex { $0 == "&" || $0 == ";" } ?? rest.endIndex
      result += redactPair(rest[..<end], encoded: encoded, echoes: &echoes)
      guard end < rest.endIndex else { return result }
      result.append(rest[end])
      rest = rest[rest.index(after: end)...]
    }
  }

  private func redactPair(_ pair: Substring, encoded: Bool, echoes: inout RedactionEchoes)
    -> String
  {
    guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
    let rawName = pair[..<equals]
    let name = encoded ? FormBody.decode(rawName) : String(rawName)
    let rawValue = pair[pair.index(after: equals)...]
    guard queryNames.matches(name) else {
      // A URL as a value (`redirect_uri=https%3A%2F%2Fapp%2Fcb%3Faccess_token%3D…`) hides its
      // pairs behind escapes. Its credentials are remembered here, and replaced as echoes in
      // every spelling, this one included.
      if encoded {
        rememberNestedPairs(in: rawValue, echoes: &echoes)
        // A body built by interpolation leaves `?`, `/` and `=` in a value as they are
        // (`next=https://app/cb?code=…`), which a form allows: that URL's pairs are in plain
        // sight.
        if rawValue.contains(bytes: "?") {
          _ = embeddedQueryReplacements(in: String(rawValue), nesting: false, echoes: &echoes)
        }
        if let opened = openedValue(rawValue, echoes: &echoes) { return rawName + "=" + opened }
      } else if let opened = openedJSON(String(rawValue), echoes: &echoes) {
        return rawName + "=" + opened
      }
      return String(pair)
    }
    let key = RedactionPlaceholder.name(from: name.lowercased())
    if encoded {
      echoes.remember(String(rawValue), as: key)
      echoes.remember(FormBody.decode(rawValue), as: key)
    } else {
      echoes.remember(String(rawValue), as: key)
    }
    let placeholder =
      encoded ? RedactionPlaceholder.percentEncoded(key) : RedactionPlaceholder.text(key)
    return rawName + "=" + placeholder
  }

  /// How many times a URL inside a query value may be percent-encoded and still have its
  /// credential pairs found (`%253F` is a `?` encoded twice).
  static let nestedURLLevels = 3

  /// Whether `text` holds a `?` escaped once or more, up to ``nestedURLLevels`` times (`%3F`,
  /// `%253F`, `%25253F`): a query behind escapes in a path.
  static func holdsEscapedQuery(_ text: some StringProtocol) -> Bool {
    text.contains(bytesIgnoringCase: "%3F") || text.contains(bytesIgnoringCase: "%253F")
      || text.contains(bytesIgnoringCase: "%25253F")
  }

  /// `value`, a pair's value no rule selects, with what it holds behind one or more levels of
  /// escapes (`state=%7B%22csrf%22%3A%22…%22%7D`, JSON; `next=%2Fhome%3Ftoken%3D…`, pairs)
  /// redacted as a body of that text is, then escaped again as many times; `nil` when the rules
  /// change nothing. An echo is not enough: a value shorter than
  /// ``Redaction/minimumEchoLength`` is never searched for, and the rules find it here by name.
  func openedValue(_ value: Substring, echoes: inout RedactionEchoes) -> String? {
    // Base64 of text (`?payload=eyJwYXNzd29yZCI6…`) is read as the body it holds, as a body
    // that is base64 whole is.
    if let wrapped = Base64Body.decoded(String(value)) {
      let redacted = redactBody(wrapped.text, mimeType: "", echoes: &echoes)
      if redacted != wrapped.text {
        return Base64Body.encoded(redacted, urlSafe: wrapped.urlSafe, padded: wrapped.padded)
      }
    }
    // Hex or base32 of text (`?d=7b2270617373776f7264…`) likewise.
    if let opened = openedEncodedRuns(in: String(value), echoes: &echoes) { return opened }
    var level = value
    for depth in 1...Self.nestedURLLevels {
      guard level.contains(bytes: "%") else { return nil }
      let decoded = FormBody.decode(level)
      // Each level is shorter than the one around it, so reading it as a body, which may open
      // a value of its own here, ends.
      guard decoded.utf8.count < level.utf8.count else { return nil }
      // Text a body rule could read (``mayName(_:)``) is read as a body; a path or a word is
      // not, which would cost a large page's every link a body's passes.
      // A URL, or a path with a query, is left to the nested-pairs reading, which keeps its
      // bytes as they were; read as a body, it would be taken for a form.
      if Self.isURLShaped(decoded) { return nil }
      guard Self.mayName(decoded) else {
        level = decoded[...]
        continue
      }
      let redacted = redactBody(decoded, mimeType: "", echoes: &echoes)
      if redacted != decoded {
        var encoded = redacted
        for _ in 0..<depth { encoded = RedactionPlaceholder.percentEncode(encoded) }
        return encoded
      }
      level = decoded[...]
    }
    return nil
  }

  /// Whether `text` is a URL or a path with a query: a `://`, or a `?` before its first `=`.
  static func isURLShaped(_ text: String) -> Bool {
    if text.contains(bytes: "://") { return true }
    guard let question = text.utf8.firstIndex(of: UInt8(ascii: "?")) else { return false }
    let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) ?? text.utf8.endIndex
    return question < equals
  }

  /// Whether decoded text can hold anything a body rule reads: a pair or an assignment (`=`,
  /// `:`), JSON (`"`), markup (`<`), or words that name a value (a blank).
  static func mayName(_ text: String) -> Bool {
    text.utf8.contains {
      $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: ":")
        || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: " ")
    }
  }

  /// `value`, a decoded pair's value no rule selects, redacted as a JSON body when it is one
  /// (`{"csrf":"…"}`); `nil` when it is none or the rules change nothing.
  func openedJSON(_ value: String, echoes: inout RedactionEchoes) -> String? {
    guard let first = value.utf8.first(where: { !ASCIIByte.isJSONWhitespace($0) }),
      first == UInt8(ascii: "{") || first == UInt8(ascii: "["), value.contains(bytes: "\"")
    else { return nil }
    let redacted = redactBody(value, mimeType: "application/json", echoes: &echoes)
    return redacted == value ? nil : redacted
  }

  /// Remembers, as echoes, the credentials in the pairs of a URL that `value` holds behind one
  /// or more levels of escapes; the echo pass then replaces them in every spelling.
  func rememberNestedPairs(in value: Substring, echoes: inout RedactionEchoes) {
    var level = value
    for _ in 0..<Self.nestedURLLevels where level.contains(bytes: "%") {
      let decoded = FormBody.decode(level)
      guard decoded != level else { return }
      _ = embeddedQueryReplacements(in: decoded, nesting: false, echoes: &echoes)
      level = decoded[...]
    }
  }
}

extension CompiledRedaction {
  /// The default rules, compiled once: for text an error or a report carries as a value rather
  /// than a string that ``LogRedaction`` masks (a `URLError`'s failing URL), and for what a
  /// report or a log asks a cassette would remove (``LogRedaction/removedByCassettes(from:in:)``,
  /// ``RequestSecrets``).
  static let forReports = CompiledRedaction(.default)

  /// `url` with its credentials replaced as a cassette's would be, and every known value
  /// (declared by any test, or in the environment) too: still a URL, unlike a masked one.
  func redactedURL(_ url: String) -> String {
    var echoes = KnownValues.forLogs
    let ruled = redactURL(echoes.replace(in: url, field: .url), echoes: &echoes)
    return echoes.replace(in: ruled, field: .url)
  }

  /// The URL of `request` as a cassette would write it: its credentials replaced, and every
  /// value the rules take from its headers and body (and every known value) replaced where the
  /// URL repeats it.
  func redactedURL(of request: InterceptedRequest) -> String {
    var echoes = KnownValues.forLogs
    echoes.formUnion(known)
    var entry = redact(RequestSecrets.entry(of: request), echoes: &echoes)
    if !echoes.isEmpty { replaceEchoes(in: &entry, echoes: &echoes) }
    return entry.request.url
  }
}
