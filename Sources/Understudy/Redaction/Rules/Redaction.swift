/// Which values a recorded cassette must not keep, and how to put them back on replay.
///
/// Redaction replaces a secret with a placeholder that names the rule that removed it,
/// `<redacted:NAME>` (percent-encoded as `%3Credacted:NAME%3E` inside URLs and form bodies),
/// so a cassette shows that a value was there and what it was without storing it:
///
/// | Rule | Where | Placeholder |
/// | --- | --- | --- |
/// | header name | request and response header values; `Cookie` and `Set-Cookie` also cover the `cookies` arrays; `Authorization` also covers URL userinfo (`https://user:pass@host`) | `<redacted:authorization>` (lower-cased name), `%3Credacted:userinfo%3E@host` |
/// | query parameter name | `&`- and `;`-separated pairs in the query and fragment of `url`, `redirectURL` and `Location`, `Content-Location`, `Referer` and `:path` headers, and of URLs inside other headers and bodies; `;name=value` path parameters; `queryString`; form fields and form bodies, with or without a form `Content-Type`; `multipart/form-data` parts | `<redacted:access_token>` (lower-cased name) |
/// | JSON member name | members with that name at any depth of JSON bodies, also after a byte order mark or an XSSI prefix such as `)]}'`, in each line of NDJSON, inside JSONP, and (matched in the text) in JSON nested too deep to parse; XML elements of that name | `<redacted:password>` (the member's name) |
/// | ``JSONPath`` | JSON request and response bodies, in the same almost-JSON forms | `<redacted:user.token>` (the path's name: by default the path without `$.`) |
/// | ``BodyPattern`` | request and response bodies and form field values | `<redacted:NAME>` (the name the pattern was given) |
///
/// ``default`` judges every name by its words (``readsNamesAsWords``): `accessToken`,
/// `access_token`, `Access-Token` and `ACCESSTOKEN` read alike, and so do `X-Client-Pwd`,
/// `secret_key_base`, `AccountKey` and `connect.sid`. Names you add are compared in
/// normalised form: case, `-`, `_`, `.` and spaces do not count, and a `*` in a rule
/// stands for any run of characters (`X-Tenant-*`). ``JSONPath`` members match exactly, as JSON
/// does.
///
/// Every value a rule replaces is also searched for in the rest of its entry and in every later
/// entry, and replaced there by the same placeholder: a server that echoes a request's
/// password, cookie or API key back, in a header, a JSON string or a redirect, does not get it
/// written. Values shorter than 6 characters are not searched for, because
/// replacing every `12345` or `admin` in a cassette would mangle it; nor are JSON member and XML
/// element values of a few plain words (`"passwordStrength": "medium"`). The credential scan that
/// runs before a cassette is written still refuses any value left that is shaped like a credential.
///
/// Base64 bodies that decode to UTF-8 text are redacted as text and encoded again; binary bodies
/// are left alone (``CredentialScanner`` still looks inside them). Redaction cannot recognise a
/// secret by its place alone where no name marks it, such as an opaque token in a path segment
/// (`/files/3f9a…/download`): declare the value (``redactingValues(_:)``), which is then replaced
/// wherever it stands and however it is spelled.
///
/// ```swift
/// let redaction = try Redaction.default
///   .redactingHeaders("X-Session")
///   .redactingJSON(Redaction.JSONPath("$.user.ssn"))
/// try redaction.redact(har).write(to: cassetteURL)
/// ```
public struct Redaction: Sendable {
  /// Header names whose values are replaced.
  package var headerNames: [String]
  /// Query parameter and form field names whose values are replaced.
  package var queryParameterNames: [String]
  /// JSON member names, matched at any depth, whose values are replaced.
  package var jsonMemberNames: [String]
  /// Paths into JSON bodies whose values are replaced.
  package var jsonPaths: [JSONPath]
  /// Regular expressions over bodies whose matches are replaced.
  package var bodyPatterns: [BodyPattern]
  /// Credential-shaped values a cassette may keep: test tokens written on purpose. The
  /// ``CredentialScanner`` that checks a cassette before it is written accepts these and still
  /// refuses anything else.
  package var credentialAllowances: [CredentialScanner.Allowance]
  /// Secret values, by placeholder name, replaced wherever they appear in any spelling
  /// (``redactingValues(_:)``).
  package var knownValues: [String: String]
  /// Whether the values of this process's credential-named environment variables are known
  /// values too (``environmentValueNames``); on in ``default``.
  var redactsEnvironmentValues: Bool
  /// The only headers written, by name in any case, or `nil` to write every header
  /// (``keepingOnlyHeaders(_:)``).
  package var keptHeaderNames: [String]?
  /// The text written in place of every redacted value, or `nil` for `<redacted:NAME>`
  /// placeholders (``replacingValues(with:)``).
  package var replacementText: String?

