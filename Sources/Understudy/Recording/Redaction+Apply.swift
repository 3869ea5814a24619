extension Redaction {
  /// The archive with every value the rules select replaced by its placeholder.
  public func redact(_ har: HAR) -> HAR {
    var result = har
    let rules = CompiledRules(self)
    result.log.entries = har.log.entries.map { rules.redact($0) }
    return result
  }

  /// The entry with every value the rules select replaced by its placeholder.
  ///
  /// Replay can run a live request through this too, so it compares with a recorded one on the
  /// same, redacted, terms.
  public func redact(_ entry: HAR.Entry) -> HAR.Entry {
    CompiledRules(self).redact(entry)
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
        guard text.range(of: "redacted:", options: .caseInsensitive) != nil else { return text }
        let isJSON: Bool
        if case .body = field {
          isJSON = JSONNode.container(in: text) != nil
        } else {
          isJSON = false
        }
        var restored = text
        for (name, value) in replacements {
          restored = restored.replacingOccurrences(
            of: RedactionPlaceholder.text(name), with: isJSON ? jsonEscaped(value) : value)
          restored = restored.replacingOccurrences(
            of: RedactionPlaceholder.percentEncoded(name),
            with: RedactionPlaceholder.percentEncode(value), options: .caseInsensitive)
        }
        return restored
      }
    }
    return result
  }

  private func jsonEscaped(_ value: String) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .withoutEscapingSlashes
    let quoted = (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) }
    return quoted.map { String($0.dropFirst().dropLast()) } ?? value
  }
}

/// The rules with names lower-cased once, applied to one entry at a time.
private struct CompiledRules {
  let headerNames: Set<String>
  let queryNames: Set<String>
  let jsonPaths: [Redaction.JSONPath]
  let patterns: [Redaction.BodyPattern]
  /// Headers whose values are URLs, which can carry credentials in their query; HTTP/2's
  /// `:path` pseudo-header, which Chrome exports, repeats the request's query.
  static let urlHeaders: Set<String> = ["location", "content-location", "referer", ":path"]

  init(_ redaction: Redaction) {
    headerNames = Set(redaction.headerNames.map { $0.lowercased() })
    queryNames = Set(redaction.queryParameterNames.map { $0.lowercased() })
    jsonPaths = redaction.jsonPaths
    patterns = redaction.bodyPatterns
  }

  func redact(_ entry: HAR.Entry) -> HAR.Entry {
    var entry = entry
    entry.transformRedactableFields { field, value in
      switch field {
      case .url:
        return redactQuery(inURL: value)
      case .header(let name):
        let key = name.lowercased()
        if headerNames.contains(key) { return RedactionPlaceholder.text(key) }
        return Self.urlHeaders.contains(key) ? redactQuery(inURL: value) : value
      case .cookie(let isRequest):
        let key = isRequest ? "cookie" : "set-cookie"
        return headerNames.contains(key) ? RedactionPlaceholder.text(key) : value
      case .queryParameter(let name):
        let key = name.lowercased()
        return queryNames.contains(key) ? RedactionPlaceholder.text(key) : value
      case .formParameter(let name):
        let key = name.lowercased()
        return queryNames.contains(key) ? RedactionPlaceholder.text(key) : applyPatterns(value)
      case .body(let mimeType):
        return redactBody(value, mimeType: mimeType)
      }
    }
    return entry
  }

  private func redactBody(_ text: String, mimeType: String) -> String {
    var text = text
    if !jsonPaths.isEmpty, let document = JSONNode.container(in: text) {
      let replacements = jsonPaths.flatMap { path in
        path.matches(in: document).map { ($0.range, "\"\(RedactionPlaceholder.text(path.name))\"") }
      }
      text = splice(text, replacements)
    }
    if mimeType.lowercased().contains("x-www-form-urlencoded") {
      text = redactPairs(Substring(text))
    }
    return applyPatterns(text)
  }

  private func applyPatterns(_ text: String) -> String {
    var text = text
    for pattern in patterns {
      let placeholder = RedactionPlaceholder.text(pattern.name)
      for match in pattern.regex.matches(in: text).reversed() {
        let group = match.numberOfRanges > 1 ? match.range(at: 1) : match.range
        guard group.location != NSNotFound, let range = Range(group, in: text) else { continue }
        text.replaceSubrange(range, with: placeholder)
      }
    }
    return text
  }

  /// Replaces byte ranges of `text`; a range inside one already replaced is dropped.
  private func splice(_ text: String, _ replacements: [(Range<Int>, String)]) -> String {
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

  /// Redacts the query and a `key=value` fragment of a URL, leaving every other byte as it was
  /// (re-serialising through URLComponents would re-encode parts of it).
  private func redactQuery(inURL url: String) -> String {
    guard !queryNames.isEmpty, url.contains("=") else { return url }
    var beforeFragment = Substring(url)
    var fragment: Substring?
    if let hash = url.firstIndex(of: "#") {
      beforeFragment = url[..<hash]
      fragment = url[url.index(after: hash)...]
    }
    var result = String(beforeFragment)
    if let question = beforeFragment.firstIndex(of: "?") {
      result =
        beforeFragment[...question]
        + redactPairs(beforeFragment[beforeFragment.index(after: question)...])
    }
    if let fragment {
      result += "#" + (fragment.contains("=") ? redactPairs(fragment) : String(fragment))
    }
    return result
  }

  /// Redacts the values of `name=value` pairs separated by `&`.
  private func redactPairs(_ pairs: Substring) -> String {
    pairs.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
      guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
      let rawName = pair[..<equals]
      let name = String(rawName).replacingOccurrences(of: "+", with: " ")
      let key = (name.removingPercentEncoding ?? name).lowercased()
      guard queryNames.contains(key) else { return String(pair) }
      return rawName + "=" + RedactionPlaceholder.percentEncoded(key)
    }.joined(separator: "&")
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
