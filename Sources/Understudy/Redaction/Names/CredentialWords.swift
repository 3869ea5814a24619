/// Whether a header, parameter or member name reads as a credential's, judged by its words.
///
/// A name is split into words at case changes (`apiKey`, `XMLHttpToken`), digits, and every
/// character that is not a letter or a digit (`access_token`, `x-api-key`, `connect.sid`), then
/// judged by its last word, the one a compound name is about: `password_reset_token` holds a
/// token, `token_type` a type, `passwordStrength` a strength. Words that only say how a value is
/// spelled or which copy it is come off the end first (`password_confirmation`, `tokenHash`,
/// `secret_b64`), and so do numbers (`X-Hub-Signature-256`). Words run together are read by
/// their ending (`accesstoken`, `csrfmiddlewaretoken`, `jsessionid`), with the ordinary words
/// that merely end the same way listed (`compass`, `obsession`), checked over a dictionary.
///
/// This is the one judgement every output makes: redaction (``Redaction/default``), the
/// credential scan's neighbouring-name rules, log masking, the CLI and the tables in the guides,
/// which `.ci/credential-words.py` writes from the lists below (keep each list a plain literal
/// of strings, one word each, so that script can read it).
enum CredentialWords {
  /// Last words that make a name a credential's wherever it is found. Not `cookies`, which is
  /// HAR's own member for the cookie list (its values are redacted as cookies), nor `tokens`
  /// and `keys`, which count or list (`max_tokens`, a JWKS's `keys`): a plural is judged by the
  /// word before it (``pluralHeads``).
  static let heads: Set<String> = [
    "password", "passwords", "passwd", "passphrase", "passcode", "pwd", "pw", "pass",
    "secret", "secrets", "token", "credential", "credentials", "creds", "cred", "auth",
    "authorization", "authentication", "session", "sid", "sessid", "csrf", "xsrf", "cookie",
    "signature", "sig", "hmac", "cert", "certificate", "dsn", "otp", "totp", "hotp",
    "pin", "jwt", "bearer", "assertion", "apikey", "sas",
    // Signing and other credentials of APIs and tools (the eleventh attack): exchanges' and
    // payment APIs' `sign` (`X-BAPI-SIGN`, `?sign=`), a passkey, a personal access token
    // (`X-PAT`), Jenkins' crumb, a macaroon, a seed, Hawk's bewit, an OAuth or PKCE verifier,
    // a card's security code, a wallet's mnemonic, and short spellings of the password.
    "sign", "passkey", "pat", "crumb", "macaroon", "seed", "bewit", "verifier", "cvv", "cvc",
    "mnemonic", "psw", "pswd", "passw", "pword",
    // A private key run together (`privkey`, OpenSSL's and Bitcoin's), and a Wi-Fi network's
    // pre-shared key (wpa_supplicant's `psk=`, the fourteenth attack).
    "privkey", "psk",
    // The password in other languages: German, Spanish, Portuguese, Dutch, Polish, Swedish,
    // Finnish, Turkish, Czech, Hungarian, Russian, Japanese, Chinese, Korean.
    "passwort", "kennwort", "contrasena", "contraseña", "senha", "wachtwoord", "haslo", "hasło",
    "losenord", "lösenord", "salasana", "sifre", "şifre", "heslo", "jelszo", "jelszó", "пароль",
    "パスワード", "密码", "密碼", "비밀번호",
    // More languages: Spanish' key (Latin America's password), Norwegian, Danish, Croatian and
    // Serbian, Italian and Romanian, Slovenian, Hindi, Greek, Hebrew; the token in Russian,
    // Chinese and Korean; the secret key in Chinese.
    "clave", "passord", "adgangskode", "lozinka", "parola", "geslo", "पासवर्ड", "κωδικός",
    "סיסמה", "токен", "令牌", "토큰", "密钥", "密鑰",
  ]