  /// Creates a redaction with exactly these rules; start from ``default`` to keep the safe
  /// defaults.
  package init(
    headerNames: [String] = [], queryParameterNames: [String] = [],
    jsonMemberNames: [String] = [], jsonPaths: [JSONPath] = [],
    bodyPatterns: [BodyPattern] = [], credentialAllowances: [CredentialScanner.Allowance] = [],
    knownValues: [String: String] = [:], redactsEnvironmentValues: Bool = false,
    readsNamesAsWords: Bool = false
  ) {
    self.readsNamesAsWords = readsNamesAsWords
    self.headerNames = headerNames
    self.queryParameterNames = queryParameterNames
    self.jsonMemberNames = jsonMemberNames
    self.jsonPaths = jsonPaths
    self.bodyPatterns = bodyPatterns
    self.credentialAllowances = credentialAllowances
    self.knownValues = knownValues
    self.redactsEnvironmentValues = redactsEnvironmentValues
  }

  /// Whether a header, query parameter, form field, JSON member or XML element whose name reads
  /// as a credential's is redacted, as ``default`` does: the name is split into words
  /// (`apiKey`, `x-api-key`, `SESSION_ID`, `connect.sid`) and judged by its last word
  /// (`password`, `pwd`, `pass`, `secret`, `token`, `auth`, `session`, `sid`, `csrf`, `cookie`,
  /// `signature`, `sig`, `cert`, `dsn`, `otp`, `pin`, a `key` that is not a sort or a cache key,
  /// and the like), so `password_reset_token` is redacted and `token_type` and
  /// `passwordStrength` are not. The guides' tables list every word. The name lists add names
  /// of your own to it.
  public var readsNamesAsWords: Bool

  /// Header names ``default`` matched as patterns before it read names as words; every one
  /// still reads as a credential's (`CredentialWordsTests` checks it). Kept for rules built
  /// from them; ``default`` no longer lists them.
  package static let defaultHeaderNames = [
    "Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-API-Key", "*-Authorization",
    "*-Token", "*-Api-Key", "*-Access-Key",
    "*-Secret-Key", "*-Private-Key", "*-Subscription-Key", "*-Functions-Key", "*-Secret",
    "*-Password", "*-Credential", "*-Signature", "*-Session", "*-Session-Id", "*-Auth",
    "Authentication", "*-Authentication",
  ]

  /// Query parameter and form field names ``default`` matched as patterns before it read names
  /// as words; every one still reads as a credential's, `*password*` aside, which also took
  /// `passwordStrength`.
  package static let defaultQueryParameterNames = [
    "*token", "*secret", "*password*", "*passwd", "*passphrase", "*api-key", "*access-key",
    "*secret-key", "*private-key", "key", "code", "*signature", "sig", "auth", "*authorization",
    "session", "*session-id", "*credential", "*credentials", "jwt",
  ]

  /// JSON member names ``default`` matched as patterns before it read names as words; every one
  /// still reads as a credential's, `*password*` aside.
  package static let defaultJSONMemberNames = [
    "*token", "*secret", "*password*", "*passwd", "*passphrase", "*api-key", "*access-key",
    "*secret-key", "*private-key", "*authorization", "*cookie", "*session-id", "*credentials",
    "jwt",
  ]

