import Foundation
import Testing

@testable import Understudy

/// Names are judged by their words, one judgement for redaction and for masking.
@Suite struct CredentialWordsTests {
  @Test(arguments: [
    ("X-API-Key", ["x", "api", "key"]), ("apiKey", ["api", "key"]),
    ("XMLHttpRequest", ["xml", "http", "request"]), ("X-CSRFToken", ["x", "csrf", "token"]),
    ("oauth2_token", ["oauth", "token"]), ("connect.sid", ["connect", "sid"]),
    ("ASP.NET_SessionId", ["asp", "net", "session", "id"]),
    ("X-Hub-Signature-256", ["x", "hub", "signature"]),
    ("SECRET_KEY_BASE", ["secret", "key", "base"]),
    ("PHPSESSID", ["phpsessid"]), ("kennwort", ["kennwort"]), ("-", []),
  ])
  func namesSplitIntoWords(name: String, words: [String]) {
    #expect(CredentialWords.words(of: name) == words)
  }

  /// Names the held-out attack found written (issue 40), the words it lists, and framework
  /// names, in several spellings: each is a credential's in a header, a parameter and a member.
  static let credentialNames = [
    "pwd", "pass", "Password", "passwd", "passphrase", "passcode", "secret", "token", "auth",
    "credential", "credentials", "session", "sid", "csrf", "xsrf", "cookie", "signature", "sig",
    "cert", "dsn", "otp", "pin", "jwt", "secret_key_base", "SECRET_KEY_BASE", "AccountKey",
    "SharedAccessSignature", "SharedAccessKey", "X-Client-Pwd", "x-api-key", "apiKey", "api_key",
    "APIKEY", "AccessKey", "accesskey", "privateKey", "private_key", "signingKey", "connect.sid",
    "PHPSESSID", "JSESSIONID", "ASP.NET_SessionId", "session_id", "sessionId", "SESSION-ID",
    "laravel_session", "_gitlab_session", "csrfmiddlewaretoken", "authenticity_token",
    "X-CSRFToken", "X-XSRF-TOKEN", "X-Amz-Security-Token", "X-Amz-Signature", "X-Amz-Credential",
    "X-Hub-Signature-256", "Stripe-Signature", "password_confirmation", "newPassword",
    "password_hash", "tokenHash", "secret_b64", "db_pass", "dbpass", "DB_PASSWORD", "mysql_pwd",
    "SENTRY_DSN", "otp_code", "mfaCode", "authorization_code", "device_code", "card_pin",
    "client_secret", "ClientSecret", "refresh_token", "id_token", "oauth", "basicAuth",
    "Authorization", "Proxy-Authorization", "Authentication", "Set-Cookie", "Cookie2",
    "SAMLResponse", "client_assertion", "ConnectionString", "ssl_cert",
    "client_certificate", "webhook_secret", "Ocp-Apim-Subscription-Key", "X-Functions-Key",
    "X-Vault-Token", "PRIVATE-TOKEN", "bearer", "hmac", "key_secret", "secrets",
    // The guide's table's examples.
    "password_reset_token", "secret_key", "auth_code", "cookieValue", "ACCESSKEY", "secretkey",
    "accesstoken",
    // A last word glued to its number (an algorithm, a version) is left out when judged.
    "X-Signature-Ed25519", "token_sha256", "apiKeyV2", "secret-rsa4096", "tokenRS256",
    "apiKeyHS256", "passwordSHA1", "signatureRSA2048", "ŞİFRE", "SİFRE",
    // Shared access signatures and other languages' passwords (the second attack, issue 40).
    "SAS", "sas", "passwort", "Kennwort", "mot_de_passe", "motDePasse", "contrasena",
    "contraseña", "senha", "wachtwoord", "hasło", "пароль", "パスワード", "user_密码",
    // A plural after a word that qualifies it lists credentials (the fourth attack).
    "apiKeys", "refresh_tokens", "sessionCookies", "otp_codes", "ACCESS_TOKENS", "signingKeys",
    // Full-width letters, and a compound in a script that writes no spaces.
    "ｐａｓｓｗｏｒｄ", "ＡＰＩ＿ＫＥＹ", "用户密码", "ユーザーパスワード", "사용자비밀번호",
    // The eleventh attack's names: signing and other APIs' and tools' credentials, short
    // spellings of the password, and more languages.
    "X-BAPI-SIGN", "OK-ACCESS-SIGN", "KC-API-SIGN", "Sign", "sign", "X-Api-Passkey", "passkey",
    "X-PAT", "github_pat", "X-Jenkins-Crumb", "Jenkins-Crumb", "X-RequestDigest",
    "Grpc-Metadata-macaroon", "X-Otp-Seed", "totp_seed", "X-Hawk-Bewit", "bewit", "SAMLart",
    "oauth_verifier", "code_verifier", "id_token_hint", "psw", "pswd", "passw", "pword", "cvv",
    "card_cvc", "mnemonic", "clave", "токен", "密钥", "令牌", "토큰", "mat_khau", "kata_sandi",
    "كلمة_المرور", "पासवर्ड", "κωδικός", "סיסמה", "passord", "adgangskode", "lozinka", "parola",
    "geslo",
    // The twelfth attack's: gRPC binary metadata, a spelling word run on.
    "X-Auth-Token-Bin", "grpc-session-bin", "wowzatokenhash", "accesstokenvalue",
    // The fourteenth attack's: a word the lists spell in Latin letters, written in Cyrillic
    // (Serbian and Macedonian, Bulgarian), and two more credentials' words.
    "лозинка", "ЛОЗИНКА", "db_лозинка", "ЛозинкаБазе_лозинка", "парола", "корисничка_лозинка",
    "privkey", "wallet_privkey", "psk", "wpa_psk",
  ]

