/// Which values a recorded cassette must not keep, and how to put them back on replay.
///
/// Redaction replaces a secret with a placeholder that names the rule that removed it,
/// `<redacted:NAME>` (percent-encoded as `%3Credacted:NAME%3E` inside URLs and form bodies),
/// so a cassette shows that a value was there and what it was without storing it:
///
/// | Rule | Where | Placeholder |
/// | --- | --- | --- |
/// | header name | request and response header values; `Cookie` and `Set-Cookie` also cover the `cookies` arrays | `<redacted:authorization>` (lower-cased name) |
/// | query parameter name | the query and fragment of `url`, `redirectURL` and `Location`, `Content-Location`, `Referer` and `:path` headers; `queryString`; form fields and form-encoded bodies | `<redacted:access_token>` (lower-cased name) |
/// | ``JSONPath`` | JSON request and response bodies | `<redacted:user.token>` (the path's ``JSONPath/name``) |
/// | ``BodyPattern`` | request and response bodies and form field values | `<redacted:NAME>` (the pattern's ``BodyPattern/name``) |
///
/// Names compare case-insensitively for headers and query parameters, exactly for JSON
/// members. Base64 bodies that decode to UTF-8 text are redacted as text and encoded again;
/// binary bodies are left alone (``CredentialScanner`` still looks inside them).
///
/// ```swift
/// let redaction = try Redaction.default
///   .redactingHeaders("X-Session")
///   .redactingJSON(Redaction.JSONPath("$.user.ssn"))
/// try redaction.redact(har).write(to: cassetteURL)
/// ```
public struct Redaction: Sendable {
  /// Header names whose values are replaced.
  public var headerNames: [String]
  /// Query parameter and form field names whose values are replaced.
  public var queryParameterNames: [String]
  /// Paths into JSON bodies whose values are replaced.
  public var jsonPaths: [JSONPath]
  /// Regular expressions over bodies whose matches are replaced.
  public var bodyPatterns: [BodyPattern]
  /// Credential-shaped values a cassette may keep: test tokens written on purpose. The
  /// ``CredentialScanner`` that checks a cassette before it is written accepts these and still
  /// refuses anything else.
  public var credentialAllowances: [CredentialScanner.Allowance]

  /// Creates a redaction with exactly these rules; start from ``default`` to keep the safe
  /// defaults.
  public init(
    headerNames: [String] = [], queryParameterNames: [String] = [], jsonPaths: [JSONPath] = [],
    bodyPatterns: [BodyPattern] = [], credentialAllowances: [CredentialScanner.Allowance] = []
  ) {
    self.headerNames = headerNames
    self.queryParameterNames = queryParameterNames
    self.jsonPaths = jsonPaths
    self.bodyPatterns = bodyPatterns
    self.credentialAllowances = credentialAllowances
  }

  /// Headers that carry credentials in the common HTTP schemes and API gateways.
  public static let defaultHeaderNames = [
    "Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-API-Key", "X-Auth-Token",
    "X-Amz-Security-Token",
  ]

  /// Query parameters that carry credentials in OAuth, API-key schemes and signed URLs.
  /// Deliberately broad (`key`, `sig`, `session`): a needlessly redacted value costs a
  /// placeholder, a missed one leaks a secret into version control.
  public static let defaultQueryParameterNames = [
    "access_token", "id_token", "refresh_token", "token", "auth_token", "session_token",
    "api_key", "apikey", "api-key", "key", "client_secret", "secret", "password", "passwd",
    "signature", "sig", "auth", "session", "x-amz-signature", "x-amz-security-token",
    "x-amz-credential",
  ]

  /// JSON members that carry credentials in OAuth token responses and login requests. Narrower
  /// than the query list because names like `key` are everyday JSON members.
  public static let defaultJSONPaths = [
    "$..access_token", "$..refresh_token", "$..id_token", "$..client_secret", "$..password",
  ].map { try! JSONPath($0) }

  /// The rules recording uses unless told otherwise: ``defaultHeaderNames``,
  /// ``defaultQueryParameterNames`` and ``defaultJSONPaths``.
  public static let `default` = Redaction(
    headerNames: defaultHeaderNames, queryParameterNames: defaultQueryParameterNames,
    jsonPaths: defaultJSONPaths)

  /// No redaction, for cassettes that hold nothing secret.
  public static let none = Redaction()

  /// These rules plus headers named `names`.
  public func redactingHeaders(_ names: String...) -> Redaction {
    adding(names, to: \.headerNames)
  }

  /// These rules plus query parameters and form fields named `names`.
  public func redactingQueryParameters(_ names: String...) -> Redaction {
    adding(names, to: \.queryParameterNames)
  }

  /// These rules plus the JSON body values at `paths`.
  public func redactingJSON(_ paths: JSONPath...) -> Redaction {
    adding(paths, to: \.jsonPaths)
  }

  /// These rules plus body text matching `patterns`.
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

  /// A regular expression over body text whose matches are replaced by `<redacted:NAME>`.
  ///
  /// When the expression has a capture group, only the first group is replaced, so context
  /// can anchor the match: `"ssn":\s*"([^"]+)"` keeps the member name and quotes.
  public struct BodyPattern: Sendable, Hashable {
    /// The name in the placeholder.
    public let name: String
    let regex: SharedRegex

    /// The regular expression (ICU syntax, as `NSRegularExpression` takes it).
    public var pattern: String { regex.pattern }

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