  /// JSON paths recording used before ``defaultJSONMemberNames``; every one of them is covered
  /// by those names, so ``default`` no longer lists them.
  package static let defaultJSONPaths = [
    "$..access_token", "$..refresh_token", "$..id_token", "$..client_secret", "$..password",
  ].map { try! JSONPath($0) }

  /// The rules recording uses unless told otherwise: every name that reads as a credential's
  /// (``readsNamesAsWords``), and the values of this process's credential-named environment
  /// variables (``environmentValueNames``).
  public static let `default` = Redaction(
    redactsEnvironmentValues: true, readsNamesAsWords: true)

  /// The shortest value, in characters, that is searched for as an echo elsewhere in a cassette
  /// once a rule has redacted it. Shorter values are everyday words and numbers.
  package static let minimumEchoLength = 6

  /// `name` as rules compare it: lower-cased, with only letters and digits, so
  /// `normalised("X-Api_Key") == normalised("xApiKey")`.
  package static func normalised(_ name: String) -> String {
    CredentialName.normalised(name)
  }

  /// No redaction, for cassettes that hold nothing secret.
  public static let none = Redaction()

  /// These rules plus headers named `names`: exact names or patterns with `*`, compared without
  /// case, `-`, `_`, `.` and spaces (`X-Api_Key` is `xApiKey`).
  public func redactingHeaders(_ names: String...) -> Redaction {
    adding(names, to: \.headerNames)
  }

  /// These rules plus query parameters and form fields named `names`, compared like header
  /// names.
  public func redactingQueryParameters(_ names: String...) -> Redaction {
    adding(names, to: \.queryParameterNames)
  }

  /// These rules plus JSON members named `names` (patterns with `*`, compared like header
  /// names), at any depth.
  public func redactingJSONMembers(_ names: String...) -> Redaction {
    adding(names, to: \.jsonMemberNames)
  }

  /// These rules plus the JSON body values at `paths`.
  public func redactingJSON(_ paths: JSONPath...) -> Redaction {
    adding(paths, to: \.jsonPaths)
  }

  /// These rules plus body text and header values matching `patterns`.
  public func redactingBodies(_ patterns: BodyPattern...) -> Redaction {
    adding(patterns, to: \.bodyPatterns)
  }

  /// These rules, with the credential scan accepting `allowances`: fixture tokens a cassette
  /// may keep, while any other credential still stops the write.
  ///
  /// ```swift
  /// let redaction = Redaction.default.allowingCredentials(.value("sk_test_fixture000000"))
  /// ```
  public func allowingCredentials(_ allowances: CredentialScanner.Allowance...) -> Redaction {
    adding(allowances, to: \.credentialAllowances)
  }

  private func adding<Rule>(_ rules: [Rule], to list: WritableKeyPath<Redaction, [Rule]>)
    -> Redaction
  {
    var copy = self
    copy[keyPath: list] += rules
    return copy
  }

  /// A regular expression over body text whose matches are replaced by `<redacted:NAME>`, in
  /// header values too, except the headers that frame a message (`Content-Length`, …).
  ///
  /// When the expression has a capture group, only the first group is replaced, so context
  /// can anchor the match: `"ssn":\s*"([^"]+)"` keeps the member name and quotes.
  public struct BodyPattern: Sendable, Hashable {
    /// The name in the placeholder.
    let name: String
    let regex: SharedRegex

    /// The regular expression (ICU syntax, as `NSRegularExpression` takes it).
    var pattern: String { regex.pattern }

    /// Compiles `pattern`.
    ///
    /// - Throws: ``PatternSyntaxError`` when the expression does not compile or the name
    ///   cannot appear in a placeholder.
    public init(name: String, pattern: String) throws(PatternSyntaxError) {
      try RedactionPlaceholder.validate(name: name)
      self.name = name
      regex = try SharedRegex(pattern)
    }
  }
}
