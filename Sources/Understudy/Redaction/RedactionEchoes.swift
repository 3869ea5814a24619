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
    var text: String
    /// The placeholder name of the rule that removed the value.
    var name: String
    /// Found in percent-encoded form, so its placeholder is percent-encoded too.
    var isEncoded: Bool
  }

  /// Longest first, so `Bearer abc…` is replaced whole before `abc…` alone.
  private var needles: [Needle] = []
  private var known: Set<String> = []
  /// The needles by their first byte, longest first, with their placeholder names, to tell in
  /// one pass whether any occurs in a text and to replace them in a binary body.
  private var byFirstByte: [[(bytes: [UInt8], name: String)]] = Array(repeating: [], count: 256)
  /// The placeholder name of each needle a JSON number could equal, by its text.
  private var numeric: [String: String] = [:]

  var isEmpty: Bool { needles.isEmpty }

  /// Remembers `value`, removed by the rule named `name`; `inURL` when it is written only in
  /// URLs, so that its placeholder is percent-encoded wherever it is found and a URL holding it
  /// still parses.
  mutating func remember(_ value: String, as name: String, inURL: Bool = false) {
    guard value.count >= Redaction.minimumEchoLength, !RedactionPlaceholder.isPresent(in: value),
      known.insert(value).inserted
    else { return }
    var forms = [Needle(text: value, name: name, isEncoded: inURL)]
    // A server may hand a value back in another case: hex tokens and digests have no case of
    // their own, and some systems upper-case what they echo.
    for otherCase in [value.uppercased(), value.lowercased()] where otherCase != value {
      forms.append(Needle(text: otherCase, name: name, isEncoded: inURL))
    }
    let encodings = [
      RedactionPlaceholder.percentEncode(value),
      value.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? value,
      (value.addingPercentEncoding(withAllowedCharacters: Self.formAllowed) ?? value)
        .replacingOccurrences(of: "%20", with: "+"),
      // Some encoders escape every byte, letters and digits too.
      value.utf8.map { String(format: "%%%02X", $0) }.joined(),
    ]
    // Escapes are written in either case (.NET's UrlEncode writes `%2f`).
    for encoded in encodings + encodings.map(Self.lowerCasedEscapes) where encoded != value {
      forms.append(Needle(text: encoded, name: name, isEncoded: true))
    }
    let escaped = Self.jsonEscaped(value)
    for escapedForm in [escaped, escaped.replacingOccurrences(of: "/", with: "\\/")]
    where escapedForm != value {
      forms.append(Needle(text: escapedForm, name: name, isEncoded: false))
    }
    // A server can hand a value back encoded: a token in a base64 JSON blob or a JWT claim, a
    // key in a hex dump or a signature's debug string. These forms are longer than the value.
    for encoded in Self.binaryToTextForms(Data(value.utf8)) where encoded != value {
      forms.append(Needle(text: encoded, name: name, isEncoded: false))
    }
    for form in forms { insert(form) }
    needles.sort { $0.text.utf8.count > $1.text.utf8.count }
  }

  /// Remembers every value `other` remembers, in the same forms and under the same names; a
  /// form already known keeps its name.
  mutating func formUnion(_ other: RedactionEchoes) {
    known.formUnion(other.known)
    for form in other.needles { insert(form) }
    needles.sort { $0.text.utf8.count > $1.text.utf8.count }
  }

  /// Adds one spelling of a value; the caller sorts ``needles`` after the last.
  private mutating func insert(_ form: Needle) {
    guard !needles.contains(where: { $0.text == form.text }) else { return }
    needles.append(form)
    let bytes = Array(form.text.utf8)
    byFirstByte[Int(bytes[0])].append((bytes, form.name))
    byFirstByte[Int(bytes[0])].sort { $0.bytes.count > $1.bytes.count }
    if numeric[form.text] == nil, form.text.utf8.allSatisfy(Self.isNumberByte) {
      numeric[form.text] = form.name
    }
  }

  /// `data` in base64, standard and URL-safe, with and without padding, and in hex, lower and
  /// upper case; and the base64 characters that spell only `data` when it starts at each of the
  /// three places a byte can take in a base64 group of a longer blob.
  static func binaryToTextForms(_ data: Data) -> [String] {
    let base64 = data.base64EncodedString()
    let unpadded = String(base64.prefix { $0 != "=" })
    let urlSafe = { (text: String) in
      text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }
    let hex = data.map { String(format: "%02x", $0) }.joined()
    let inner = (0..<3).map { innerBase64(of: data, after: $0) }
    var forms: [String] = []
    for form in [base64, unpadded, urlSafe(base64), urlSafe(unpadded), hex, hex.uppercased()]
      + inner + inner.map(urlSafe)
    where !form.isEmpty && !forms.contains(form) {
      forms.append(form)
    }
    return forms
  }

  /// The base64 characters that depend on `data` alone when `data` follows `leading` other
  /// bytes of a longer blob. Each character holds 6 bits: the ones that also hold bits of the
  /// bytes before or after differ from blob to blob and are left out, one at each end at most,
  /// so what a blob keeps of the value is a few bits of its first and last bytes.
  private static func innerBase64(of data: Data, after leading: Int) -> String {
    let encoded = Array(
      (Data(count: leading) + data).base64EncodedString().utf8.prefix { $0 != UInt8(ascii: "=") })
    // Before: the characters whose 6 bits start before `data`; after: a last character that
    // holds fewer than 6 bits of `data`, whose low bits come from the next byte.
    let before = (leading * 8 + 5) / 6
    let after = ((leading + data.count) * 8) % 6 == 0 ? 0 : 1
    guard encoded.count - after > before else { return "" }
    return String(decoding: encoded[before..<(encoded.count - after)], as: UTF8.self)
  }

  /// `text` with the hex digits of its percent escapes in lower case.
  private static func lowerCasedEscapes(_ text: String) -> String {
    guard text.contains("%") else { return text }
    var bytes = Array(text.utf8)
    var index = 0
    while index + 2 < bytes.count {
      if bytes[index] == UInt8(ascii: "%") {
        for digit in index + 1...index + 2 where ASCIIByte.isLetter(bytes[digit]) {
          bytes[digit] |= 0x20
        }
        index += 3
      } else {
        index += 1
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func isNumberByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"),
      UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
      return true
    default:
      return false
    }
  }

  /// Whether any remembered value occurs in `bytes`, found in one pass; replacing one value
  /// at a time searched a 50 MB body once per value, and once per string of a JSON body.
  private func occurs(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    while index < bytes.count {
      if longestNeedle(at: index, in: bytes) != nil { return true }
      index += 1
    }
    return false
  }

  /// The longest needle that starts at `index` of `bytes`.
  private func longestNeedle(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (
    bytes: [UInt8], name: String
  )? {
    byFirstByte[Int(bytes[index])].first { needle in
      needle.bytes.count <= bytes.count - index
        && needle.bytes.withUnsafeBufferPointer {
          memcmp($0.baseAddress!, bytes.baseAddress! + index, $0.count) == 0
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
    let changed = bytes.withUnsafeMutableBufferPointer { buffer -> Bool in
      var changed = false
      var index = 0
      while index < buffer.count {
        guard let needle = longestNeedle(at: index, in: UnsafeBufferPointer(buffer)) else {
          index += 1
          continue
        }
        let filler = Self.filler(for: needle.name, count: needle.bytes.count)
        for offset in 0..<filler.count { buffer[index + offset] = filler[offset] }
        index += filler.count
        changed = true
      }
      return changed
    }
    return changed ? Data(bytes) : nil
  }

  /// The placeholder for `name` as exactly `count` bytes: cut, or padded with `*`.
  static func filler(for name: String, count: Int) -> [UInt8] {
    let placeholder = Array(RedactionPlaceholder.text(name).utf8.prefix(count))
    return placeholder + Array(repeating: UInt8(ascii: "*"), count: count - placeholder.count)
  }

  private func occurs(in text: String) -> Bool {
    var text = text
    return text.withUTF8 { occurs(in: $0) }
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
      guard let space = value.firstIndex(of: " ") else { break }
      let credentials = value[value.index(after: space)...].trimmingCharacters(in: .whitespaces)
      secrets.append(credentials)
      if value[..<space].lowercased() == "basic", let data = Data(base64Encoded: credentials) {
        secrets += parts(ofPair: String(decoding: data, as: UTF8.self))
      }
    }
    return secrets
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
    guard occurs(in: text) else { return text }
    var text = text
    // Literally, as the replacement below searches: the check and the replacement agree.
    for needle in needles where text.range(of: needle.text, options: .literal) != nil {
      let placeholder =
        encoded || needle.isEncoded
        ? RedactionPlaceholder.percentEncoded(needle.name) : RedactionPlaceholder.text(needle.name)
      text = Self.replacing(needle.text, with: placeholder, outsidePlaceholdersOf: text)
    }
    return text
  }

  /// `text` with `needle` replaced everywhere but inside a placeholder. A placeholder is this
  /// library's own text, never a secret; replacing a value that happens to look like part of one
  /// (`acted:password%3` in `%3Credacted:password%3E`) would mangle it into text that a second
  /// redaction reads differently, so redacting a redacted cassette would change it again.
  private static func replacing(
    _ needle: String, with placeholder: String, outsidePlaceholdersOf text: String
  ) -> String {
    let spans = RedactionPlaceholder.spans(in: text)
    guard !spans.isEmpty else {
      return text.replacingOccurrences(of: needle, with: placeholder, options: .literal)
    }
    var result = ""
    var rest = text[...]
    for span in spans {
      result += rest[..<span.lowerBound].replacingOccurrences(
        of: needle, with: placeholder, options: .literal)
      result += text[span]
      rest = text[span.upperBound...]
    }
    result += rest.replacingOccurrences(of: needle, with: placeholder, options: .literal)
    return result
  }

  /// `text` with the values replaced inside its strings (and numbers equal to a value), or
  /// `nil` when it is not a JSON object or array. Read without building the document: only a
  /// string that holds a value is decoded.
  private func replace(inJSON text: String) -> String? {
    guard let first = text.utf8.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }),
      first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    else { return nil }
    var copy = text
    let replacements = copy.withUTF8 { bytes -> [(Range<Int>, String)]? in
      var replacements: [(Range<Int>, String)] = []
      do {
        try JSONNode.walk(bytes) { event in
          switch event {
          case .string(let range, let isPlain):
            let contents: String
            if isPlain {
              let inside = UnsafeBufferPointer(
                rebasing: bytes[(range.lowerBound + 1)..<(range.upperBound - 1)])
              guard occurs(in: inside) else { return }
              contents = String(decoding: inside, as: UTF8.self)
            } else {
              guard let decoded = JSONNode.string(at: range, in: bytes) else { return }
              contents = decoded
            }
            let replaced = replace(inPlain: contents, encoded: false)
            if replaced != contents {
              replacements.append((range, "\"\(Self.jsonEscaped(replaced))\""))
            }
          case .number(let range):
            guard !numeric.isEmpty,
              let name = numeric[String(decoding: bytes[range], as: UTF8.self)]
            else { return }
            replacements.append((range, "\"\(RedactionPlaceholder.text(name))\""))
          case .member:
            break
          }
        }
      } catch {
        return nil
      }
      return replacements
    }
    guard let replacements else { return nil }
    return CompiledRedaction.splice(text, replacements)
  }

  private static let formAllowed: CharacterSet = {
    var allowed = CharacterSet.urlQueryAllowed
    allowed.remove(charactersIn: "&=+;")
    allowed.insert(" ")
    return allowed
  }()

  /// `value` as the inside of a JSON string, without the quotes.
  static func jsonEscaped(_ value: String) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .withoutEscapingSlashes
    let quoted = (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) }
    return quoted.map { String($0.dropFirst().dropLast()) } ?? value
  }
}