  @Test(arguments: credentialNames)
  func credentialNamesAreCredentialsEverywhere(name: String) {
    for place in [CredentialName.Place.header, .parameter, .jsonMember] {
      #expect(CredentialWords.isCredential(name, at: place), "\(name) at \(place)")
    }
  }

  /// Names that hold a credential word without being about one, and words that merely contain
  /// one: read as words, they are kept.
  static let everydayNames = [
    "keyboard", "sidebar", "passenger", "monkey", "passage", "compass", "bypass", "tokenizer",
    "token_type", "tokenType", "tokens", "max_tokens", "total_tokens", "passwordStrength",
    "password_reset_required", "session_timeout", "sessionState", "cookie_consent",
    "auth_type", "authMethod", "author", "authority", "WWW-Authenticate", "Sec-WebSocket-Key",
    "Idempotency-Key", "sort_key", "partitionKey", "cache-key", "public_key", "keys", "key_id",
    "KeyId", "token_id", "secret_name", "SharedAccessKeyName", "error_code", "zip_code",
    "status_code", "countryCode", "private", "spin", "hairpin", "possession", "concert", "sigma",
    "signal", "design", "Accept", "Content-Type", "X-Request-Id", "User-Agent", "expires_in",
    "passed", "password_policy", "turkey", "hockey", "unicode", "postcode", "otpEnabled",
    "sha256", "X-Trace-V2", "codec_h264", "charset_utf8", "checksum_md5", "Ed25519",
    "prompt_tokens", "completion_tokens", "cached_tokens", "primaryKeys", "sortKeys",
    "error_codes", "cookies", "codes", "status_codes", "remainingTokens",
    // Other scripts' everyday names, read in Latin letters too: a user's name, a login, a
    // description, a signal, a katakana sign-in (`sain`), a pinned message.
    "имя_пользователя", "логин", "описание", "сигнал", "サイン", "закреплённое_сообщение",
  ]

  @Test(arguments: everydayNames)
  func everydayNamesAreKeptEverywhere(name: String) {
    for place in [CredentialName.Place.header, .parameter, .jsonMember] {
      #expect(!CredentialWords.isCredential(name, at: place), "\(name) at \(place)")
    }
  }

  /// Google's `?key=` and OAuth's `?code=` are credentials; `{"key": …}` and `{"code": …}` are
  /// everyday JSON.
  @Test func keyAndCodeAloneAreCredentialsAsParametersOnly() {
    for name in ["key", "Key", "code", "CODE"] {
      #expect(CredentialWords.isCredential(name, at: .parameter))
      #expect(!CredentialWords.isCredential(name, at: .header))
      #expect(!CredentialWords.isCredential(name, at: .jsonMember))
    }
  }

  /// A traffic attachment is a HAR document masked as text: none of HAR's own member names may
  /// read as a credential's, or its structure (`"cookies" : [ ]`) would be masked.
  @Test func noMemberNameOfHARReadsAsACredential() throws {
    let entry = HAR.Entry.sample(
      url: "https://api.test/a?b=c", requestHeaders: [HAR.Header(name: "A", value: "b")],
      postData: HAR.PostData(mimeType: "text/plain", text: "x"))
    let text = try HAR(entries: [entry]).encodedText
    let names = Set(
      text.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map {
        String($0.element)
      }
    ).filter { $0.allSatisfy { $0.isLetter } }
    #expect(names.contains("cookies") && names.contains("postData"))
    for name in names {
      #expect(!CredentialWords.isCredential(name, at: .jsonMember), "\(name)")
    }
  }

  /// A form's `pass+word` decodes to `pass word`: its words run together are a credential's.
  @Test func wordsRunTogetherAreReadToo() {
    for name in ["pass word", "api key", "Api Key", "client secret"] {
      #expect(CredentialWords.isCredential(name, at: .parameter), "\(name)")
    }
  }

  /// A run-together ending is a credential's name on its own too, in any case and place: the
  /// third blind round found `Sessionid`, `SESSIONID` and `sessionid` written everywhere while
  /// `jsessionid` and `X-Sessionid` were redacted.
  @Test(arguments: CredentialWords.runTogetherEndings)
  func aRunTogetherEndingAloneIsACredential(ending: String) {
    for name in [ending, ending.uppercased(), ending.prefix(1).uppercased() + ending.dropFirst()] {
      for place in [CredentialName.Place.header, .parameter, .jsonMember] {
        #expect(CredentialWords.isCredential(name, at: place), "\(name) at \(place)")
      }
    }
  }