  /// Endings that make a word run together from several a credential's (`accesstoken`,
  /// `dbpass`, `phpsessid`, `oauth`), unless it is one of ``ordinaryWords``.
  static let runTogetherEndings: [String] = [
    "token", "secret", "password", "passwd", "passphrase", "pwd", "pass", "session",
    "sessionid", "sessid", "sid", "auth", "cookie", "signature", "credential", "credentials",
    "apikey", "jwt", "csrf", "xsrf",
    // Scripts that write no space between words: `用户密码` is a user's password.
    "密码", "密碼", "パスワード", "비밀번호",
  ]

  /// Words that end like a credential's name but are not one: read as words, alone or ending
  /// words run together (`wifissid`), not matched as substrings.
  static let ordinaryWords: Set<String> = [
    "betoken", "bypass", "compass", "encompass", "overpass", "surpass", "trespass", "underpass",
    "dispossession", "obsession", "possession", "repossession", "intersession", "abbasid",
    // A Wi-Fi network's name (`ssid`, `bssid`, `essid`), no session id.
    "ssid",
    // Plurals of a credential word that are everyday words: a road's signs, a boarding pass's
    // passes, a seed list's hosts, pats on the back.
    "signs", "passes", "seeds", "pats", "impasses",
  ]

  /// Trailing words that say how a value is spelled or which copy it is, taken off before the
  /// last word is judged: `password_confirmation`, `newPassword`'s twin `password_new`,
  /// `tokenHash`, `secret_b64`, `cookieValue`.
  static let spellingWords: Set<String> = [
    "value", "val", "hash", "hashed", "digest", "b64", "base64", "hex", "raw", "str", "string",
    "enc", "encoded", "encrypted", "plain", "plaintext", "text", "data", "bytes", "pem", "der",
    "confirmation", "confirm", "confirmed", "new", "old", "current", "again", "repeat", "verify",
    "verification", "input", "field", "param", "v", "b",
    // gRPC's binary metadata (`x-auth-token-bin`).
    "bin",
  ]

  /// Words before a last word `key` that make it an everyday key: a key that orders, indexes,
  /// deduplicates or names something (`ParameterKey` names a parameter), or a public one. Any
  /// other `…Key` is a credential's (`apiKey`, `AccountKey`, `x-api-key`, `secret_key`,
  /// `signingKey`).
  static let ordinaryKeys: Set<String> = [
    "sort", "partition", "primary", "foreign", "cache", "idempotency", "routing", "object",
    "map", "hot", "shortcut", "dedup", "dedupe", "deduplication", "lookup", "range", "row",
    "composite", "unique", "index", "group", "message", "translation", "locale", "label",
    "column", "field", "attribute", "metadata", "dictionary", "registry", "bucket", "s3", "file",
    "path", "public", "socket", "websocket", "hash", "sharding", "shard", "cursor", "pagination",
    "page", "natural", "surrogate", "compound", "search", "sorting", "ordering",
    "order", "entity", "resource", "item", "record", "node", "property", "setting", "config",
    "option", "preference", "i18n", "l10n", "storage", "blob", "image", "asset", "media",
    "parameter", "variable",
  ]

  /// Words before `key` that make a word run together with it a credential's (`apikey`,
  /// `accesskey`, `secretkey`); `monkey` and `turkey` are not.
  static let keyPrefixes: [String] = [
    "api", "access", "secret", "private", "account", "master", "signing", "encryption",
    "client", "subscription", "functions", "function", "host", "ssh", "license", "app", "auth",
    "session", "shared", "service", "admin", "root", "crypto", "aes", "enc", "sign", "gpg",
    "pgp", "rsa", "ecdsa", "consumer", "webhook", "storage", "sas", "primary", "secondary",
  ]

  /// Words before a last word `code` that make it a one-time credential (`auth_code`,
  /// `mfaCode`, OAuth's `device_code`); `error_code` and `zip_code` are not.
  static let codeQualifiers: Set<String> = [
    "auth", "authorization", "oauth", "otp", "mfa", "totp", "hotp", "verification", "verify",
    "security", "reset", "recovery", "backup", "sms", "login", "device", "user", "activation",
    "access", "confirmation", "magic", "signin", "signup", "twofactor", "factor", "pass", "pin",
  ]

