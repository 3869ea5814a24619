/// The values redaction has removed so far, searched for everywhere else: a server that echoes
/// a request back (a cookie in a JSON body, an API key in a header, a password inside a JSON
/// string, credentials in a redirect) must not get them written where no rule looks.
///
/// Each value is searched for as written and in the forms it takes elsewhere: upper- and
/// lower-cased, percent-encoded (in URLs and form bodies, or every byte), form-encoded, escaped
/// inside a JSON string, base64 (standard and URL-safe, padded or not, alone or inside a longer
/// blob) and hex (either case). Values shorter than ``Redaction/minimumEchoLength`` are not
/// searched for: replacing every `12345` or `admin` in a cassette would mangle it. The length is
/// the value's: its base64 and hex forms are longer still (7 and 12 characters at least), so no
/// form is short enough to match by chance.
///
/// Binary bodies are searched too, byte for byte, and each value found in one is overwritten in
/// place by a filler of its own length (see ``replace(inBinary:)``).
struct RedactionEchoes {
  private struct Needle {
    var bytes: [UInt8]
    /// The placeholder name of the rule that removed the value.
    var name: String
    /// Found in percent-encoded form, so its placeholder is percent-encoded too.
    var isEncoded: Bool
    /// A base64 form of the value, which may stand inside a longer base64 run.
    var isBase64 = false
    /// A list of the value's bytes, which a JSON array holds as numbers.
    var isByteList = false
  }

  /// Every spelling of every value, in the order remembered, and the same bytes filed for one
  /// pass over a text (``NeedleSet``), which takes the longest where several match, so that
  /// `Bearer abc…` is replaced whole before `abc…` alone.
  private var needles: [Needle] = []
  private var set = NeedleSet()
  private var known: Set<String> = []
  private var spelled: Set<[UInt8]> = []
  /// The placeholder name of each needle a JSON number could equal, by its text.
  private var numeric: [String: String] = [:]

  var isEmpty: Bool { needles.isEmpty }

  /// How many values are remembered, so a caller can tell whether more were added since.
  var count: Int { known.count }

  /// The values remembered, as the rules found them.
  var values: Set<String> { known }

  /// Remembers `value`, removed by the rule named `name`; `inURL` when it is written only in
  /// URLs, so that its placeholder is percent-encoded wherever it is found and a URL holding it
  /// still parses. `minimumLength` is ``Redaction/minimumEchoLength`` for values a rule found,
  /// and 1 for values declared as secret. `everyEscape` for a known value (declared, the
  /// environment's, or a request's credential a report masks): it is searched in the
  /// spellings only known values are (``ValueSpellings/of(_:inURL:everyEscape:)``).
  mutating func remember(
    _ value: String, as name: String, inURL: Bool = false,
    minimumLength: Int = Redaction.minimumEchoLength, everyEscape: Bool = false
  ) {
    // A value masked for a log already (a report in a comment) is no secret to search for: cut
    // at its space by a rule, `••••(42` would take the mask apart wherever it stands.
    guard value.count >= minimumLength, !LogRedaction.isMaskedOrPlaceholder(value),
      known.insert(value).inserted
    else { return }
    for spelling in ValueSpellings.of(value, inURL: inURL, everyEscape: everyEscape) {
      insert(
        Needle(
          bytes: Array(spelling.text.utf8), name: name, isEncoded: spelling.isEncoded,
          isBase64: spelling.isBase64, isByteList: spelling.isByteList))
    }
  }

  /// Remembers every value `other` remembers, in the same forms and under the same names; a
  /// form already known keeps its name.
  mutating func formUnion(_ other: RedactionEchoes) {
    known.formUnion(other.known)
    for form in other.needles { insert(form) }
  }

  /// Adds one spelling of a value; the caller sorts ``needles`` after the last.
  private mutating func insert(_ form: Needle) {
    guard !form.bytes.isEmpty, spelled.insert(form.bytes).inserted else { return }
    needles.append(form)
    set.append(form.bytes)
    let text = String(decoding: form.bytes, as: UTF8.self)
    if numeric[text] == nil, form.bytes.allSatisfy(Self.isNumberByte) {
      numeric[text] = form.name
    }
  }

