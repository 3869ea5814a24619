import Foundation

/// Masks credentials in text bound for a log: near-miss reports, test issues, `URLError`
/// descriptions, traffic attachments and everything the `understudy` tool prints.
///
/// CI logs are public on most services, so a report that names the request must not repeat its
/// secrets. A masked value keeps what helps a reader (the header or parameter name, an
/// authorization scheme, the length) and drops the rest: `Authorization: Bearer ••••(42 chars)`.
///
/// What counts as a credential:
/// - the value of a header, query or form parameter, or JSON member whose name says so
///   (``CredentialName``): `Authorization`, `Cookie`, `*-Token`, `*-Key`, `password`,
///   `client_secret`, `apiKey`, OAuth's `code` parameter, and their other spellings;
/// - URL userinfo (`https://user:pass@host`);
/// - any value ``CredentialScanner`` recognises by shape (JWTs, `ghp_…`, AWS keys, PEM keys).
package enum LogRedaction {
  /// What every masked value starts with.
  static let marker = "••••"

  /// Said once under a report whose values were masked.
  package static let note =
    "Credential values are masked: ••••(N chars) stands for a value of N characters that "
    + "Understudy does not print."

  /// `text` with every credential masked; with `noting`, the ``note`` is added on its own line
  /// when something was masked and the text does not say so already. `naming` adds the names
  /// and body patterns a test's own redaction lists.
  package static func mask(_ text: String, noting: Bool = false) -> String {
    mask(text, noting: noting, naming: nil)
  }

  static func mask(_ text: String, noting: Bool = false, naming: NamedSecrets?) -> String {
    let masked = Masking(text, naming: naming).result
    guard noting, masked != text, !masked.contains(note) else { return masked }
    return masked + "\n" + note
  }

  /// A value whose name says it is a credential, masked whole except for an authorization
  /// scheme: `Bearer ••••(42 chars)`. Placeholders and values masked already stay as they are.
  static func masked(_ value: String) -> String {
    guard !value.isEmpty, !isMaskedOrPlaceholder(value) else { return value }
    if let space = value.firstIndex(where: \.isWhitespace),
      schemes.contains(value[..<space].lowercased())
    {
      let secret = value[space...].drop(while: \.isWhitespace)
      guard !secret.isEmpty else { return value }
      return "\(value[..<space]) \(marker)(\(secret.count) chars)"
    }
    return "\(marker)(\(value.count) chars)"
  }

  /// A header value for a log: masked whole when the name is a credential's.
  static func mask(header name: String, value: String, naming: NamedSecrets? = nil) -> String {
    NamedSecrets.isSecret(name, at: .header, naming: naming)
      ? masked(value) : mask(value, naming: naming)
  }

  /// One redactable field of a HAR entry, masked for an attachment.
  static func mask(_ field: RedactableField, _ value: String) -> String {
    switch field {
    case .header(let name):
      return mask(header: name, value: value)
    case .cookie:
      return masked(value)
    case .queryParameter(let name), .formParameter(let name):
      return CredentialName.isCredential(name, at: .parameter) ? masked(value) : mask(value)
    case .url, .body, .text:
      return mask(value)
    }
  }

  /// Authorization schemes a masked value keeps, lower-cased.
  static let schemes: Set<String> = [
    "bearer", "basic", "digest", "token", "negotiate", "ntlm", "bot", "oauth", "mac", "dpop",
    "apikey", "key", "ssws", "aws4-hmac-sha256", "googlelogin",
  ]

  static func isMaskedOrPlaceholder(_ value: some StringProtocol) -> Bool {
    value.contains(marker) || RedactionPlaceholder.isPresent(in: value)
  }
}

/// One pass of ``LogRedaction/mask(_:noting:)`` over a text: each rule claims ranges, a range
/// overlapping one claimed before is left to the earlier rule, and the claims are spliced in at
/// the end.
private struct Masking {
  let text: String
  let naming: NamedSecrets?
  private var claims: [(range: Range<String.Index>, replacement: String)] = []