  /// Plurals of the last words judged by the word before them, and their singulars.
  static let pluralHeads: [String: String] = [
    "keys": "key", "tokens": "token", "cookies": "cookie", "codes": "code",
  ]

  /// Words before a plural that make it a count, not a list of credentials: a language model's
  /// usage (`max_tokens`, `prompt_tokens`, `cached_tokens`), a quota (`remaining_tokens`).
  static let countingWords: Set<String> = [
    "max", "min", "total", "prompt", "completion", "input", "output", "cached", "cache",
    "reasoning", "num", "number", "count", "remaining", "used", "limit", "generated", "audio",
    "image", "text", "accepted", "rejected", "available", "estimated", "billed",
  ]

  /// Names of a framework's or a vendor's credential whose last word is no credential word,
  /// its words run together: Rails' `secret_key_base`, SAML's `SAMLResponse`, a connection
  /// string (which holds Azure's `AccountKey=`).
  static let frameworkNames: Set<String> = [
    "secretkeybase", "samlresponse", "samlrequest", "clientassertion", "connectionstring",
    "motdepasse", "samlart", "requestdigest", "idtokenhint",
    // Passwords named in two words: Vietnamese, Indonesian and Malay, Arabic.
    "matkhau", "katasandi", "كلمةالمرور",
  ]

  /// Whether a value named `name` at `place` is a credential.
  ///
  /// Two names are judged by where they stand: a name that is only `key` or `code` is a
  /// credential as a query or form parameter (Google's `?key=`, OAuth's `?code=`) and not as a
  /// header, a JSON member or an XML element, where `{"key": "sort-order"}` and
  /// `{"code": "E_NOT_FOUND"}` are everyday. A name whose words, run together, are a
  /// credential's is one too: a form's `pass+word` reads as `pass word`.
  static func isCredential(_ name: String, at place: CredentialName.Place) -> Bool {
    if let known = verdicts.withLock({ $0[name] }) { return known[place.rawValue] }
    let judged = [CredentialName.Place.header, .parameter, .jsonMember].map {
      judge(name, at: $0)
    }
    verdicts.withLock { verdicts in
      // Names come from traffic, so the memo is bounded; a test meets a few hundred.
      if verdicts.count >= 8192 { verdicts.removeAll(keepingCapacity: true) }
      verdicts[name] = judged
    }
    return judged[place.rawValue]
  }

  /// Each name's verdicts by place, shared by every redaction and report: a cassette repeats
  /// its header names in every entry, and splitting a name into words costs more than a lookup.
  private static let verdicts = Locked<[String: [Bool]]>([:])

  private static func judge(_ name: String, at place: CredentialName.Place) -> Bool {
    if judgeWords(name, at: place) { return true }
    // A last word glued to its number names an algorithm or a version, not what the value is
    // (`X-Signature-Ed25519`, `token_sha256`, `apiKeyV2`): the name is judged without it.
    if let untagged = withoutTrailingTag(name), judgeWords(untagged, at: place) { return true }
    // A short qualifier that starts with its number says which kind, not what the value is
    // (`X-Token-2FA`, `pin_3ds`, `secret2fa`): the name is judged without it too.
    guard let unqualified = withoutTrailingNumberedWord(name) else { return false }
    return judgeWords(unqualified, at: place)
  }

  /// `name` without a last word of digits followed by at most three letters (`2FA`, `3ds`),
  /// when a letter or a separator stands before it; `nil` when it has none.
  static func withoutTrailingNumberedWord(_ name: String) -> String? {
    let scalars = Array(name.unicodeScalars)
    var start = scalars.count
    while start > 0, scalars[start - 1].isASCII, scalars[start - 1].properties.isAlphabetic {
      start -= 1
    }
    guard scalars.count - start >= 1, scalars.count - start <= 3 else { return nil }
    let letters = start
    while start > 0, ("0"..."9").contains(scalars[start - 1]) { start -= 1 }
    // After a letter or a separator between words: `%3E` is a percent-encoded `>`.
    guard start < letters, start > 0,
      scalars[start - 1].properties.isAlphabetic
        || "-_. ".unicodeScalars.contains(scalars[start - 1])
    else { return nil }
    var kept = String.UnicodeScalarView()
    kept.append(contentsOf: scalars[..<start])
    return String(kept)
  }

