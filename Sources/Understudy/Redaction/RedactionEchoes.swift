/// The values redaction has removed so far, searched for everywhere else: a server that echoes
/// a request back (a cookie in a JSON body, an API key in a header, a password inside a JSON
/// string, credentials in a redirect) must not get them written where no rule looks.
///
/// Each value is searched for as written and in the forms it takes elsewhere: percent-encoded
/// (in URLs and form bodies), form-encoded, and escaped inside a JSON string. Values shorter
/// than ``Redaction/minimumEchoLength`` are not searched for: replacing every `12345` or
/// `admin` in a cassette would mangle it.
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

  var isEmpty: Bool { needles.isEmpty }

  /// Remembers `value`, removed by the rule named `name`.
  mutating func remember(_ value: String, as name: String) {
    guard value.count >= Redaction.minimumEchoLength, !RedactionPlaceholder.isPresent(in: value),
      known.insert(value).inserted
    else { return }
    var forms = [Needle(text: value, name: name, isEncoded: false)]
    for encoded in [
      RedactionPlaceholder.percentEncode(value),
      value.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? value,
      (value.addingPercentEncoding(withAllowedCharacters: Self.formAllowed) ?? value)
        .replacingOccurrences(of: "%20", with: "+"),
    ] where encoded != value {
      forms.append(Needle(text: encoded, name: name, isEncoded: true))
    }
    let escaped = Self.jsonEscaped(value)
    for escapedForm in [escaped, escaped.replacingOccurrences(of: "/", with: "\\/")]
    where escapedForm != value {
      forms.append(Needle(text: escapedForm, name: name, isEncoded: false))
    }
    for form in forms where !needles.contains(where: { $0.text == form.text }) {
      needles.append(form)
    }
    needles.sort { $0.text.utf8.count > $1.text.utf8.count }
  }

  /// Remembers a credential header's value and the secrets inside it: the credentials after an
  /// `Authorization` scheme (and a Basic pair decoded), and each cookie's value.
  mutating func remember(headerValue value: String, named header: String, as name: String) {
    remember(value, as: name)
    switch header.lowercased() {
    case "cookie":
      for pair in value.split(separator: ";") {
        remember(cookieValue: pair, as: name)
      }
    case "set-cookie":
      if let pair = value.split(separator: ";").first { remember(cookieValue: pair, as: name) }
    default:
      guard let space = value.firstIndex(of: " ") else { return }
      let credentials = value[value.index(after: space)...].trimmingCharacters(in: .whitespaces)
      remember(credentials, as: name)
      if value[..<space].lowercased() == "basic", let data = Data(base64Encoded: credentials) {
        remember(pair: String(decoding: data, as: UTF8.self), as: name)
      }
    }
  }

  /// Remembers URL userinfo as written and decoded, whole and its user and password apart,
  /// and as the Basic credentials a client sends for it (which a server may echo).
  mutating func remember(userinfo: String) {
    let decoded = userinfo.removingPercentEncoding ?? userinfo
    remember(userinfo, as: "userinfo")
    remember(pair: decoded, as: "userinfo")
    remember(Data(decoded.utf8).base64EncodedString(), as: "userinfo")
  }

  /// Remembers a JSON value a rule selected, when it is a string or a number.
  mutating func remember(_ node: JSONNode, as name: String) {
    switch node.value {
    case .string(let text): remember(memberValue: text, as: name)
    case .number(let text): remember(memberValue: text, as: name)
    default: break
    }
  }

  /// Remembers the value of a JSON member or XML element a name pattern selected, unless it is
  /// a few plain words: patterns such as `*password*` also select `"passwordStrength":
  /// "medium"`, and every later `medium` must not become a placeholder.
  mutating func remember(memberValue value: String, as name: String) {
    let isWords =
      value.count <= 16 && value.allSatisfy { $0.isLetter || $0 == " " || $0 == "-" || $0 == "_" }
    if !isWords { remember(value, as: name) }
  }

  private mutating func remember(cookieValue pair: Substring, as name: String) {
    guard let equals = pair.firstIndex(of: "=") else { return }
    remember(
      String(pair[pair.index(after: equals)...]).trimmingCharacters(in: .whitespaces), as: name)
  }

  /// `user:password`, whole and in its two parts.
  private mutating func remember(pair: String, as name: String) {
    remember(pair, as: name)
    guard let colon = pair.firstIndex(of: ":") else { return }
    remember(String(pair[..<colon]), as: name)
    remember(String(pair[pair.index(after: colon)...]), as: name)
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
      if let document = JSONNode.container(in: text) {
        return replace(inStringsOf: document, text: text)
      }
      inURL = FormBody.isForm(text, mimeType: mimeType)
    case .cookie, .queryParameter, .formParameter, .text:
      break
    }
    return replace(inPlain: text, encoded: inURL)
  }

  private func replace(inPlain text: String, encoded: Bool) -> String {
    var text = text
    for needle in needles where text.contains(needle.text) {
      let placeholder =
        encoded || needle.isEncoded
        ? RedactionPlaceholder.percentEncoded(needle.name) : RedactionPlaceholder.text(needle.name)
      text = text.replacingOccurrences(of: needle.text, with: placeholder, options: .literal)
    }
    return text
  }

  private func replace(inStringsOf document: JSONNode, text: String) -> String {
    var replacements: [(Range<Int>, String)] = []
    document.visitScalars { node in
      switch node.value {
      case .string(let contents):
        let replaced = replace(inPlain: contents, encoded: false)
        if replaced != contents {
          replacements.append((node.range, "\"\(Self.jsonEscaped(replaced))\""))
        }
      case .number(let number):
        if let needle = needles.first(where: { $0.text == number }) {
          replacements.append((node.range, "\"\(RedactionPlaceholder.text(needle.name))\""))
        }
      default:
        break
      }
    }
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
