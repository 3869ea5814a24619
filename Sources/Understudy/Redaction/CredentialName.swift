/// Whether a header, parameter or JSON member name says its value is a credential, judged by the
/// words in the name rather than a list of spellings: `X-CSRF-Token`, `x_csrf_token` and
/// `xCsrfToken` are the same name.
enum CredentialName {
  /// Where the name was found; query and form parameters also count OAuth's `code`.
  enum Place {
    case header
    case parameter
    case jsonMember
  }

  /// The name's words, lower-cased: split at `-`, `_`, `.`, spaces and camelCase humps
  /// (`APIKey` gives `api`, `key`).
  static func words(_ name: String) -> [String] {
    var words: [String] = []
    var current = ""
    let characters = Array(name)
    for (index, character) in characters.enumerated() {
      guard character.isLetter || character.isNumber else {
        if !current.isEmpty { words.append(current.lowercased()) }
        current = ""
        continue
      }
      if character.isUppercase, let last = current.last {
        let next = index + 1 < characters.count ? characters[index + 1] : nil
        // `apiKey` splits before `K`; `APIKey` splits before the `K` that starts `Key`.
        if last.isLowercase || last.isNumber || (last.isUppercase && next?.isLowercase == true) {
          words.append(current.lowercased())
          current = ""
        }
      }
      current.append(character)
    }
    if !current.isEmpty { words.append(current.lowercased()) }
    return words
  }

  /// Words that make any name holding them a credential's: `client_secret`, `X-Auth-Token`,
  /// `Set-Cookie`, `db_password`.
  static let credentialWords: Set<String> = [
    "authorization", "cookie", "password", "passwd", "passphrase", "pwd", "secret", "token",
    "apikey", "credential", "credentials", "signature", "csrf", "xsrf", "jwt", "sessionid",
  ]

  /// Words that make a name a credential's when they end it: `X-API-Key`, `private_key`,
  /// `session`, `x-auth`, `sig`.
  static let credentialLastWords: Set<String> = ["key", "auth", "session", "sig", "sid"]

  /// Endings that make a name run together in lower case a credential's: `accesstoken`,
  /// `xapikey`, `clientsecret`.
  static let credentialEndings = [
    "token", "secret", "password", "passwd", "apikey", "accesskey", "secretkey", "privatekey",
    "authorization", "cookie", "signature", "sessionid",
  ]

  /// Whether a value named `name` at `place` is a credential.
  static func isCredential(_ name: String, at place: Place) -> Bool {
    let words = words(name)
    guard let last = words.last else { return false }
    if words.contains(where: credentialWords.contains) || credentialLastWords.contains(last) {
      return true
    }
    let joined = words.joined()
    if credentialEndings.contains(where: joined.hasSuffix) { return true }
    // OAuth's authorization code is a one-time credential, but `code` is an everyday JSON
    // member and header word.
    return place == .parameter && joined == "code"
  }
}