  /// `name` without a last word of at most six letters glued to the digits that end it, when a
  /// separator or a case change sets that word apart; `nil` when it has none.
  static func withoutTrailingTag(_ name: String) -> String? {
    let scalars = Array(name.unicodeScalars)
    var end = scalars.count
    while end > 0, ("0"..."9").contains(scalars[end - 1]) { end -= 1 }
    guard end < scalars.count else { return nil }
    var start = end
    // Back over the letters of the last word only: a capital after a small letter starts one
    // (`tokenRS256` ends in `RS`, `apiKeyHS256` in `HS`).
    while start > 0, scalars[start - 1].isASCII, scalars[start - 1].properties.isAlphabetic {
      start -= 1
      if start > 0, scalars[start].properties.isUppercase,
        scalars[start - 1].properties.isLowercase
      {
        break
      }
    }
    guard end - start >= 1, end - start <= 6, start > 0 else { return nil }
    let before = scalars[start - 1]
    let first = scalars[start]
    let setApart =
      !before.properties.isAlphabetic && !("0"..."9").contains(before)
      || before.properties.isLowercase && first.properties.isUppercase
    guard setApart else { return nil }
    var kept = String.UnicodeScalarView()
    kept.append(contentsOf: scalars[..<start])
    return String(kept)
  }

  private static func judgeWords(_ name: String, at place: CredentialName.Place) -> Bool {
    if judgeByWords(words(of: name), at: place) { return true }
    guard !name.utf8.allSatisfy({ $0 < 0x80 }), let latin = latinWords(of: name) else {
      return false
    }
    return judgeByWords(latin, at: place)
  }

  /// The words of a name written in another script than the lists spell its word in, read in
  /// Latin letters: Serbian `лозинка` is `lozinka`, Bulgarian `парола` is `parola`. What is
  /// left that is not ASCII (the soft sign's `ʹ`) parts words. `nil` when nothing changes.
  private static func latinWords(of name: String) -> [String]? {
    let folded = withoutMarks(name.precomposedStringWithCompatibilityMapping)
    guard let latin = folded.applyingTransform(.toLatin, reverse: false).map(withoutMarks),
      latin != folded
    else { return nil }
    return words(of: String(latin.unicodeScalars.map { $0.isASCII ? Character($0) : " " }))
  }

  private static func judgeByWords(_ words: [String], at place: CredentialName.Place) -> Bool {
    guard !words.isEmpty else { return false }
    if foldedFrameworkNames.contains(words.joined()) { return true }
    if words.count == 1, words[0] == "key" || words[0] == "code" {
      return place == .parameter
    }
    let joined = words.joined()
    // A framework's name may be prefixed too (`X-Secret-Key-Base`, `my_secret_key_base`), and
    // followed by a word that says how it is spelled (`my_secret_key_base_value`), as any name.
    var named = words[...]
    while named.count > 1, let last = named.last, spellingWords.contains(last) {
      named = named.dropLast()
    }
    let framed = named.joined()
    // Whole, too: a framework's name may end in a spelling word (`X-RequestDigest`).
    if foldedFrameworkNames.contains(where: { framed.hasSuffix($0) || joined.hasSuffix($0) }) {
      return true
    }
    return judge(words, at: place)
      || words.count > 1 && (foldedHeads.contains(joined) || readsRunTogether(joined))
  }

