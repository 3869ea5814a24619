/// Query pairs of URLs written inside other text: a link in an HTML page, a `next` URL or an
/// OAuth callback in a JSON string, a `Link` header. `?access_token=…` is as secret there as in
/// the request URL.
extension CompiledRedaction {
  /// A `name=value` pair right after `?`, `&`, `;` or `#`; the value stops where a URL, a JSON
  /// string or an HTML attribute would end, so JSON stays JSON.
  private static let pair = SharedRegex(
    literal: #"(?<=[?&;#])([A-Za-z0-9_.~%+\-\[\]]{1,100})=([^&#;\s"'<>\\]+)"#)

  /// The byte ranges of credential values in URL query pairs inside `text`, each with its
  /// percent-encoded placeholder.
  func embeddedQueryReplacements(in text: String, echoes: inout RedactionEchoes)
    -> [(Range<Int>, String)]
  {
    guard !queryNames.isEmpty, text.contains("="), text.contains("?") || text.contains("#")
    else { return [] }
    var replacements: [(Range<Int>, String)] = []
    for match in Self.pair.matches(in: text) {
      guard let nameRange = Range(match.range(at: 1), in: text),
        let valueRange = Range(match.range(at: 2), in: text)
      else { continue }
      let name = FormBody.decode(text[nameRange])
      let value = text[valueRange]
      guard queryNames.matches(name), !RedactionPlaceholder.isPresent(in: String(value)) else {
        continue
      }
      let key = RedactionPlaceholder.name(from: name.lowercased())
      echoes.remember(String(value), as: key)
      echoes.remember(FormBody.decode(value), as: key)
      replacements.append(
        (Self.byteRange(of: valueRange, in: text), RedactionPlaceholder.percentEncoded(key)))
    }
    return replacements
  }

  /// `range` as UTF-8 offsets, for ``splice(_:_:)``.
  static func byteRange(of range: Range<String.Index>, in text: String) -> Range<Int> {
    let start = text.utf8.distance(from: text.startIndex, to: range.lowerBound)
    return start..<(start + text.utf8.distance(from: range.lowerBound, to: range.upperBound))
  }
}
