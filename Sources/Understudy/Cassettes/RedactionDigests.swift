/// Puts a keyed digest of each redacted value into the placeholders of a cassette's requests
/// (`<redacted:key:7f3a>`), so redaction never makes two different requests identical: replay
/// compares the digests, and `?key=1&key=2` does not replay the answer recorded for
/// `?key=1&key=3`.
///
/// Redaction itself writes `<redacted:NAME>`; this pass compares each redacted field with the
/// field it came from and finds the value each placeholder replaced. Only requests carry
/// digests: they are what replay matches, and a response's placeholders need none.
enum RedactionDigests {
  /// `redacted`'s request with a digest in each placeholder, worked out from `original`'s.
  ///
  /// Without a `key`, no digest is added: only placeholders that replaced placeholders are put
  /// back as they were, so redacting a written cassette again keeps its digests.
  static func mark(_ redacted: HAR.Request, original: HAR.Request, key: String?) -> HAR.Request {
    var marked = redacted
    marked.url = mark(redacted.url, original: original.url, key: key)
    marked.headers = mark(redacted.headers, original: original.headers, key: key)
    marked.queryString = mark(redacted.queryString, original: original.queryString, key: key)
    for index in marked.cookies.indices where index < original.cookies.count {
      marked.cookies[index].value = mark(
        redacted.cookies[index].value, original: original.cookies[index].value, key: key)
    }
    if var postData = marked.postData, let originalPost = original.postData {
      // Base64 bodies would need decoding to align; their placeholders stay as redaction wrote
      // them, and compare as before.
      if postData.encoding == nil, originalPost.encoding == nil {
        postData.text = mark(postData.text, original: originalPost.text, key: key)
      }
      for index in postData.params.indices where index < originalPost.params.count {
        if let value = postData.params[index].value {
          postData.params[index].value = mark(
            value, original: originalPost.params[index].value ?? "", key: key)
        }
      }
      marked.postData = postData
    }
    return marked
  }

  /// Name-value pairs matched with the originals by name and occurrence, since a rule may drop a
  /// header or parameter.
  private static func mark(_ redacted: [HAR.NameValue], original: [HAR.NameValue], key: String?)
    -> [HAR.NameValue]
  {
    guard redacted.contains(where: { RedactionPlaceholder.isPresent(in: $0.value) }) else {
      return redacted
    }
    var originals: [String: [String]] = [:]
    for field in original { originals[field.name.lowercased(), default: []].append(field.value) }
    var seen: [String: Int] = [:]
    return redacted.map { field in
      let name = field.name.lowercased()
      let occurrence = seen[name, default: 0]
      seen[name] = occurrence + 1
      guard let values = originals[name], occurrence < values.count else { return field }
      var copy = field
      copy.value = mark(field.value, original: values[occurrence], key: key)
      return copy
    }
  }

  /// `redacted` with a digest in each placeholder, of the text of `original` it stands for.
  ///
  /// The text between placeholders is the same in both, so each placeholder's value is what lies
  /// between those stretches in `original`. When they cannot be lined up (two placeholders side
  /// by side, a field rewritten), every placeholder of the field gets the digest of the whole
  /// original field: still different whenever the fields differ. A placeholder that stands for a
  /// placeholder (a recorded request redacted again) keeps the one it replaced, digest and all.
  static func mark(_ redacted: String, original: String, key: String?) -> String {
    guard redacted != original else { return redacted }
    let spans = RedactionPlaceholder.spans(in: redacted)
    guard !spans.isEmpty else { return redacted }
    let values = align(redacted, spans, in: original)
    var result = ""
    var last = redacted.startIndex
    for (index, span) in spans.enumerated() {
      result += redacted[last..<span.lowerBound]
      let placeholder = redacted[span]
      let value = values?[index]
      if let value, isOnePlaceholder(String(value)) {
        result += value
      } else if key == nil || RedactionPlaceholder.digest(in: placeholder) != nil {
        result += placeholder
      } else if let key {
        let digest = RedactionPlaceholder.digest(of: value ?? original[...], key: key)
        result += RedactionPlaceholder.adding(digest: digest, to: placeholder)
      }
      last = span.upperBound
    }
    return result + redacted[last...]
  }

  private static func isOnePlaceholder(_ text: String) -> Bool {
    RedactionPlaceholder.spans(in: text) == [text.startIndex..<text.endIndex]
  }

  /// The text of `original` each placeholder of `redacted` replaced, or `nil` when the literal
  /// text around them does not line up.
  private static func align(
    _ redacted: String, _ spans: [Range<String.Index>], in original: String
  ) -> [Substring]? {
    var literals: [Substring] = []
    var last = redacted.startIndex
    for span in spans {
      literals.append(redacted[last..<span.lowerBound])
      last = span.upperBound
    }
    literals.append(redacted[last...])
    // Two placeholders side by side leave no text to tell where one value ends.
    guard literals.dropFirst().dropLast().allSatisfy({ !$0.isEmpty }),
      original.hasPrefix(literals[0]), original.hasSuffix(literals[literals.count - 1]),
      original.count >= literals[0].count + literals[literals.count - 1].count
    else { return nil }
    var position = original.index(original.startIndex, offsetBy: literals[0].count)
    let end = original.index(original.endIndex, offsetBy: -literals[literals.count - 1].count)
    var values: [Substring] = []
    for literal in literals.dropFirst().dropLast() {
      guard position <= end,
        let found = original[position..<end].range(of: literal)
      else { return nil }
      values.append(original[position..<found.lowerBound])
      position = found.upperBound
    }
    guard position <= end else { return nil }
    values.append(original[position..<end])
    return values
  }
}