  private static func judge(_ words: [String], at place: CredentialName.Place) -> Bool {
    var kept = words[...]
    while kept.count > 1, let last = kept.last, spellingWords.contains(last) {
      kept = kept.dropLast()
    }
    guard let head = kept.last else { return false }
    let before = kept.count > 1 ? kept[kept.index(before: kept.endIndex - 1)] : nil
    // A plural with a word before it lists what its singular names (`apiKeys`,
    // `refresh_tokens`, `sessionCookies`, `otp_codes`), unless that word counts (`max_tokens`);
    // alone it counts or lists names (a JWKS's `keys`, HAR's own `cookies`).
    if let singular = pluralHeads[head], let before {
      guard !countingWords.contains(before) else { return false }
      return judge(Array(kept.dropLast()) + [singular], at: place)
    }
    switch head {
    case "key":
      return before.map { !ordinaryKeys.contains($0) } ?? (place == .parameter)
    case "code":
      return before.map { codeQualifiers.contains($0) } ?? (place == .parameter)
    case "id":
      // `session_id`, `SessionId`: a session's id is its credential; a key's or a token's
      // id names it.
      return before == "session" || before == "sess"
    default:
      return foldedHeads.contains(head) || readsRunTogether(head) || isPluralOfCredential(head)
    }
  }

  /// Whether `word` is the plural of a credential word or of words run together ending in one
  /// (`signatures`, `passphrases`, `jwts`, `pins`, `accesstokens`): a list of them. Not the
  /// plurals judged by the word before them (``pluralHeads``), nor an everyday word
  /// (``ordinaryWords``: `signs`, `passes`).
  static func isPluralOfCredential(_ word: String) -> Bool {
    guard word.hasSuffix("s"), !word.hasSuffix("ss"), pluralHeads[word] == nil,
      !ordinaryWords.contains(word)
    else {
      return false
    }
    var singulars = [String(word.dropLast())]
    // `passes`, `hashes`: `es` after a hissing sound.
    if ["ses", "xes", "ches", "shes"].contains(where: { word.hasSuffix($0) }) {
      singulars.append(String(word.dropLast(2)))
    }
    return singulars.contains { singular in
      singular.count >= 2 && pluralHeads[singular + "s"] == nil
        && (foldedHeads.contains(singular) || readsRunTogether(singular))
    }
  }

  /// Whether one word is several run together, the last a credential's (`accesstoken`,
  /// `apikey`, `authcode`).
  static func readsRunTogether(_ word: String) -> Bool {
    guard !ordinaryWords.contains(word) else { return false }
    // A spelling word run on too (Wowza's `wowzatokenhash`, `pwdhash`), as it comes off a
    // name's end.
    for spelling in ["hash", "value", "digest"]
    where word.count >= spelling.count + 3 && word.hasSuffix(spelling)
      && readsRunTogether(String(word.dropLast(spelling.count)))
    {
      return true
    }
    // The longest word it ends with is its last: an everyday word longer than the credential's
    // ending inside it (`ssid` over `sid`, `compass` over `pass`) is the word, while a longer
    // credential's ending (`phpsessid`'s `sessid`) is the credential's.
    if let ending = foldedRunTogetherEndings.filter({ word.hasSuffix($0) }).max(by: {
      $0.count < $1.count
    }) {
      return !ordinaryWords.contains { $0.count > ending.count && word.hasSuffix($0) }
    }
    for (ending, prefixes) in [("key", keyPrefixes), ("code", Array(codeQualifiers))]
    where word.hasSuffix(ending) {
      let prefix = word.dropLast(ending.count)
      if prefixes.contains(where: { prefix == $0 || prefix.hasSuffix($0) && prefix.count > 0 }) {
        return true
      }
    }
    return false
  }

  /// ``heads``, ``runTogetherEndings`` and ``frameworkNames`` as names' words are compared with
  /// them: without their marks (``withoutMarks(_:)``).
  private static let foldedHeads = Set(heads.map(withoutMarks))
  private static let foldedRunTogetherEndings = runTogetherEndings.map(withoutMarks)
  private static let foldedFrameworkNames = Set(frameworkNames.map(withoutMarks))

