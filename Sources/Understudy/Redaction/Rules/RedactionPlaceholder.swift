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

  /// The placeholder name for a field named `name` (a header, parameter, member or held name):
  /// ``cleanedName(from:)``, unless it holds a secret, when it is the generic name
  /// ``PlaceholderNameGate`` gives, so the placeholder never carries what it hides.
  static func name(from name: String) -> String {
    PlaceholderNameGate.safe(cleanedName(from: name))
  }

  /// `name` with each character a placeholder cannot hold replaced by `_`: for names a test or
  /// the environment chose (a declared value's, a variable's), unless the name is shaped like a
  /// secret itself (``PlaceholderNameGate/safeByShape(_:)``).
  static func cleanedName(from name: String) -> String {
    let cleaned = String(name.map { isAllowedInName($0) ? $0 : "_" })
    return cleaned.isEmpty ? "_" : PlaceholderNameGate.safeByShape(cleaned)
  }

  static func text(_ name: String) -> String { "<redacted:\(name)>" }

  // MARK: Digests

  /// A short keyed digest of the value a placeholder stands for, four lower-case hex digits:
  /// `<redacted:key:7f3a>`. Cassettes put one in each placeholder of a recorded request, so
  /// `?key=1&key=2` and `?key=1&key=3` stay different after redaction and replay can tell them
  /// apart without the value being written. The key is the cassette's own
  /// (`HAR.Log.redactionDigestSeed`), so one value gives unrelated digests in two cassettes; 16
  /// bits tell someone holding the cassette too little to recover a credential, though a guess at
  /// a short value (`1`, `true`) can be checked against it.
  static func digest(of value: some StringProtocol, key: String) -> String {
    // FNV-1a over the key, a separator no key holds, and the value: stable across runs and
    // platforms, which `Hasher` is not.
    let hash = CassetteName.fnv1a(key + "\u{0}" + String(value))
    let short = UInt16(truncatingIfNeeded: hash ^ (hash >> 16) ^ (hash >> 32) ^ (hash >> 48))
    let hex = String(short, radix: 16)
    return String(repeating: "0", count: 4 - hex.count) + hex
  }

  /// `placeholder` (any spelling of one, without a digest) with `digest` after its name.
  static func adding(digest: String, to placeholder: some StringProtocol) -> String {
    let text = String(placeholder)
    if text.hasSuffix(">") { return text.dropLast() + ":" + digest + ">" }
    // Percent-encoded: `%3E` closes it; inside an authority a `:` is `%3A` too.
    let separator = text.contains(bytesIgnoringCase: "%3credacted%3a") ? "%3A" : ":"
    return text.dropLast(3) + separator + digest + text.suffix(3)
  }

  /// The digest a placeholder carries, or `nil` for one written without (cassettes recorded
  /// before digests, responses, reports). A name that itself ends in `:` and four lower-case
  /// hex digits reads as a digest too; names are derived from header, parameter and path names,
  /// where that does not occur.
  static func digest(in placeholder: some StringProtocol) -> Substring? {
    parts(of: Substring(placeholder))?.digest
  }

  /// `text` with the digest taken out of every placeholder: what restoring values and cassettes
  /// recorded before digests compare.
  static func removingDigests(from text: String) -> String {
    let spans = spans(in: text)
    guard !spans.isEmpty else { return text }
    var result = ""
    var last = text.startIndex
    for span in spans {
      result += text[last..<span.lowerBound]
      if let parts = parts(of: text[span]), parts.digest != nil {
        result += parts.opening + parts.name + parts.closing
      } else {
        result += text[span]
      }
      last = span.upperBound
    }
    return result + text[last...]
  }

  /// A placeholder split into its opening (`<redacted:`, `%3Credacted:`, `%3Credacted%3A`), its
  /// name, its digest when it has one, and its closing (`>`, `%3E`).
  private static func parts(of text: Substring) -> (
    opening: Substring, name: Substring, digest: Substring?, closing: Substring
  )? {
    let lowered = text.lowercased()
    let openingLength =
      lowered.hasPrefix("<redacted:")
      ? 10 : lowered.hasPrefix("%3credacted%3a") ? 14 : lowered.hasPrefix("%3credacted:") ? 12 : 0
    guard openingLength > 0 else { return nil }
    let closingLength = text.hasSuffix(">") ? 1 : 3
    guard text.count > openingLength + closingLength else { return nil }
    let opening = text.prefix(openingLength)
    let closing = text.suffix(closingLength)
    let inner = text.dropFirst(openingLength).dropLast(closingLength)
    let digest = inner.suffix(4)
    let beforeDigest = inner.dropLast(4)
    let separatorLength =
      beforeDigest.hasSuffix(":") ? 1 : beforeDigest.lowercased().hasSuffix("%3a") ? 3 : 0
    let name = beforeDigest.dropLast(separatorLength)
    guard separatorLength > 0, !name.isEmpty, digest.count == 4,
      digest.allSatisfy({ $0.isHexDigit && !$0.isUppercase })
    else { return (opening, inner, nil, closing) }
    return (opening, name, digest, closing)
  }

  /// Whether `value` holds a placeholder already, so it is not a secret to search for.
  static func isPresent(in value: some StringProtocol) -> Bool {
    value.contains(bytesIgnoringCase: "redacted:")
      || value.contains(bytesIgnoringCase: "%3credacted%3a")
  }

  static func percentEncoded(_ name: String) -> String { percentEncode(text(name)) }

  /// The spelling inside a URL's authority, where a `:` would start a port.
  static func inAuthority(_ name: String) -> String {
    percentEncoded(name).replacingOccurrences(of: ":", with: "%3A")
  }

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

  /// ``spans(in:)`` as byte offsets into `text`'s UTF-8.
  static func byteSpans(in text: String) -> [Range<Int>] {
    let utf8 = text.utf8
    return spans(in: text).map {
      utf8.distance(
        from: utf8.startIndex, to: $0.lowerBound)..<utf8.distance(
          from: utf8.startIndex, to: $0.upperBound)
    }
  }

  /// `url` with each percent-encoded placeholder in its host and port spelled
  /// ``inAuthority(_:)`` (or, when a placeholder replaced all or part of its scheme, every `:` of
  /// its first segment percent-encoded), so that an echo replaced inside a host or a scheme
  /// leaves a URL Foundation can still parse. When an echo moved path text into the host, and
  /// that is not enough, the host and port become one percent-encoded host name.
  static func authoritySafe(_ url: String) -> String {
    guard url.contains(bytes: "%3Credacted:") else { return url }
    guard let authority = URLAuthority(in: url) else {
      // A scheme with no authority has no host to spell safely.
      guard !URLAuthority.hasScheme(url) else { return url }
      // No scheme is left (a placeholder replaced all or part of it), so the first segment is
      // a relative path's, where any `:` makes Foundation refuse the URL: what is left of the
      // scheme loses its `:` too (`%3Credacted%3Aname%3Ehttps%3A//host/`).
      let end = url.utf8.firstIndex { "/?#".utf8.contains($0) } ?? url.endIndex
      let segment = url[..<end]
      guard segment.contains(bytes: "%3Credacted:") else { return url }
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
    guard region.contains(bytes: "%3Credacted:") else { return url }
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
