extension Redaction {
  /// A redaction that writes `text` in place of every redacted value, instead of a
  /// `<redacted:NAME>` placeholder, as Replay's filters write `[FILTERED]`.
  ///
  /// The text is written as each place needs it: percent-encoded in a URL or form body, escaped
  /// in a JSON string, as it is elsewhere. What a placeholder gives you goes with it, so choose
  /// this only to match files another tool wrote:
  /// - replay can no longer tell redacted values apart: a recorded `?key=[FILTERED]` answers any
  ///   `key`, since a live request is redacted the same way before it is compared;
  /// - ``restoring(_:values:)`` finds nothing to put a value back into;
  /// - a reader of the cassette no longer sees which rule replaced a value.
  ///
  /// ```swift
  /// let redaction = Redaction.default.replacingValues(with: "[FILTERED]")
  /// ```
  public func replacingValues(with text: String) -> Redaction {
    var copy = self
    copy.replacementText = text
    return copy
  }

  /// `entry` with each placeholder written as ``replacementText``, when there is one.
  func writingReplacement(in entry: inout HAR.Entry) {
    guard let replacementText else { return }
    let encoded = RedactionPlaceholder.percentEncode(replacementText)
    let escaped = RedactionEchoes.jsonEscaped(replacementText)
    entry.transformRedactableFields { field, text in
      let spans = RedactionPlaceholder.spans(in: text)
      guard !spans.isEmpty else { return text }
      let isJSON: Bool
      if case .body = field { isJSON = JSONNode.container(in: text) != nil } else { isJSON = false }
      var result = ""
      var last = text.startIndex
      for span in spans {
        result += text[last..<span.lowerBound]
        // A placeholder spelled `%3C…%3E` sits where text is percent-encoded.
        result += text[span].hasPrefix("<") ? (isJSON ? escaped : replacementText) : encoded
        last = span.upperBound
      }
      return result + text[last...]
    }
  }
}