  /// `word` without its diacritics, so a word is one with and without its marks: Romanian
  /// `parolă` is `parola`, `contraseña` is `contrasena`, `ŞİFRE` is `SIFRE`. Letters that are
  /// not a letter and a mark (Polish `ł`) are kept, so the lists spell both where they differ.
  static func withoutMarks(_ word: String) -> String {
    guard !word.utf8.allSatisfy({ $0 < 0x80 }) else { return word }
    var kept = String.UnicodeScalarView()
    for scalar in word.decomposedStringWithCanonicalMapping.unicodeScalars
    where scalar.properties.generalCategory != .nonspacingMark {
      kept.append(scalar)
    }
    return String(kept).precomposedStringWithCanonicalMapping
  }

  /// `name`'s words, lower-cased, numbers left out: `X-API-Key` is `x`, `api`, `key`;
  /// `XMLHttpRequest` is `xml`, `http`, `request`; `oauth2_token` is `oauth`, `token`.
  static func words(of name: String) -> [String] {
    // Names are nearly always ASCII; a name that is not is read by its characters.
    guard name.utf8.allSatisfy({ $0 < 0x80 }) else {
      // Compatibility forms are the letters they stand for: full-width `ｐａｓｓｗｏｒｄ` is
      // `password`, and is then read as ASCII.
      let folded = withoutMarks(name.precomposedStringWithCompatibilityMapping)
      return folded.utf8.allSatisfy({ $0 < 0x80 })
        ? words(of: folded) : Self.words(ofCharacters: folded)
    }
    var words: [String] = []
    var current: [UInt8] = []
    let bytes = Array(name.utf8)
    func flush() {
      if !current.isEmpty, !current.allSatisfy(ASCIIByte.isDigit) {
        words.append(String(decoding: current.map(ASCIIByte.lowercased), as: UTF8.self))
      }
      current.removeAll(keepingCapacity: true)
    }
    var previous: UInt8? = nil
    for (index, byte) in bytes.enumerated() {
      guard ASCIIByte.isLetter(byte) || ASCIIByte.isDigit(byte) else {
        flush()
        previous = nil
        continue
      }
      if let previous {
        let next = index + 1 < bytes.count ? bytes[index + 1] : nil
        let startsWord =
          // camelCase: `apiKey`.
          (ASCIIByte.isLower(previous) && ASCIIByte.isUpper(byte))
          // An upper-case run before a capitalised word: `XMLHttp`, `CSRFToken`.
          || (ASCIIByte.isUpper(previous) && ASCIIByte.isUpper(byte)
            && next.map(ASCIIByte.isLower) == true)
          // Letters beside digits: `oauth2`, `sha256sig`.
          || (ASCIIByte.isDigit(previous) != ASCIIByte.isDigit(byte))
        if startsWord { flush() }
      }
      current.append(byte)
      previous = byte
    }
    flush()
    return words
  }

  /// ``words(of:)`` for a name with letters beyond ASCII, read as characters.
  private static func words(ofCharacters name: String) -> [String] {
    var words: [String] = []
    var current = ""
    var previous: Character? = nil
    let characters = Array(name)
    func flush() {
      // Turkish `İ` lower-cases to `i` and a combining dot: `ŞİFRE` is `şifre`.
      if !current.isEmpty, !current.allSatisfy(\.isNumber) {
        words.append(current.lowercased().replacingOccurrences(of: "\u{307}", with: ""))
      }
      current = ""
    }
    for (index, character) in characters.enumerated() {
      guard character.isLetter || character.isNumber else {
        flush()
        previous = nil
        continue
      }
      if let previous {
        let next = index + 1 < characters.count ? characters[index + 1] : nil
        let startsWord =
          (previous.isLowercase && character.isUppercase)
          || (previous.isUppercase && character.isUppercase && next?.isLowercase == true)
          || (previous.isNumber != character.isNumber)
        if startsWord { flush() }
      }
      current.append(character)
      previous = character
    }
    flush()
    return words
  }
}
