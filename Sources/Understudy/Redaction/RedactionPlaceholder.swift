/// The text that stands in for a redacted value: `<redacted:NAME>`.
///
/// `NAME` is the rule's name: the lower-cased header or query parameter name
/// (`<redacted:authorization>`, `<redacted:access_token>`), a JSON path's name, or a body
/// pattern's name. Inside URLs, form bodies and URL-valued headers the placeholder is
/// percent-encoded (`%3Credacted:access_token%3E`) so the URL stays valid; inside a URL's
/// authority (an echo replaced inside a host) its `:` is encoded too (`%3Credacted%3Aname%3E`),
/// since a `:` there starts a port and Foundation would refuse the URL.
/// ``Redaction/restoring(_:values:)`` replaces both forms, and ``CredentialScanner`` never
/// reports them.
enum RedactionPlaceholder {
  /// Characters a name may use; anything else in a derived name becomes `_`.
  static func isAllowedInName(_ character: Character) -> Bool {
    character.isASCII && !character.isWhitespace && !"<>\"\\%&=#?/".contains(character)
  }

  /// Rejects a name that could not be found again inside a placeholder.
  static func validate(name: String) throws(PatternSyntaxError) {
    guard !name.isEmpty, name.allSatisfy(isAllowedInName) else {
      throw PatternSyntaxError(
        expression: name,
        problem: "placeholder names use ASCII letters, digits and punctuation other than "
          + "< > \" \\ % & = # ? /, and no spaces")
    }
  }

  /// `name` with each character a placeholder cannot hold replaced by `_`.
  static func name(from name: String) -> String {
    let cleaned = String(name.map { isAllowedInName($0) ? $0 : "_" })
    return cleaned.isEmpty ? "_" : cleaned
  }

  static func text(_ name: String) -> String { "<redacted:\(name)>" }

  /// Whether `value` holds a placeholder already, so it is not a secret to search for.
  static func isPresent(in value: some StringProtocol) -> Bool {
    value.range(of: "redacted:", options: .caseInsensitive) != nil
      || value.range(of: authorityMarker, options: .caseInsensitive) != nil
  }

  static func percentEncoded(_ name: String) -> String { percentEncode(text(name)) }

  /// The spelling inside a URL's authority, where a `:` would start a port.
  static func inAuthority(_ name: String) -> String {
    percentEncoded(name).replacingOccurrences(of: ":", with: "%3A")
  }

  private static let authorityMarker = "%3Credacted%3A"

  /// Every spelling in one regular expression, for code that must skip them. A percent-encoded
  /// name holds the escapes of the characters it keeps (`access_[token` is
  /// `%3Credacted:access_%5Btoken%3E`), so an escape other than `%3E` belongs to the name.
  static let anyPlaceholder = SharedRegex(
    literal: "(?i)<redacted:[^<>\\s\"]+>"
      + "|%3Credacted(?::|%3A)(?:[^<>\\s\"%&=#]|%(?!3E)[0-9A-F]{2})+%3E")

  /// The ranges of every placeholder in `text`, in order. A text without the marker every
  /// spelling holds is turned away before the expression runs over it.
  static func spans(in text: String) -> [Range<String.Index>] {
    guard isPresent(in: text) else { return [] }
    return anyPlaceholder.matches(in: text).compactMap { Range($0.range, in: text) }
  }

  /// `url` with each percent-encoded placeholder in its host and port spelled
  /// ``inAuthority(_:)`` (or, when a placeholder replaced all or part of its scheme, every `:` of
  /// its first segment percent-encoded), so that an echo replaced inside a host or a scheme
  /// leaves a URL Foundation can still parse. When an echo moved path text into the host, and
  /// that is not enough, the host and port become one percent-encoded host name.
  static func authoritySafe(_ url: String) -> String {
    guard url.contains("%3Credacted:") else { return url }
    guard let authority = URLAuthority(in: url) else {
      // A scheme with no authority has no host to spell safely.
      guard !URLAuthority.hasScheme(url) else { return url }
      // No scheme is left (a placeholder replaced all or part of it), so the first segment is
      // a relative path's, where any `:` makes Foundation refuse the URL: what is left of the
      // scheme loses its `:` too (`%3Credacted%3Aname%3Ehttps%3A//host/`).
      let end = url.utf8.firstIndex { "/?#".utf8.contains($0) } ?? url.endIndex
      let segment = url[..<end]
      guard segment.contains("%3Credacted:") else { return url }
      return segment.replacingOccurrences(of: ":", with: "%3A") + String(url[end...])
    }
    // An echo can move path text into the authority, after a scheme or in a network-path
    // reference alike (`///next?key%3Dk[::1]` became `//%3C…%3E[::1]`).
    let end = authority.range.upperBound
    // User information may hold a `:` (user:password); only the host and port may not.
    let start =
      authority.userInformationEnd.map { url.utf8.index(after: $0) }
      ?? authority.range.lowerBound
    let region = url[start..<end]
    guard region.contains("%3Credacted:") else { return url }
    var safe = ""
    var rest = region[...]
    while let marker = rest.range(of: "%3Credacted:") {
      let close = rest[marker.upperBound...].range(of: "%3E")?.upperBound ?? rest.endIndex
      safe += rest[..<marker.lowerBound]
      safe += rest[marker.lowerBound..<close].replacingOccurrences(of: ":", with: "%3A")
      rest = rest[close...]
    }
    safe += rest
    let spelled = String(url[..<start]) + safe + String(url[end...])
    if URL(string: spelled) != nil { return spelled }
    // The echo took the `/` that began the path, so the path's text after it is read as host and
    // port now (`http:///next?key%3Dk[::1]:8080%bin` became `http://%3C…%3E[::1]:8080%bin`):
    // Foundation is lenient everywhere but in a host, so the region becomes one host name.
    return String(url[..<start]) + registeredName(region) + String(url[end...])
  }

  /// `text` with every byte a host name may not hold percent-encoded: all but RFC 3986's
  /// unreserved characters, its sub-delimiters and the escapes already there. A `:`, `[` or `]`,
  /// a space, or a `%` that begins no escape would each make Foundation refuse the URL.
  private static func registeredName(_ text: Substring) -> String {
    let bytes = Array(text.utf8)
    let hex = Array("0123456789ABCDEF".utf8)
    var name: [UInt8] = []
    for (index, byte) in bytes.enumerated() {
      let isEscape =
        byte == UInt8(ascii: "%") && index + 2 < bytes.count
        && ASCIIByte.isHexDigit(bytes[index + 1]) && ASCIIByte.isHexDigit(bytes[index + 2])
      if isEscape || ASCIIByte.isLetter(byte) || ASCIIByte.isDigit(byte)
        || "-._~!$&'()*+,;=".utf8.contains(byte)
      {
        name.append(byte)
      } else {
        name += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
      }
    }
    return String(decoding: name, as: UTF8.self)
  }

  /// Percent-encodes everything but the unreserved characters and `:`, the same way every time
  /// so placeholders can be found again.
  static func percentEncode(_ text: String) -> String {
    var allowed = CharacterSet(charactersIn: "-._~:")
    allowed.formUnion(CharacterSet(charactersIn: "a"..."z"))
    allowed.formUnion(CharacterSet(charactersIn: "A"..."Z"))
    allowed.formUnion(CharacterSet(charactersIn: "0"..."9"))
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
  }
}
