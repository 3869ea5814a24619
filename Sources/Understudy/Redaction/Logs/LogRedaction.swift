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
/// - a value in quotes assigned to such a name in a configuration file or a script
///   (`password = "…"`, `apiKey: '…'`), and the `value` or `content` of a tag that such a
///   `name` names (`<meta name="csrf-token" content="…">`);
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
  /// when it holds a masked value (masked here or by the code that wrote it) and does not say
  /// so already. `naming` adds the names
  /// and body patterns a test's own redaction lists.
  package static func mask(_ text: String, noting: Bool = false) -> String {
    mask(text, noting: noting, naming: nil)
  }

  /// `text`, which traffic holds (a body, a value a request sent, a stub's expected body),
  /// masked as ``mask(_:noting:)`` masks any text and also wherever a cassette would redact it
  /// (``removedByCassettes(from:in:)``): what a cassette would not write, a log does not print.
  /// A report's own lines are not read so: `header X-Api-Key: expected …` is its wording.
  package static func mask(traffic text: String) -> String {
    mask(text, naming: nil, asTraffic: true)
  }

  /// With `echoes`, each of those values (a request's credentials, ``RequestSecrets``) is
  /// masked wherever it shows, in every spelling a cassette searches for it (``ValueSpellings``),
  /// where no rule masked it already.
  static func mask(
    _ text: String, noting: Bool = false, naming: NamedSecrets?, echoes: [String] = [],
    asTraffic: Bool = false
  ) -> String {
    // Character references that spell a name or a value (`&#x74;oken=…`) are read as a
    // browser reads them, as redaction reads them.
    let text = HTMLCharacterReferences.decoded(text) ?? text
    let masked = Masking(text, naming: naming, echoes: echoes, asTraffic: asTraffic).result
    guard noting, masked.contains(marker + "("), !masked.contains(note) else { return masked }
    return masked + "\n" + note
  }

  /// How much of a body a report or an attachment shows: the rest is counted, never read.
  static let shownBytes = 16 * 1024

  /// How far past the cut a bounded masking reads, so a credential that straddles the cut (a
  /// token, a header's value, a JSON member) is recognised whole and masked whole.
  static let lookaheadBytes = 4 * 1024

  /// The first `limit` bytes of `text` masked, and how many bytes after them were left out
  /// unread (0 when all of it was shown). Only the shown part and ``lookaheadBytes`` after it
  /// are masked, so a megabyte body costs what 20 KiB does; a value masked across the cut is
  /// shown masked whole, and so is a placeholder, so the cut never shows part of a secret.
  /// A text no longer than its lookahead is shown whole, unless `cuttingAlways` (it was cut
  /// already, to the lookahead's end).
  static func maskedPrefix(
    of text: String, limit: Int = shownBytes, cuttingAlways: Bool = false,
    naming: NamedSecrets? = nil, echoes: [String] = []
  ) -> (text: String, omittedBytes: Int) {
    let total = text.utf8.count
    guard total > limit + (cuttingAlways ? 0 : lookaheadBytes) else {
      return (mask(text, naming: naming, echoes: echoes, asTraffic: true), 0)
    }
    let window = Self.prefix(of: text, bytes: limit + lookaheadBytes)
    let cut = Self.scalarStart(in: window, atOrBefore: limit)
    let masking = Masking(window, naming: naming, echoes: echoes, asTraffic: true)
    let (shown, end) = masking.result(through: cut)
    return (shown, total - window.utf8.distance(from: window.startIndex, to: end))
  }

  /// The first `bytes` bytes of `text` (fewer when that would cut a scalar), as a string.
  private static func prefix(of text: String, bytes: Int) -> String {
    String(text[..<scalarStart(in: text, atOrBefore: bytes)])
  }

  /// The index of the scalar that starts at or before byte offset `offset` of `text`.
  private static func scalarStart(in text: String, atOrBefore offset: Int) -> String.Index {
    let utf8 = text.utf8
    var index = utf8.index(utf8.startIndex, offsetBy: min(offset, utf8.count))
    // UTF-8 continuation bytes are 10xxxxxx: step back to the byte that starts the scalar.
    while index > utf8.startIndex, index < utf8.endIndex, utf8[index] & 0xC0 == 0x80 {
      index = utf8.index(before: index)
    }
    return index
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

  /// A URL for a log: its user information masked whole, and so is the value of each pair in
  /// its path parameters, query and fragment whose name is a credential's, however the value
  /// is spelled (a `'` or a space in it); then masked as any text is.
  package static func mask(url: String) -> String { mask(url: url, naming: nil) }

  static func mask(url: String, naming: NamedSecrets?) -> String {
    var text = ""
    var rest = url[...]
    if let authority = URLAuthority(in: url), let at = authority.userInformationEnd {
      text =
        url[..<authority.range.lowerBound] + masked(String(url[authority.range.lowerBound..<at]))
      rest = url[at...]
    }
    var delimited = false
    while true {
      let end = rest.firstIndex { "?&;#".contains($0) } ?? rest.endIndex
      let piece = rest[..<end]
      if delimited, let equals = piece.firstIndex(of: "=") {
        let name = String(piece[..<equals])
        let value = piece[piece.index(after: equals)...]
        // A name can hold a token itself (`?npm_…_api_key=…`), which the text masking below,
        // reading `name=` as a pair's label, leaves: masked here, as text.
        let shownName = mask(name, naming: naming)
        let shownValue =
          Self.hidesSecret(name: name[...], value: value, naming: naming)
          ? masked(String(value)) : String(value)
        text += shownName + "=" + shownValue
      } else {
        text += piece
      }
      guard end < rest.endIndex else { break }
      text.append(rest[end])
      rest = rest[rest.index(after: end)...]
      delimited = true
    }
    // What a cassette would take out of this URL as a request's (user information inside an
    // encoded query value, a known value in the path) is masked wherever it stands in it.
    let removed = LogRedaction.removedByCassettes(fromURL: url)
    return mask(text, naming: naming, echoes: removed)
  }

  /// An authority without a scheme (a `CONNECT` target, `user:pass@host:443`) for a log: what
  /// stands before its last `@` is user information and masked whole; then masked as any text.
  package static func mask(authority: String) -> String {
    guard let at = authority.lastIndex(of: "@") else { return mask(authority) }
    return mask(masked(String(authority[..<at])) + authority[at...])
  }

  /// Whether a URL's pair is masked whole: its name is a credential's, or its value is a URL
  /// whose own pairs hold one behind escapes (`redirect_uri=https%3A%2F%2Fapp%2Fcb%3Ftoken%3D…`),
  /// encoded once or more.
  private static func hidesSecret(name: Substring, value: Substring, naming: NamedSecrets?)
    -> Bool
  {
    NamedSecrets.isSecret(FormBody.decode(name), at: .parameter, naming: naming)
      || nestsSecret(value, naming: naming, levels: CompiledRedaction.nestedURLLevels)
  }

  static func nestsSecret(_ value: Substring, naming: NamedSecrets?, levels: Int) -> Bool {
    guard levels > 0, value.contains(bytes: "%") else { return false }
    let decoded = FormBody.decode(value)
    // Each level is shorter than the one around it, so masking it, which may open a value of
    // its own here, ends.
    guard decoded.utf8.count < value.utf8.count else { return false }
    // What the value holds behind its escapes (a URL, pairs, JSON: `{"csrf":"…"}`) is masked
    // as a URL's text is; whatever that masks hides the value whole.
    if CompiledRedaction.mayName(decoded),
      mask(url: decoded, naming: naming) != decoded
    {
      return true
    }
    return decoded != value && nestsSecret(decoded[...], naming: naming, levels: levels - 1)
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
    case .url:
      return mask(url: value)
    case .body, .text:
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

extension LogRedaction {
  /// The values a cassette's redaction removes from `text` standing in `field`, longest first:
  /// what a cassette would not write, a log does not print, whatever rule of the two found it.
  /// The log's own rules run first and keep what they show (a name, a scheme, a length); this
  /// makes a rule that only the cassette knows hold for logs too.
  /// ``removedByCassettes(from:in:)`` for a request's URL, read as a cassette reads one: the
  /// URL and each query parameter, decoded.
  static func removedByCassettes(fromURL url: String) -> [String] {
    // A query escaped into the path (`/x%3Ftoken%3D…`, `%253F` twice) is read as one, as a
    // cassette reads it.
    guard
      url.contains(bytes: "?") || url.contains(bytes: "@") || url.contains(bytes: ";")
        || CompiledRedaction.holdsEscapedQuery(url),
      let parsed = URL(string: url)
    else { return removedByCassettes(from: url, in: .url) }
    return CompiledRedaction.forReports.removedValues(
      from: RequestSecrets.entry(of: InterceptedRequest(url: parsed))
    )
    .filter { !RedactionPlaceholder.isPresent(in: $0) && !$0.contains(marker) }
    .sorted { $0.count > $1.count }
  }

  static func removedByCassettes(from text: String, in field: RedactableField) -> [String] {
    // A value masked already is read as what it is, a value taken out: as a placeholder, which
    // the rules leave alone with whatever it is glued to. Read as text, `••••(22 chars)` would
    // give them the words `••••(22` and `chars)`, and masking again would take it apart.
    let reading =
      text.contains(marker)
      ? text.replacingOccurrences(
        of: marker + #"(\(\d+ chars\))?"#, with: RedactionPlaceholder.text("masked"),
        options: .regularExpression)
      : text
    return CompiledRedaction.forReports.removedValues(from: reading, in: field)
      .filter { !RedactionPlaceholder.isPresent(in: $0) }
      .sorted { $0.count > $1.count }
  }

  /// The ranges of `text` that ``mask(_:noting:naming:echoes:)`` masks (character references
  /// left as they are), for a caller that masks a copy of a text in another spelling and maps
  /// them back.
  static func maskedRanges(in text: String, naming: NamedSecrets?) -> [Range<String.Index>] {
    Masking(text, naming: naming).maskedRanges
  }
}

/// One pass of ``LogRedaction/mask(_:noting:)`` over a text: each rule claims ranges, a range
/// overlapping one claimed before is left to the earlier rule, and the claims are spliced in at
/// the end.
private struct Masking {
  let text: String
  let naming: NamedSecrets?
  /// A `nil` replacement masks the range as one value when the result is made: ranges merge one
  /// claim at a time, and masking each union as it grew cost the square of a line of
  /// overlapping values (`secret = [x] secret = [x] …`, 40 KB took 6 s).
  private var claims: [(range: Range<String.Index>, replacement: String?)] = []
  /// The texts between masked values that ``addAround(_:)`` masked on their own, so the rules
  /// that meet the same masked values on a line scan what follows them once.
  private var scannedGaps: Set<Range<String.Index>> = []
  /// Names asked about, and whether each is a credential's.
  private var secretNames: [NameAtPlace: Bool] = [:]
  /// The values masked already and the placeholders in `text`, in order; found when a rule
  /// first meets one.
  private var maskedSpans: [Range<String.Index>]?

  init(_ text: String, naming: NamedSecrets?, echoes: [String] = [], asTraffic: Bool = false) {
    self.text = text
    self.naming = naming
    guard text.count >= 4 else { return }
    defer {
      claimEchoes(
        asTraffic
          ? echoes + LogRedaction.removedByCassettes(from: text, in: .body(mimeType: ""))
          : echoes)
    }
    // A PEM key's body is no shape the scanner names; it goes first so nothing claims a part.
    claim(Self.privateKeyBlock, group: 2) { "\(LogRedaction.marker)(\($0.count) chars)" }
    claimKnownValues()
    claim(Self.headerLine, nameGroup: 1, valueGroup: 2, place: .header)
    claimNamedValues(Self.headerInLineName, at: .header, endingAt: Self.endsHeaderValue)
    claim(Self.userinfo, group: 2) { "\(LogRedaction.marker)(\($0.count) chars)" }
    claim(Self.jsonMember, nameGroup: 1, valueGroup: 2, place: .jsonMember)
    claim(Self.escapedJSONScalarMember, nameGroup: 2, valueGroup: 3, place: .jsonMember)
    claim(Self.escapedJSONMember, nameGroup: 2, valueGroup: 3, place: .jsonMember)
    claimUnquotedMembers()
    claimHeldCredentialNames()
    claimXMLElements()
    claimXMLAttributes()
    claimAssignments()
    claimWhitespacePairs()
    claimCredentialLines()
    claimJSONDifferences()
    claimNamedValues(
      Self.pairName, at: .parameter, endingAt: Self.endsPairValue,
      continuingAt: continuesPairValue)
    claimEncodedValues()
    claim(Self.quotedArguments, nameGroup: 1, valueGroup: 2, place: .parameter)
    for found in CommandLineCredentials.ranges(
      in: text, headerNames: CredentialName([], readingWordsAt: .header))
    {
      mask(found.range)
    }
    // Base64 of text (a form, JSON, a configuration file; base64 of base64; MIME's lines) is
    // opened and masked by these same rules, as redaction opens it: masked whole when any of
    // them masks something inside.
    let naming = naming
    let opening = { (decoded: UnsafeBufferPointer<UInt8>) -> Bool in
      let inner = String(decoding: decoded, as: UTF8.self)
      return LogRedaction.mask(inner, naming: naming) != inner
    }
    for range in CredentialScanner.secretRanges(in: text, opening: opening) {
      add(range, "\(LogRedaction.marker)(\(text[range].count) chars)")
    }
    claimBase64Documents()
    for pattern in naming?.patterns ?? [] {
      for match in pattern.regex.matches(in: text) {
        let group = match.numberOfRanges > 1 ? match.range(at: 1) : match.range
        guard let range = Range(group, in: text) else { continue }
        add(range, "\(LogRedaction.marker)(\(text[range].count) chars)")
      }
      mask(bytes: pattern.regex.matchRangesThroughReferences(in: text))
    }
  }

  var maskedRanges: [Range<String.Index>] { claims.map(\.range) }

  var result: String {
    guard !claims.isEmpty else { return text }
    var result = ""
    var position = text.startIndex
    for claim in claims {
      result += text[position..<claim.range.lowerBound]
      result += claim.replacement ?? LogRedaction.masked(String(text[claim.range]))
      position = claim.range.upperBound
    }
    result += text[position...]
    return result
  }

  /// The result up to `cut`, and where in `text` it stopped: past `cut` when a masked value or
  /// a placeholder straddles it, so that value is shown masked whole, never in part.
  func result(through cut: String.Index) -> (String, String.Index) {
    var end = cut
    for claim in claims where claim.range.lowerBound < end && claim.range.upperBound > end {
      end = claim.range.upperBound
    }
    for span in RedactionPlaceholder.spans(in: text)
    where span.lowerBound < end && span.upperBound > end {
      end = span.upperBound
    }
    var result = ""
    var position = text.startIndex
    for claim in claims where claim.range.lowerBound < end {
      result += text[position..<claim.range.lowerBound]
      result += claim.replacement ?? LogRedaction.masked(String(text[claim.range]))
      position = claim.range.upperBound
    }
    if position < end { result += text[position..<end] }
    return (result, end)
  }

  /// Claims `range`, masked as one value when the result is written.
  private mutating func mask(_ range: Range<String.Index>) { add(range, nil) }

  /// Masks each of `ranges`, byte offsets into the text's UTF-8.
  private mutating func mask(bytes ranges: some Sequence<Range<Int>>) {
    let utf8 = text.utf8
    for range in ranges {
      let lower = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
      mask(lower..<utf8.index(lower, offsetBy: range.count))
    }
  }

  /// Claims `range`. A range inside an earlier claim is left to it; one that reaches past
  /// earlier claims takes them in, and the whole is masked as one value: a narrow rule that ran
  /// first (a URL's user information) must not keep a wider one (the pair whose value is that
  /// URL) from masking the rest. Claims stay sorted and apart, so a body with thousands of
  /// masked values costs a binary search per claim, not a scan of all of them.
  private mutating func add(_ range: Range<String.Index>, _ replacement: String?) {
    guard !range.isEmpty else { return }
    if let kept = keepingEscape(range) { return mask(kept) }
    guard !LogRedaction.isMaskedOrPlaceholder(text[range]) else { return addAround(range) }
    let low = Self.firstEnding(after: range.lowerBound, in: claims) { $0.range }
    var end = low
    while end < claims.count, claims[end].range.lowerBound < range.upperBound { end += 1 }
    guard low < end else { return claims.insert((range, replacement), at: low) }
    let union =
      min(
        claims[low].range.lowerBound, range.lowerBound)..<max(
        claims[end - 1].range.upperBound, range.upperBound)
    if end - low == 1, union == claims[low].range { return }
    let merged = union == range ? replacement : nil
    claims.replaceSubrange(low..<end, with: [(union, merged)])
  }

  /// `range` without its last character when that is a backslash escaping the character after
  /// the range (`"x-api-key: \"` in a JSON string, cut short), or `nil` when it ends otherwise.
  /// Masked away, the backslash would free that quote: the masked text would then hold a JSON
  /// string the text did not, and masking it again would mask more.
  private func keepingEscape(_ range: Range<String.Index>) -> Range<String.Index>? {
    guard range.upperBound < text.endIndex else { return nil }
    var start = range.upperBound
    while start > text.startIndex,
      text.unicodeScalars[text.unicodeScalars.index(before: start)] == "\\"
    {
      start = text.unicodeScalars.index(before: start)
    }
    let run = text.unicodeScalars.distance(from: start, to: range.upperBound)
    guard run % 2 == 1 else { return nil }
    return range.lowerBound..<text.unicodeScalars.index(before: range.upperBound)
  }

  /// A rule's range that holds values masked already (or placeholders): the masked values stay
  /// as they are, the text before the first is the rule's value and is masked, and the text
  /// after each is masked as a text of its own. A pair's value runs to the line's end, so
  /// without this a masked value early on a line (a request's masked URL) shielded a
  /// credential quoted raw later on it.
  private mutating func addAround(_ range: Range<String.Index>) {
    if maskedSpans == nil {
      maskedSpans =
        (Self.maskedValue.matches(in: text).compactMap { Range($0.range, in: text) }
        + RedactionPlaceholder.spans(in: text)).sorted { $0.lowerBound < $1.lowerBound }
    }
    let spans = maskedSpans!
    // A HAR attachment holds thousands of masked values, and its rules meet each.
    let low = Self.firstEnding(after: range.lowerBound, in: spans) { $0 }
    let done = spans[low...].prefix { $0.lowerBound < range.upperBound }
    // "redacted:" in a text, without a placeholder's brackets: nothing to keep apart.
    guard !done.isEmpty else { return }
    var start = range.lowerBound
    for (index, span) in (Array(done) + [range.upperBound..<range.upperBound]).enumerated() {
      let end = min(max(start, span.lowerBound), range.upperBound)
      let gap = text[start..<end].trimmingCharacters(in: .whitespaces)
      // `Bearer ••••(13 chars)`: the scheme a masked value kept is no value of its own.
      if index == 0, !gap.isEmpty, !LogRedaction.schemes.contains(gap.lowercased()) {
        mask(start..<end)
      } else if index > 0, start < end {
        addMasking(of: start..<end)
      }
      // A masked value may reach past the range's end.
      start = min(max(start, span.upperBound), range.upperBound)
    }
  }

  /// The index of the first of `items` (in order, their ranges apart) whose range ends after
  /// `bound`, found by halves.
  private static func firstEnding<Item>(
    after bound: String.Index, in items: [Item], _ range: (Item) -> Range<String.Index>
  ) -> Int {
    var low = 0
    var high = items.count
    while low < high {
      let middle = (low + high) / 2
      if range(items[middle]).upperBound <= bound { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The claims a masking of `text[range]` alone makes, made here.
  private mutating func addMasking(of range: Range<String.Index>) {
    guard scannedGaps.insert(range).inserted else { return }
    let inner = Masking(String(text[range]), naming: naming)
    for claim in inner.claims {
      let lower = text.utf8.index(
        range.lowerBound,
        offsetBy: inner.text.utf8.distance(
          from: inner.text.startIndex, to: claim.range.lowerBound))
      let upper = text.utf8.index(
        range.lowerBound,
        offsetBy: inner.text.utf8.distance(
          from: inner.text.startIndex, to: claim.range.upperBound))
      add(lower..<upper, claim.replacement)
    }
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
      // A pair's value may be a URL holding a credential behind escapes, in a header value or a
      // body as in a request URL (`next=https%3A%2F%2Fapi%2Fcb%3Fcode%3D…`).
      guard
        isSecret(text[nameRange], at: place)
          || (place == .parameter
            && LogRedaction.nestsSecret(
              text[valueRange], naming: naming, levels: CompiledRedaction.nestedURLLevels))
      else { continue }
      mask(valueRange)
    }
  }

  /// A credential's name and the value after it: `Name: value` inside a line
  /// (``headerInLineName``; the value runs to a quote or the line's end) and `name=value` in a
  /// query, form body or cookie (``pairName``; the value runs to the line's end or the next
  /// pair's delimiter, since reports show form and query values decoded, `password=correct horse
  /// battery`, and a URL's value may hold a `'`). What follows a value on its line is masked
  /// with it.
  ///
  /// Only the name and what leads to its value are matched, so a name inside another's value is
  /// found too (`a=1 token=…`, `next=https://app/cb?token=…`), and each value's end is found by
  /// one walk forward over the text. A whole pair matched at once hid every later pair on its
  /// line, and a value matched ahead was read to the line's end for every name on the line:
  /// minified CSS in a traffic attachment (`color:red;margin:0`) took time the square of the
  /// line, 20 s for 680 KB.
  private mutating func claimNamedValues(
    _ names: SharedRegex, at place: CredentialName.Place,
    endingAt ends: (Unicode.Scalar) -> Bool,
    continuingAt continues: ((String.Index) -> Bool)? = nil
  ) {
    var valueEnd = text.startIndex
    var nextPercent = text.startIndex
    // Values before it were searched for a URL with a credential behind escapes already, as
    // part of an earlier value.
    var searchedForNesting = text.startIndex
    // The end of the last value masked here: a later name inside it has a value inside it too
    // (values share their ends), which that mask covers. Masking each again cost the square of
    // a line holding many (`token:[x]token:[x]…`, 45 KB took 46 s).
    var maskedThrough = text.startIndex
    for match in names.matches(in: text) {
      guard let nameRange = Range(match.range(at: 1), in: text),
        let start = Range(match.range, in: text)?.upperBound
      else { continue }
      var value =
        start..<firstIndex(from: start, after: &valueEnd, where: ends, continuingAt: continues)
      if start < maskedThrough, value.upperBound <= maskedThrough { continue }
      if isSecret(text[nameRange], at: place) {
        // A tuple or a list (`auth=("ada", "…")`) runs past the quote that ends a value.
        if let close = bracketedEnd(from: start), close > value.upperBound {
          value = start..<close
        }
        mask(value)
        maskedThrough = value.upperBound
      } else if place == .parameter, start >= searchedForNesting,
        firstIndex(from: start, after: &nextPercent, where: { $0 == "%" }) < value.upperBound
      {
        // A value may be a URL holding a credential behind escapes
        // (`next=https%3A%2F%2Fapi%2Fcb%3Fcode%3D…`).
        searchedForNesting = value.upperBound
        if LogRedaction.nestsSecret(
          text[value], naming: naming, levels: CompiledRedaction.nestedURLLevels)
        {
          mask(value)
        }
      }
    }
  }

  /// The end of the tuple or list that opens at `start` (``SpacedPairValue/bracketedEnd(from:in:)``).
  private func bracketedEnd(from start: String.Index) -> String.Index? {
    guard start < text.endIndex,
      text.utf8[start] == UInt8(ascii: "(")
        || text.utf8[start] == UInt8(ascii: "[")
    else { return nil }
    let offset = text.utf8.distance(from: text.startIndex, to: start)
    var copy = text
    let close = copy.withUTF8 { SpacedPairValue.bracketedEnd(from: offset, in: $0) }
    return close.map { text.utf8.index(text.startIndex, offsetBy: $0) }
  }

  /// The first index at or after `start` whose scalar `stops` a run. `found` is the one asked for
  /// last, from a lower `start`: names come in order, so while it lies ahead it is still the
  /// answer, and one walk over the text serves every name (values overlap, and a walk each took
  /// time the square of a long line).
  ///
  /// With `continues`, a run goes on over a stop it says yes to, once the run before it is not
  /// empty.
  private func firstIndex(
    from start: String.Index, after found: inout String.Index,
    where stops: (Unicode.Scalar) -> Bool,
    continuingAt continues: ((String.Index) -> Bool)? = nil
  ) -> String.Index {
    guard found < start else { return found }
    let scalars = text.unicodeScalars
    var end = scalars[start...].firstIndex(where: stops) ?? text.endIndex
    if end > start, let continues {
      while end < text.endIndex, continues(end) {
        end = scalars[scalars.index(after: end)...].firstIndex(where: stops) ?? text.endIndex
      }
    }
    found = end
    return found
  }

  /// Whether a pair's value goes on over the `&`, `#` or `;` at `stop`, as a written cassette's
  /// does (``EmbeddedQueryPairs``): when what follows, up to the next end of a value or white
  /// space, is not empty, holds no `=` and is no HTML character reference (`&amp;`). So
  /// `password=P@ss#word` is masked whole, and `token=…&page=2` still ends at the `&`.
  private func continuesPairValue(at stop: String.Index) -> Bool {
    let scalars = text.unicodeScalars
    let delimiter = scalars[stop]
    guard delimiter == "&" || delimiter == "#" || delimiter == ";" else { return false }
    let next = scalars.index(after: stop)
    let end =
      scalars[next...].firstIndex {
        Self.endsPairValue($0) || $0 == "=" || $0.properties.isWhitespace
      } ?? text.endIndex
    guard end > next else { return false }
    guard end < text.endIndex else { return true }
    if scalars[end] == "=" { return false }
    let isCharacterReference =
      delimiter == "&" && scalars[end] == ";"
      && scalars[next..<end].allSatisfy { $0.isASCII && $0.properties.isAlphabetic }
    return !isCharacterReference
  }

  private static func endsHeaderValue(_ scalar: Unicode.Scalar) -> Bool {
    scalar == "'" || scalar == "\"" || scalar == "\r" || scalar == "\n"
  }

  private static func endsPairValue(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "&", ";", "#", "\r", "\n", "\"", "<", ">", "\\": true
    default: false
    }
  }

  /// Whether a value named `name` at `place` is a credential. Asked once a name: every `name=`
  /// and `Name:` on a line is read, and texts repeat their names.
  /// A pair's value under a name that is no credential's, holding behind percent-escapes text
  /// that is masked (`state=%7B%22csrf%22%3A%22…%22%7D`, `next=%2Fhome%3Ftoken%3D…`): masked
  /// whole, as ``LogRedaction/mask(url:naming:)`` masks such a value in a URL. Only values with
  /// a `%` are decoded; `=`s are found by `memchr` (``EmbeddedQueryPairs``).
  private mutating func claimEncodedValues() {
    guard text.contains(bytes: "%"), text.contains(bytes: "=") else { return }
    var copy = text
    let naming = naming
    let found = copy.withUTF8 { bytes -> [Range<Int>] in
      var found: [Range<Int>] = []
      EmbeddedQueryPairs.forEach(in: bytes) { _, valueRange in
        guard bytes.index(of: UInt8(ascii: "%"), in: valueRange) != nil else { return }
        let value = String(decoding: bytes[valueRange], as: UTF8.self)
        if LogRedaction.nestsSecret(
          value[...], naming: naming, levels: CompiledRedaction.nestedURLLevels)
        {
          found.append(valueRange)
        }
      }
      return found
    }
    mask(bytes: found)
  }

  /// A value member whose neighbouring name member holds a credential's name
  /// (``HeldCredentialName``): `{"name":"DB_PASSWORD","value":"…"}`.
  private mutating func claimHeldCredentialNames() {
    // YAML's mapping (`- name: DB_PASSWORD` then `value: …`), as redaction reads it.
    if text.contains(bytes: "alue:") {
      var copy = text
      let naming = naming
      mask(
        bytes: copy.withUTF8 { bytes in
          YAMLHeldNames.pairs(in: bytes).filter { pair in
            HeldCredentialName.placeholderName(
              held: pair.held, namingAKey: pair.namesAKey,
              isCredential: { NamedSecrets.isSecret($0, at: .jsonMember, naming: naming) })
              != nil
          }.map(\.value)
        })
    }
    for (held, namesAKey, value) in HeldCredentialName.neighbours(in: text) {
      let isSecret = HeldCredentialName.placeholderName(
        held: Self.unescaped(String(held)), namingAKey: namesAKey,
        isCredential: { NamedSecrets.isSecret($0, at: .jsonMember, naming: naming) })
      guard isSecret != nil else { continue }
      // A string's contents, as the other members' values are masked.
      let isString = text[value].first == "\"" && text[value].count >= 2
      mask(
        isString
          ? text.index(after: value.lowerBound)..<text.index(before: value.upperBound) : value)
    }
  }

  private mutating func isSecret(_ name: Substring, at place: CredentialName.Place) -> Bool {
    let key = NameAtPlace(name: name, place: place)
    if let known = secretNames[key] { return known }
    let unescaped = Self.unescaped(String(name))
    let secret = NamedSecrets.isSecret(
      unescaped.removingPercentEncoding ?? unescaped, at: place, naming: naming)
    secretNames[key] = secret
    return secret
  }

  /// Each known value (``KnownValues``: declared by a test, or in a credential-named
  /// environment variable) wherever it shows, in any of its spellings: a report prints what a
  /// cassette would have replaced by a placeholder, so it masks the same values.
  private mutating func claimKnownValues() { claim(KnownValues.forLogs) }

  /// Each echo where it shows, in every spelling a cassette searches for it
  /// (``ValueSpellings``: percent-encoded, JSON-escaped, base64 at each alignment, hex, …):
  /// what a cassette would not write in any spelling, a log does not print in any. What a rule
  /// claimed already stays as that rule masked it.
  private mutating func claimEchoes(_ echoes: [String]) {
    guard !echoes.isEmpty else { return }
    claim(RedactionEchoes.spelling(echoes))
  }

  /// Masks where `echoes` finds its values, as a cassette's redaction finds them
  /// (``RedactionEchoes/maskedRanges(in:)``).
  private mutating func claim(_ echoes: RedactionEchoes) {
    guard !echoes.isEmpty else { return }
    mask(bytes: echoes.maskedRanges(in: text))
  }

  /// A credential member whose value is a number, a literal, an array or an object: masked
  /// to the value's end, brackets matched (strings inside them skipped).
  private mutating func claimUnquotedMembers() {
    for match in Self.unquotedMember.matches(in: text) {
      guard let nameRange = Range(match.range(at: 1), in: text),
        let start = Range(match.range, in: text)?.upperBound,
        NamedSecrets.isSecret(
          Self.unescaped(String(text[nameRange])), at: .jsonMember, naming: naming)
      else { continue }
      let end = Self.endOfJSONValue(in: text, from: start)
      mask(start..<end)
    }
  }

  /// A JSON string's escapes decoded (`p\u0061ssword` is `password`), as a parser reads the
  /// name, or a YAML double-quoted key's (`p\x61ssword`); the name as written when it is
  /// neither.
  private static func unescaped(_ name: String) -> String {
    guard name.contains(bytes: "\\") else { return name }
    return (try? JSONDecoder().decode(String.self, from: Data("\"\(name)\"".utf8)))
      ?? YAMLScalar.unescaped(doubleQuoted: name) ?? name
  }

  /// A credential-named XML element's content, masked whole (text, CDATA, comments, markup).
  private mutating func claimXMLElements() {
    guard text.contains(bytes: "</") || text.contains(bytes: "<\\/") else { return }
    let naming = naming
    for element in XMLElementContent.elements(
      in: text, selecting: { NamedSecrets.isSecret($0, at: .jsonMember, naming: naming) })
    {
      mask(element.content)
    }
  }

  /// A credential-named XML attribute's value (`<auth token="…"/>`); one inside an element
  /// masked whole is left to it.
  private mutating func claimXMLAttributes() {
    guard text.contains(bytes: "=") else { return }
    let naming = naming
    for attribute in XMLElementContent.attributes(
      in: text, selecting: { NamedSecrets.isSecret($0, at: .jsonMember, naming: naming) })
    {
      mask(attribute.value)
    }
  }

  /// A credential assigned by name in a configuration file, a script or a command line
  /// (`password = "…"`, `apiKey: '…'`, an INI file's bare `password = …`, `'password' => …`,
  /// `--password …`, a YAML block scalar's lines); the header rules read bare `name: value`
  /// lines.
  /// A random-looking value on a line that names a credential (``CredentialLines``), judged
  /// as a cassette judges it: by the member and the parameter rules, in text that is no JSON.
  private mutating func claimCredentialLines() {
    var copy = text
    guard JSONNode.container(in: text) != nil else {
      let found = copy.withUTF8 { bytes in
        CredentialLines.values(in: bytes) { isCredentialLineName($0) }
      }
      mask(bytes: found.map(\.value))
      return
    }
    // A JSON document's members are its names, as a cassette reads it; prose in one of its
    // strings (`"note": "your password is …"`) is read on its own, decoded, as a cassette reads
    // it (``JSONStringText``), and what it names is masked wherever it shows.
    let values = copy.withUTF8 { bytes in
      JSONStringText.ranges(in: bytes).flatMap { range -> [String] in
        guard var decoded = JSONNode.string(at: range, in: bytes) else { return [] }
        return decoded.withUTF8 { inner in
          CredentialLines.values(in: inner) { isCredentialLineName($0) }.map {
            String(decoding: UnsafeBufferPointer(rebasing: inner[$0.value]), as: UTF8.self)
          }
        }
      }
    }
    claimEchoes(values)
  }

  private mutating func isCredentialLineName(_ name: Substring) -> Bool {
    isSecret(name, at: .jsonMember) || isSecret(name, at: .parameter)
  }

  private mutating func claimAssignments() {
    // A bare value runs over the names after it on its line, and theirs end where it does: the
    // first covers them (`password = a)password = a)…` took the square of the line).
    var maskedThrough = text.startIndex
    for assignment in TextAssignments.assignments(in: text)
    // A bare `name: value` is the header rules', which read no bracketed name
    // (`user[password]: …`) and no key of words (`mot de passe: …`) whose last word they
    // would not mask (`✗ header X-Api-Key: expected == …` is theirs, read by its last word).
    where
      (assignment.isQuoted || assignment.isBlock || assignment.separator != UInt8(ascii: ":")
      || assignment.name.utf8.last == UInt8(ascii: "]")
      // A printed name in backticks, quotes or brackets (`` `password`: ``) is no header's.
      || text.utf8[assignment.name.endIndex...].first.map { "`'\"]".utf8.contains($0) } == true
      || assignment.name.contains(" ")
        && !isSecret(assignment.name.split(separator: " ").last ?? "", at: .header))
      && assignment.value.upperBound > maskedThrough
      && isSecret(assignment.name, at: .jsonMember)
    {
      mask(assignment.value)
      maskedThrough = assignment.value.upperBound
    }
  }

  /// A JSON document written in base64 (a body sent wrapped, a multipart part in base64, as a
  /// drift or a near miss prints it): masked whole when the document it holds has a credential,
  /// as a cassette reads such a body as the text inside. Found from where such a run starts
  /// (`{"` is `eyJ`, `{ "` is `eyAi`, `{` and a line break `ewo`) by `memmem`, and decoded only
  /// there.
  private mutating func claimBase64Documents() {
    var copy = text
    let runs = copy.withUTF8 { bytes -> [Range<Int>] in
      let raw = UnsafeRawBufferPointer(bytes)
      var starts: [Int] = []
      for lead in ["eyJ", "eyAi", "ewo"] {
        starts += ByteSearch.ranges(of: Array(lead.utf8), in: raw).map(\.lowerBound)
      }
      var runs: [Range<Int>] = []
      for start in starts.sorted() where start == 0 || !ASCIIByte.isBase64(bytes[start - 1]) {
        if let last = runs.last, last.contains(start) { continue }
        var end = start
        while end < bytes.count, ASCIIByte.isBase64(bytes[end]) { end += 1 }
        guard end - start >= 24,
          let decoded = Base64Body.decoded(String(decoding: bytes[start..<end], as: UTF8.self)),
          LogRedaction.mask(decoded.text) != decoded.text
        else { continue }
        while end < bytes.count, bytes[end] == UInt8(ascii: "=") { end += 1 }
        runs.append(start..<end)
      }
      return runs
    }
    mask(bytes: runs)
  }

  /// Names and values white space alone separates (``WhitespacePairs``): a `.netrc` line's,
  /// and a line of two words whose first is a credential's name and whose second is as long as
  /// an echo searched for (``WhitespacePairs/twoWordLines(in:)``, as cassettes read them).
  private mutating func claimWhitespacePairs() {
    var copy = text
    let pairs = copy.withUTF8 { bytes in
      WhitespacePairs.netrc(in: bytes) + WhitespacePairs.twoWordLines(in: bytes)
    }
    let utf8 = text.utf8
    for pair in pairs {
      let name = utf8.index(utf8.startIndex, offsetBy: pair.name.lowerBound)
      let nameEnd = utf8.index(name, offsetBy: pair.name.count)
      guard isSecret(text[name..<nameEnd], at: .jsonMember) else { continue }
      let value = utf8.index(utf8.startIndex, offsetBy: pair.value.lowerBound)
      mask(value..<utf8.index(value, offsetBy: pair.value.count))
    }
  }

  private static func endOfJSONValue(in text: String, from start: String.Index) -> String.Index {
    var depth = 0
    var inString = false
    var escaped = false
    var index = start
    while index < text.endIndex {
      let character = text[index]
      if inString {
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          inString = false
        }
      } else if character == "\"" {
        inString = true
      } else if character == "[" || character == "{" {
        depth += 1
      } else if character == "]" || character == "}" {
        if depth == 0 { return index }
        depth -= 1
        if depth == 0 { return text.index(after: index) }
      } else if depth == 0, character == "," || character.isWhitespace {
        return index
      }
      index = text.index(after: index)
    }
    return index
  }

  /// `at $.user.password: expected "…", got "…"`, as a JSON body's mismatch says: what the
  /// request had is masked whole when a member on the path is a credential's.
  private mutating func claimJSONDifferences() {
    guard text.contains(bytes: "at $") else { return }
    for match in Self.jsonDifference.matches(in: text) {
      guard let pathRange = Range(match.range(at: 1), in: text),
        let actualRange = Range(match.range(at: 2), in: text)
      else { continue }
      let path = String(text[pathRange])
      let names = Self.pathMember.matches(in: path).compactMap { member in
        (Range(member.range(at: 1), in: path) ?? Range(member.range(at: 2), in: path))
          .map { String(path[$0]) }
      }
      guard
        names.contains(where: { NamedSecrets.isSecret($0, at: .jsonMember, naming: naming) })
      else { continue }
      mask(actualRange)
    }
  }

  private struct NameAtPlace: Hashable {
    let name: Substring
    let place: CredentialName.Place
  }

  /// A value masked already: ``LogRedaction/masked(_:)`` writes `••••(N chars)`, after the
  /// label a credential's shape keeps (`AKIA••••(16 chars)`, `github_pat_••••(…)`: 11
  /// characters at most, a word of its own). A longer word before it is no label, but a secret.
  static let maskedValue = SharedRegex(
    literal: "(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{1,11}••••\\(\\d+ chars\\)|••••(?:\\(\\d+ chars\\))?")
  static let privateKeyBlock = SharedRegex(
    literal:
      "(-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)([\\s\\S]*?)(?=-----END |\"|$)")
  /// `Name: value` on a line of its own, as reports and HTTP write headers.
  static let headerLine = SharedRegex(
    literal: "(?m)^[ \\t]*([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)[ \\t]*:[ \\t]*(.*?)[ \\t]*$")
  /// `Name:` inside a line, and the spaces after it: a header quoted in a command
  /// (`curl -H 'X-Api-Key: …'`), in a message, or in another header's value
  /// (``claimNamedValues(_:at:endingAt:)`` finds the value, so a header inside another's value
  /// is found too). A report's own `✗ field: expected …, got …` lines are masked where they are written
  /// (what the request had, inside them, is still read here).
  static let headerInLineName = SharedRegex(
    literal: "(?<![A-Za-z0-9_.-])([A-Za-z][A-Za-z0-9_.-]*):[ \\t]*+(?!expected )")
  /// `'` is one of a URL's sub-delimiters, so it may stand in a password. User information
  /// runs to the authority's last `@`: a password's `%40`, read with its escapes undone (as
  /// what a stub expects is read too), is an `@` of its own, and the text after it is still
  /// the password. A scheme-relative URL (`//ada:…@cdn/x.png`, after a quote, `=`, `(`, `<` or
  /// white space) has user information when a `:` stands in it.
  static let userinfo = SharedRegex(
    literal: "(\\b[A-Za-z][A-Za-z0-9+.-]*://|(?<![^\\s\"'=(<])//(?=[^\\s/?#\"<>\\\\]*:))"
      + "([^\\s/?#\"<>\\\\]+)@")
  /// `"name": "value"`, in JSON and in Swift's description of a dictionary.
  static let jsonMember = SharedRegex(
    literal: "\"((?:[^\"\\\\\\n]|\\\\.){1,100})\"[ \\t]*:[ \\t]*\"((?:[^\"\\\\\\n]|\\\\.)*)\"")
  /// `\"name\": \"value\"`: JSON inside a JSON string, as a HAR file holds a body, at any
  /// depth of escaping (`\\\"name\\\": …` two strings down): the quotes of one member are
  /// all escaped alike, which the back-reference holds the name's and the value's to. Inside the
  /// value, a run of backslashes before anything but a quote, or a longer run before a quote,
  /// belongs to JSON deeper still.
  static let escapedJSONMember = SharedRegex(
    literal:
      "(?<!\\\\)(\\\\+)\"([^\"\\\\\\n]{1,100})\\1\"[ \\t]*:[ \\t]*\\1\""
      + "((?:[^\"\\\\]|\\\\+[^\"\\\\]|\\\\+\")*?)\\1\"")
  /// The same, with a value that holds no quote at all: a member whose value is JSON deeper
  /// still is then passed over, not taken whole with a name that selects nothing, so the
  /// members inside that value are found at their own depth.
  static let escapedJSONScalarMember = SharedRegex(
    literal:
      "(?<!\\\\)(\\\\+)\"([^\"\\\\\\n]{1,100})\\1\"[ \\t]*:[ \\t]*\\1\""
      + "((?:[^\"\\\\]|\\\\+[^\"\\\\])*?)\\1\"")
  /// `("name", "value")`: Swift source the tool generates, such as `.query("code", "…")`, and
  /// `["name", "value"]` pairs in JSON arrays. Only right after `(` or `[`: two strings in a row
  /// elsewhere (`{"id": "ch_…PW", "n": 1}`) are a value and the next member's name, and a random
  /// identifier whose last letters spell a credential word is no name.
  static let quotedArguments = SharedRegex(
    literal:
      "(?<=[(\\[])[ \\t]*\"([^\"\\\\\\n]{1,100})\"[ \\t]*,[ \\t]*\"((?:[^\"\\\\\\n]|\\\\.)*)\"")
  /// The `name=` of a pair (``claimNamedValues(_:at:endingAt:)`` finds its value).
  static let pairName = SharedRegex(
    literal: "(?<![A-Za-z0-9_.%+\\[\\]-])([A-Za-z0-9_.%+\\[\\]-]+)=")
  /// `"name":` before a value that is not a string.
  static let unquotedMember = SharedRegex(
    literal: "\"((?:[^\"\\\\\\n]|\\\\.){1,100})\"[ \\t]*:[ \\t]*(?=[-0-9tfn\\[{])")
  /// `at $.path: expected …, got …` to the line's end; the path is group 1, what the request
  /// had group 2.
  static let jsonDifference = SharedRegex(
    literal:
      "(?m)\\bat (\\$(?:\\.[A-Za-z_][A-Za-z0-9_]*|\\[\"(?:[^\"\\\\\\n]|\\\\.)*\"\\]|\\[\\d+\\])*)"
      + ": expected .*?, got (.*)$")
  /// One member of a difference's path: `.name` (group 1) or `["odd name"]` (group 2).
  static let pathMember = SharedRegex(
    literal: "\\.([A-Za-z_][A-Za-z0-9_]*)|\\[\"((?:[^\"\\\\]|\\\\.)*)\"\\]")
}