  /// `value` as the inside of a JSON string, without the quotes.
  static func jsonEscaped(_ value: String) -> String { ValueSpellings.jsonEscaped(value) }

  private static func isNumberByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"),
      UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
      return true
    default:
      return false
    }
  }

  /// Where remembered values occur in `bytes`, apart, each with the needle found there. Where
  /// two overlap, the one that starts first wins, and of two that start together the longer
  /// (`Bearer abc…` over `abc…`).
  private func matches(
    in bytes: UnsafeRawBufferPointer, first: Bool = false
  ) -> [(range: Range<Int>, needle: Needle)] {
    guard !needles.isEmpty, !bytes.isEmpty else { return [] }
    let found = set.matches(in: bytes, first: first).map { ($0.range, needles[$0.needle]) }
    if first && !found.isEmpty { return found }
    // Markup may write any character as a reference, by number or by name, a hex one in either
    // case (`&#x27;`, `&#X27;`, `&#39;`, `&apos;`): too many spellings to list, so the text is
    // also searched as read with them decoded, and a value found there stands where the
    // references it was read from stand.
    guard let reading = HTMLCharacterReferences.mappedReading(bytes) else { return found }
    let read = reading.bytes.withUnsafeBytes { set.matches(in: $0, first: first) }.map {
      (
        range: reading.sources[$0.range.lowerBound]
          .lowerBound..<reading.sources[$0.range.upperBound - 1].upperBound,
        needle: needles[$0.needle]
      )
    }
    guard !read.isEmpty else { return found }
    // The two searches' finds, apart and in order: the one that starts first, and of two that
    // start together the longer.
    var merged: [(range: Range<Int>, needle: Needle)] = []
    for match in (found + read).sorted(by: {
      ($0.range.lowerBound, -$0.range.count) < ($1.range.lowerBound, -$1.range.count)
    }) where merged.last.map({ $0.range.upperBound <= match.range.lowerBound }) ?? true {
      merged.append(match)
    }
    return merged
  }

  /// Whether any remembered value occurs in `bytes`.
  private func occurs(in bytes: UnsafeRawBufferPointer) -> Bool {
    !matches(in: bytes, first: true).isEmpty
  }

  /// Whether any remembered value occurs in `text`, in any spelling.
  func occurs(in text: String) -> Bool {
    guard !needles.isEmpty else { return false }
    var text = text
    return text.withUTF8 { occurs(in: UnsafeRawBufferPointer($0)) }
  }

  /// Where remembered values occur in `text`, as byte ranges, each with its placeholder name.
  func ranges(in text: String) -> [(
    range: Range<Int>, name: String, isEncoded: Bool, isBase64: Bool
  )] {
    guard !needles.isEmpty else { return [] }
    var text = text
    return text.withUTF8 { utf8 in
      matches(in: UnsafeRawBufferPointer(utf8)).map {
        ($0.range, $0.needle.name, $0.needle.isEncoded, $0.needle.isBase64)
      }
    }
  }

  /// `data`, a binary body, with every remembered value (in each of its forms) overwritten in
  /// place, or `nil` when none occurs in it.
  ///
  /// Rules never read a binary body, but a server can echo a request's key into one (an
  /// image's metadata, a protobuf string field). The value's bytes are overwritten by a filler
  /// of exactly their length, so the body keeps its size and every length or offset framing it
  /// (a protobuf field's length prefix, a zip directory) still holds: the placeholder's text
  /// cut to that length, or followed by `*` up to it, which is ASCII and never a value that
  /// is searched for (`<redacted:api-key>` for an 18-byte key, `<redact` for a 7-byte one).
  func replace(inBinary data: Data) -> Data? {
    guard !needles.isEmpty, !data.isEmpty else { return nil }
    var bytes = [UInt8](data)
    let found = bytes.withUnsafeBytes { matches(in: $0) }
    guard !found.isEmpty else { return nil }
    for match in found {
      let filler = Self.filler(for: match.needle.name, count: match.range.count)
      bytes.replaceSubrange(match.range, with: filler)
    }
    return Data(bytes)
  }

  /// The placeholder for `name` as exactly `count` bytes: cut, or padded with `*`.
  static func filler(for name: String, count: Int) -> [UInt8] {
    let placeholder = Array(RedactionPlaceholder.text(name).utf8.prefix(count))
    return placeholder + Array(repeating: UInt8(ascii: "*"), count: count - placeholder.count)
  }

  /// Remembers a credential header's value and the secrets inside it (``secrets(inHeaderValue:named:)``).
  mutating func remember(headerValue value: String, named header: String, as name: String) {
    for secret in Self.secrets(inHeaderValue: value, named: header) { remember(secret, as: name) }
  }

  /// A credential header's value and the secrets inside it: the credentials after an
  /// `Authorization` scheme (and a Basic pair decoded, whole and in its two parts), and each
  /// cookie's value. Reports mask the same values wherever a request repeats them.
  static func secrets(inHeaderValue value: String, named header: String) -> [String] {
    var secrets = [value]
    switch header.lowercased() {
    case "cookie":
      secrets += value.split(separator: ";").compactMap(cookieValue)
    case "set-cookie":
      secrets += setCookies(in: value).compactMap { $0.split(separator: ";").first }
        .compactMap(cookieValue)
    default:
      // A header sent twice reaches a HAR as one value, `k1,k2` or `k1, k2`: each is a secret of
      // its own, which a server may echo alone.
      let values =
        value.contains(bytes: ",")
        ? value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } : [value]
      if values.count > 1 { secrets += values }
      for single in values {
        guard let space = single.firstIndex(of: " ") else {
          // `response=…` after `Digest username="ada",` comes apart from its scheme.
          if let param = authParamValue(single[...]) { secrets.append(param) }
          continue
        }
        let credentials = single[single.index(after: space)...].trimmingCharacters(in: .whitespaces)
        secrets.append(credentials)
        if let pair = decodedPair(credentials) { secrets += parts(ofPair: pair) }
        if let param = authParamValue(credentials[...]) { secrets.append(param) }
      }
    }
    return secrets
  }

  /// The value of an auth-param (RFC 9110) that holds a credential, its quotes removed:
  /// `token=…` after `Token` (Rails), `response=…` of a Digest, `signature=…`, and any value
  /// that reads as random whatever its name (Hawk's `mac="…"`, a scheme's own signature or
  /// key: each scheme names its proof differently); `nil` for a parameter that names where or
  /// who (`realm`, `uri`, `username`), which a server writes everywhere and which is no secret
  /// to search for.
  static func authParamValue(_ param: Substring) -> String? {
    guard let equals = param.firstIndex(of: "=") else { return nil }
    let name = param[..<equals].trimmingCharacters(in: .whitespaces)
    guard !name.isEmpty, name.utf8.allSatisfy(ASCIIByte.isTokenCharacter) else { return nil }
    var value = param[param.index(after: equals)...].trimmingCharacters(in: .whitespaces)
    if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
      value = String(value.dropFirst().dropLast())
    }
    let lowered = name.lowercased()
    guard !value.isEmpty, !Self.placeParams.contains(lowered),
      lowered == "response" || CredentialName.isCredential(name, at: .parameter)
        || value.utf8.count >= CredentialLines.minimumLength && looksRandom(value)
    else { return nil }
    return value
  }

  /// Auth-params that say where, who or how, never a proof.
  private static let placeParams: Set<String> = ["realm", "uri", "username", "algorithm", "qop"]

  private static func looksRandom(_ value: String) -> Bool {
    var value = value
    return value.withUTF8 { CredentialLines.looksRandom(0..<$0.count, in: $0) }
  }

  /// The cookies of a `Set-Cookie` value, which Foundation on Linux folds into one line when a
  /// response sets several (`a=1; Path=/, sid=…; HttpOnly`): split at each comma that a
  /// `name=` follows, which the comma of an `Expires` date (`Wed, 21 Oct 2026 …`) never is.
  static func setCookies(in value: String) -> [Substring] {
    var cookies: [Substring] = []
    var start = value.startIndex
    var index = value.startIndex
    while let comma = value[index...].firstIndex(of: ",") {
      let next = value[value.index(after: comma)...].drop { $0 == " " }
      let name = next.prefix { $0 != "=" && $0 != ";" && $0 != "," && $0 != " " }
      if !name.isEmpty, next.dropFirst(name.count).first == "=" {
        cookies.append(value[start..<comma])
        start = next.startIndex
      }
      index = value.index(after: comma)
    }
    cookies.append(value[start...])
    return cookies
  }

  /// Remembers URL userinfo as written and decoded, whole and its user and password apart,
  /// and as the Basic credentials a client sends for it (which a server may echo). Whole, it is
  /// URL text: an echo in a `Link` header or a body is replaced by the placeholder the URL's
  /// user information takes.
  mutating func remember(userinfo: String) {
    let decoded = userinfo.removingPercentEncoding ?? userinfo
    remember(userinfo, as: "userinfo", inURL: true)
    for part in Self.parts(ofPair: decoded) { remember(part, as: "userinfo") }
    remember(Data(decoded.utf8).base64EncodedString(), as: "userinfo")
  }

  /// Remembers the value of a JSON member or XML element a name pattern selected, unless it is
  /// a few plain words: patterns such as `*password*` also select `"passwordStrength":
  /// "medium"`, and every later `medium` must not become a placeholder.
  mutating func remember(memberValue value: String, as name: String) {
    let isWords =
      value.count <= 16 && value.allSatisfy { $0.isLetter || $0 == " " || $0 == "-" || $0 == "_" }
    if !isWords { remember(value, as: name) }
  }

  /// The value of a cookie's `name=value`, or `nil` when it has no `=`.
  private static func cookieValue(_ pair: Substring) -> String? {
    guard let equals = pair.firstIndex(of: "=") else { return nil }
    return String(pair[pair.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
  }

  /// `user:password`, whole and in its two parts.
  /// The `id:secret` pair a scheme's credentials are base64 of, in either alphabet, padded or
  /// not: Basic's `user:password`, and every scheme that sends a pair so (Elasticsearch's
  /// `ApiKey base64(id:key)`, a client's own). A server echoes either part alone.
  private static func decodedPair(_ credentials: String) -> String? {
    var credentials = credentials
    return credentials.withUTF8 { bytes -> String? in
      guard bytes.count >= 4, let decoded = Base64Run.decode(bytes, 0..<bytes.count),
        decoded.contains(UInt8(ascii: ":")),
        decoded.allSatisfy({ $0 >= 0x20 && $0 != 0x7F }),
        let pair = String(validating: decoded, as: UTF8.self)
      else { return nil }
      return pair
    }
  }

  private static func parts(ofPair pair: String) -> [String] {
    guard let colon = pair.firstIndex(of: ":") else { return [pair] }
    return [pair, String(pair[..<colon]), String(pair[pair.index(after: colon)...])]
  }

  /// `text` with every remembered value replaced by its placeholder. JSON bodies are changed
  /// only inside their strings (and numbers equal to a value), so they stay valid JSON.
  func replace(in text: String, field: RedactableField) -> String {
    guard !needles.isEmpty, !text.isEmpty else { return text }
    var inURL = false
    switch field {
    case .url:
      return RedactionPlaceholder.authoritySafe(replace(inPlain: text, encoded: true))
    case .header(let name):
      if CompiledRedaction.urlHeaders.contains(name.lowercased()) {
        return RedactionPlaceholder.authoritySafe(replace(inPlain: text, encoded: true))
      }
    case .body(let mimeType):
      // A body that is base64 of text (a JSON document sent wrapped) is searched as the text
      // it holds, whatever its type says, so a value in any spelling inside it is found: the
      // base64 forms of the value alone cover only its own spelling as written there.
      if let wrapped = Base64Body.decoded(text) {
        let replaced = replace(in: wrapped.text, field: .body(mimeType: ""))
        if replaced != wrapped.text {
          return Base64Body.encoded(replaced, urlSafe: wrapped.urlSafe, padded: wrapped.padded)
        }
      }
      // A binary type whose bytes happen to be UTF-8 (a small protobuf) is stored as text, and
      // keeps its framing only if each value keeps its length there too.
      if BodyCharset.isBinaryType(mimeType) {
        return replace(inBinary: Data(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
          ?? text
      }
      if let replaced = replace(inJSON: text) { return replaced }
      inURL = FormBody.isForm(text, mimeType: mimeType)
    case .cookie, .queryParameter, .formParameter, .text:
      break
    }
    return replace(inPlain: text, encoded: inURL)
  }

  func replace(inPlain text: String, encoded: Bool) -> String {
    // A text none of them occurs in is left as it is, and that is nearly every text.
    let found = ranges(in: text)
    guard !found.isEmpty else { return text }
    // A placeholder is this library's own text, never a secret; replacing a value that happens
    // to look like part of one (`acted:password%3` in `%3Credacted:password%3E`) would mangle
    // it into text that a second redaction reads differently, so redacting a redacted cassette
    // would change it again.
    let spans = RedactionPlaceholder.byteSpans(in: text)
    var replacements: [(Range<Int>, String)] = []
    // Read only to widen a base64 match, and copied only when there is one to widen.
    let utf8 = !encoded && found.contains(where: \.isBase64) ? Array(text.utf8) : []
    for match in found where !spans.contains(where: { $0.overlaps(match.range) }) {
      let placeholder =
        encoded || match.isEncoded
        ? RedactionPlaceholder.percentEncoded(match.name) : RedactionPlaceholder.text(match.name)
      let range = Self.widened(match.range, isBase64: match.isBase64, encoded: encoded, in: utf8)
      if let last = replacements.last,
        last.0.overlaps(range) || last.0.upperBound == range.lowerBound && match.isBase64
      {
        replacements[replacements.count - 1].0 =
          last.0.lowerBound..<max(last.0.upperBound, range.upperBound)
      } else {
        replacements.append((range, placeholder))
      }
    }
    return CompiledRedaction.splice(text, replacements)
  }

  /// `range`, where a value was found in `utf8`, widened to the base64 run it stands in when it
  /// is a base64 spelling inside a longer run (a blob that encodes a body holding the value):
  /// cut out alone, it left the blob in pieces no decoder reads, and a piece of 40 characters
  /// beside the word `secret` is an AWS key's shape. In URL text (`encoded`) a base64 form
  /// stands between `/`s as a segment, never inside a blob.
  private static func widened(
    _ range: Range<Int>, isBase64: Bool, encoded: Bool, in utf8: [UInt8]
  ) -> Range<Int> {
    let widens =
      isBase64 && !encoded
      && (range.lowerBound > 0 && ASCIIByte.isAlphanumeric(utf8[range.lowerBound - 1])
        || range.upperBound < utf8.count && ASCIIByte.isAlphanumeric(utf8[range.upperBound]))
    return widens ? base64Run(around: range, in: utf8) : range
  }

  /// Where remembered values occur in `text`, in any spelling, as byte ranges: what
  /// ``replace(inPlain:encoded:)`` replaces, a base64 spelling widened to its run as there. A
  /// log masks these, so what a cassette would not write, a log does not print.
  func maskedRanges(in text: String) -> [Range<Int>] {
    let found = ranges(in: text)
    guard !found.isEmpty else { return [] }
    let utf8 = found.contains(where: \.isBase64) ? Array(text.utf8) : []
    var spans: [Range<Int>] = []
    for match in found {
      let range = Self.widened(match.range, isBase64: match.isBase64, encoded: false, in: utf8)
      if let last = spans.last, last.upperBound >= range.lowerBound {
        spans[spans.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
      } else {
        spans.append(range)
      }
    }
    return spans
  }

  /// `values`, each remembered under `name` whatever its length, spelled once for each set
  /// of values: a report masks the values a request or a file holds in every spelling a
  /// cassette searches for, and a tool prints many lines hiding the same ones.
  static func spelling(_ values: some Collection<String>, as name: String = "echo")
    -> RedactionEchoes
  {
    let key = Set(values)
    if let cached = spelledSets.withLock({ $0[key] }) { return cached }
    var echoes = RedactionEchoes()
    // Longest first, so a value that holds another takes its own name's needles first.
    for value in key.sorted(by: { ($0.count, $0) > ($1.count, $1) }) {
      echoes.remember(value, as: name, minimumLength: 1, everyEscape: true)
    }
    spelledSets.withLock { cache in
      // Bounded only so a generated set per call stays in check.
      if cache.count >= 256 { cache.removeAll() }
      cache[key] = echoes
    }
    return echoes
  }

  private static let spelledSets = Locked([Set<String>: RedactionEchoes]())

  /// `range` widened to the base64 run it stands in (letters, digits, `+`, `/`, `-`, `_`, and
  /// the `=` padding after).
  private static func base64Run(around range: Range<Int>, in bytes: [UInt8]) -> Range<Int> {
    var lower = range.lowerBound
    while lower > 0, ASCIIByte.isBase64(bytes[lower - 1]) { lower -= 1 }
    var upper = range.upperBound
    while upper < bytes.count, ASCIIByte.isBase64(bytes[upper]) { upper += 1 }
    while upper < bytes.count, bytes[upper] == UInt8(ascii: "=") { upper += 1 }
    return lower..<upper
  }

  /// `text` with the values replaced inside its strings (and numbers equal to a value), or
  /// `nil` when it is not a JSON object or array. Read without building the document: only a
  /// string that holds a value is decoded.
  private func replace(inJSON text: String) -> String? {
    guard let first = text.utf8.first(where: { !ASCIIByte.isJSONWhitespace($0) }),
      first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    else { return nil }
    var copy = text
    let replacements = copy.withUTF8 { bytes -> [(Range<Int>, String)]? in
      var replacements: [(Range<Int>, String)] = []
      func replaceString(at range: Range<Int>, isPlain: Bool) {
        let contents: String
        if isPlain {
          let inside = UnsafeBufferPointer(
            rebasing: bytes[(range.lowerBound + 1)..<(range.upperBound - 1)])
          guard occurs(in: UnsafeRawBufferPointer(inside)) else { return }
          contents = String(decoding: inside, as: UTF8.self)
        } else {
          guard let decoded = JSONNode.string(at: range, in: bytes) else { return }
          contents = decoded
        }
        let replaced = replace(inPlain: contents, encoded: false)
        if replaced != contents {
          replacements.append((range, "\"\(Self.jsonEscaped(replaced))\""))
        }
      }
      var numbersInARow = 0
      var holdsNumberList = false
      do {
        try JSONNode.walk(bytes) { event in
          switch event {
          case .string(let range, let isPlain):
            numbersInARow = 0
            replaceString(at: range, isPlain: isPlain)
          case .member(let name, let isPlain, _):
            numbersInARow = 0
            // A member's name can be a value too (an object keyed by session id).
            replaceString(at: name, isPlain: isPlain)
          case .number(let range):
            numbersInARow += 1
            if numbersInARow >= 4 { holdsNumberList = true }
            guard !numeric.isEmpty,
              let name = numeric[String(decoding: bytes[range], as: UTF8.self)]
            else { return }
            replacements.append((range, "\"\(RedactionPlaceholder.text(name))\""))
          }
        }
      } catch {
        return nil
      }
      // A value's bytes as an array's numbers (`[88,89,90]`) are no one string: the run of
      // them becomes one string holding the placeholder, and the array stays an array. The
      // body is searched again only when it holds four numbers in a row.
      guard holdsNumberList else { return replacements }
      for match in matches(in: UnsafeRawBufferPointer(bytes)) where match.needle.isByteList {
        let before = match.range.lowerBound > 0 ? bytes[match.range.lowerBound - 1] : 0x20
        let after = match.range.upperBound < bytes.count ? bytes[match.range.upperBound] : 0x20
        guard !ASCIIByte.isAlphanumeric(before), !ASCIIByte.isAlphanumeric(after) else {
          continue
        }
        replacements.append((match.range, "\"\(RedactionPlaceholder.text(match.needle.name))\""))
      }
      return replacements
    }
    guard let replacements else { return nil }
    return CompiledRedaction.splice(text, replacements)
  }
}
