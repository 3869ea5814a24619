/// Form-encoded text, `name=value&name=value`, recognised with or without its `Content-Type`.
///
/// Linux's URLSession sends an `httpBody` without a `Content-Type` unless the code sets one,
/// so a login form often arrives as `application/octet-stream` or with no type at all; its
/// password must still be found by name.
enum FormBody {
  /// Whether `text` is a form body: declared as one, or, when its type says nothing more
  /// specific, shaped like one (one line of `name=value` pairs with URL-safe names).
  static func isForm(_ text: String, mimeType: String) -> Bool {
    let type = mimeType.lowercased()
    if type.contains("x-www-form-urlencoded") { return true }
    let generic =
      type.isEmpty || type.hasPrefix("application/octet-stream")
      || type.hasPrefix("text/plain")
    return generic && hasFormShape(text)
  }

  /// The size from which a text is never read as a form by its shape alone: no browser posts a
  /// form that large, and a large body of another kind is not split at its `&`s.
  static let shapeLimit = 1 << 20

  /// One line of `&`-separated pairs, each with a non-empty name of URL characters and an `=`.
  static func hasFormShape(_ text: String) -> Bool {
    guard text.contains(bytes: "="), text.utf8.count < shapeLimit else { return false }
    return text.split(separator: "&", omittingEmptySubsequences: false).allSatisfy { pair in
      guard let equals = pair.firstIndex(of: "="), equals > pair.startIndex else { return false }
      return pair.unicodeScalars.allSatisfy { scalar in
        scalar.value > 0x20 && scalar.value < 0x7F && !"\"<>{}\\^`|".unicodeScalars.contains(scalar)
      }
    }
  }

  /// A form-encoded name or value as text: `+` is a space, `%XX` a byte.
  static func decode(_ text: Substring) -> String {
    let spaced = text.replacingOccurrences(of: "+", with: " ")
    return spaced.removingPercentEncoding ?? spaced
  }
}