  init(_ text: String, naming: NamedSecrets?) {
    self.text = text
    self.naming = naming
    guard text.count >= 4 else { return }
    // A PEM key's body is no shape the scanner names; it goes first so nothing claims a part.
    claim(Self.privateKeyBlock, group: 2) { "\(LogRedaction.marker)(\($0.count) chars)" }
    claim(Self.headerLine, nameGroup: 1, valueGroup: 2, place: .header)
    claim(Self.userinfo, group: 2) { "\(LogRedaction.marker)(\($0.count) chars)" }
    claim(Self.jsonMember, nameGroup: 1, valueGroup: 2, place: .jsonMember)
    claim(Self.escapedJSONMember, nameGroup: 1, valueGroup: 2, place: .jsonMember)
    claim(Self.pair, nameGroup: 1, valueGroup: 2, place: .parameter)
    claim(Self.quotedArguments, nameGroup: 1, valueGroup: 2, place: .parameter)
    for range in CredentialScanner.secretRanges(in: text) {
      add(range, "\(LogRedaction.marker)(\(text[range].count) chars)")
    }
    for pattern in naming?.patterns ?? [] {
      for match in pattern.regex.matches(in: text) {
        let group = match.numberOfRanges > 1 ? match.range(at: 1) : match.range
        guard let range = Range(group, in: text) else { continue }
        add(range, "\(LogRedaction.marker)(\(text[range].count) chars)")
      }
    }
  }

  var result: String {
    guard !claims.isEmpty else { return text }
    var result = ""
    var position = text.startIndex
    for claim in claims {
      result += text[position..<claim.range.lowerBound]
      result += claim.replacement
      position = claim.range.upperBound
    }
    result += text[position...]
    return result
  }

  /// Claims `range` unless an earlier claim overlaps it. Claims stay sorted, so a body with
  /// thousands of masked values costs a binary search per claim, not a scan of all of them.
  private mutating func add(_ range: Range<String.Index>, _ replacement: String) {
    guard !range.isEmpty, !LogRedaction.isMaskedOrPlaceholder(text[range]) else { return }
    var low = 0
    var high = claims.count
    while low < high {
      let middle = (low + high) / 2
      if claims[middle].range.lowerBound < range.lowerBound {
        low = middle + 1
      } else {
        high = middle
      }
    }
    if low > 0, claims[low - 1].range.upperBound > range.lowerBound { return }
    if low < claims.count, claims[low].range.lowerBound < range.upperBound { return }
    claims.insert((range, replacement), at: low)
  }

  private mutating func claim(
    _ regex: SharedRegex, group: Int, replacement: (Substring) -> String
  ) {
    for match in regex.matches(in: text) {
      guard let range = Range(match.range(at: group), in: text) else { continue }
      add(range, replacement(text[range]))
    }
  }

  private mutating func claim(
    _ regex: SharedRegex, nameGroup: Int, valueGroup: Int, place: CredentialName.Place
  ) {
    for match in regex.matches(in: text) {
      guard let nameRange = Range(match.range(at: nameGroup), in: text),
        let valueRange = Range(match.range(at: valueGroup), in: text)
      else { continue }
      let name = String(text[nameRange])
      guard NamedSecrets.isSecret(name.removingPercentEncoding ?? name, at: place, naming: naming)
      else { continue }
      add(valueRange, LogRedaction.masked(String(text[valueRange])))
    }
  }

  static let privateKeyBlock = SharedRegex(
    literal:
      "(-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)([\\s\\S]*?)(?=-----END |\"|$)")
  /// `Name: value` on a line of its own, as reports and HTTP write headers.
  static let headerLine = SharedRegex(
    literal: "(?m)^[ \\t]*([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)[ \\t]*:[ \\t]*(.*?)[ \\t]*$")
  static let userinfo = SharedRegex(
    literal: "\\b([A-Za-z][A-Za-z0-9+.-]*://)([^\\s/?#@\"'<>\\\\]+)@")
  /// `"name": "value"`, in JSON and in Swift's description of a dictionary.
  static let jsonMember = SharedRegex(
    literal: "\"((?:[^\"\\\\\\n]|\\\\.){1,100})\"[ \\t]*:[ \\t]*\"((?:[^\"\\\\\\n]|\\\\.)*)\"")
  /// `\"name\": \"value\"`: JSON inside a JSON string, as a HAR file holds a body.
  static let escapedJSONMember = SharedRegex(
    literal:
      "\\\\\"([^\"\\\\\\n]{1,100})\\\\\"[ \\t]*:[ \\t]*\\\\\"((?:[^\"\\\\]|\\\\[^\"])*?)\\\\\"")
  /// `("name", "value")`: Swift source the tool generates, such as `.query("code", "…")`.
  static let quotedArguments = SharedRegex(
    literal: "\"([^\"\\\\\\n]{1,100})\"[ \\t]*,[ \\t]*\"((?:[^\"\\\\\\n]|\\\\.)*)\"")
  /// `name=value` in a query, form body or cookie.
  static let pair = SharedRegex(
    literal: "(?<![A-Za-z0-9_.%\\[\\]-])([A-Za-z0-9_.%\\[\\]-]+)=([^&;#\\s\"'<>\\\\]*)")
}