  /// Every pattern the defaults listed before names were read as words still reads as a
  /// credential's, so nothing redacted before is written now (`*password*` also took
  /// `passwordStrength`; `password` still reads as one).
  @Test func everyFormerDefaultPatternStillReadsAsACredential() {
    let lists: [(names: [String], place: CredentialName.Place)] = [
      (Redaction.defaultHeaderNames, .header), (Redaction.defaultQueryParameterNames, .parameter),
      (Redaction.defaultJSONMemberNames, .jsonMember),
    ]
    for (names, place) in lists {
      for pattern in names {
        let name = pattern.replacingOccurrences(of: "*", with: "")
        let spellings = pattern.hasPrefix("*") ? [name, "X-" + name, "my_" + name] : [name]
        for spelling in spellings {
          #expect(CredentialWords.isCredential(spelling, at: place), "\(spelling) at \(place)")
        }
      }
    }
  }

  /// The words of a dictionary that read as a credential's are exactly these: the judgement
  /// reads words, so `keyboard`, `passenger`, `monkey`, `compass` and `obsession` are not among
  /// them. The list is every word of Debian's `wamerican` (2020.12.07, `/usr/share/dict/words`)
  /// that holds a credential word, a run-together ending, `key` or `code` as a substring, the
  /// only words the judgement could take: `.ci/credential-words.py` writes it, and checks it
  /// against the dictionary where one is installed.
  @Test func aDictionaryReadsAsCredentialsOnlyWhereItShould() throws {
    let words = try String(contentsOf: Self.lookalikeWordsFile, encoding: .utf8)
      .split(whereSeparator: \.isNewline).map(String.init)
    #expect(words.count > 1000)
    let flagged = Set(words.filter { CredentialWords.isCredential($0, at: .jsonMember) })
    #expect(flagged == Self.dictionaryCredentials, "\(flagged.sorted())")
  }

  static let lookalikeWordsFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/credential-lookalike-words.txt")

  /// Dictionary words that are credentials' names, reviewed one by one.
  static let dictionaryCredentials: Set<String> = [
    "assertion", "authentication", "authorization", "bearer", "certificate", "cookie",
    "credential", "credentials", "pass", "password", "passwords", "pin", "secret", "secrets",
    "session", "sid", "signature", "token", "sign", "passkey", "pat", "crumb", "macaroon", "seed",
    "mnemonic",
    // Plurals of credential words: lists of them (the thirteenth attack).
    "assertions", "authentications", "authorizations", "bearers", "certificates", "crumbs",
    "macaroons", "mnemonics", "passkeys", "pins", "sessions", "sids", "signatures",
  ]
}

/// Seeded random names built from credential words and everyday words, in random spellings:
/// a name ending in a credential word is redacted and masked, one ending in an everyday word
/// is neither, and redaction and masking always agree.
@Suite struct CredentialWordsFuzzTests {
  static let credentialWords = [
    "password", "pwd", "pass", "secret", "token", "auth", "credentials", "session", "sid",
    "csrf", "xsrf", "cookie", "signature", "sig", "cert", "dsn", "otp", "pin", "passphrase",
  ]
  static let everydayWords = [
    "user", "account", "primary", "app", "service", "type", "name", "count", "timeout",
    "enabled", "strength", "policy", "expiry", "url", "length", "format", "status", "mode",
  ]

  /// Words joined in one of six spellings.
  static func spell(_ words: [String], _ style: Int) -> String {
    switch style % 6 {
    case 0: words.joined(separator: "_")
    case 1: words.joined(separator: "-").uppercased()
    case 2: words.joined(separator: ".")
    case 3: words.map(\.capitalized).joined(separator: "-")
    case 4: words[0] + words.dropFirst().map(\.capitalized).joined()
    default: words.map(\.capitalized).joined()
    }
  }

  @Test func randomNamesAreJudgedByTheirLastWordAndEveryOutputAgrees() {
    var state: UInt64 = 40
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    var checked = 0
    for round in 0..<400 {
      var words = (0..<next(3)).map { _ in
        next(2) == 0
          ? Self.credentialWords[next(Self.credentialWords.count)]
          : Self.everydayWords[next(Self.everydayWords.count)]
      }
      let secret = round % 2 == 0
      words.append(
        secret
          ? Self.credentialWords[next(Self.credentialWords.count)]
          : Self.everydayWords[next(Self.everydayWords.count)])
      let name = Self.spell(words, next(6))
      let value = "f\(round)z9q8w7e6r5"
      #expect(CredentialWords.isCredential(name, at: .jsonMember) == secret, "\(name)")
      let body = #"{"\#(name)":"\#(value)"}"#
      let redacted = RedactionPlacesTests.redactedBody(body)
      let masked = LogRedaction.mask(body)
      #expect(!redacted.contains(value) == secret, "\(name) redacted")
      #expect(!masked.contains(value) == secret, "\(name) masked")
      checked += 1
    }
    #expect(checked == 400)
  }
}
