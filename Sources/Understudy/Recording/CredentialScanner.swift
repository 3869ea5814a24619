/// Looks through everything a cassette would write for values shaped like credentials, so a
/// secret that redaction missed is caught before it reaches version control.
///
/// The scanner reads the cassette as it would be written (every member of the encoded JSON,
/// with base64 bodies decoded), so nothing the file holds escapes it. Placeholders left by
/// ``Redaction`` are never reported. Findings show a masked excerpt, never the secret.
///
/// ```swift
/// let scanner = try CredentialScanner(allowing: [.value("sk_test_fixture000000"), .pattern("ghp_0+")])
/// let findings = scanner.scan(har)
/// if !findings.isEmpty { Issue.record("Cassette holds secrets:\n\(findings)") }
/// ```
public struct CredentialScanner: Sendable {
  /// A value the scanner accepts even though it looks like a credential: a test token written
  /// on purpose.
  public struct Allowance: Sendable, Hashable {
    enum Rule: Hashable {
      case value(String)
      case pattern(SharedRegex)
    }

    let rule: Rule

    /// Accepts exactly `value`, compared with the credential itself (`abc123`) or with the
    /// whole match (`Bearer abc123`).
    public static func value(_ value: String) -> Allowance {
      Allowance(rule: .value(value))
    }

    /// Accepts credentials that `pattern` matches completely.
    ///
    /// - Throws: ``PatternSyntaxError`` when the expression does not compile.
    public static func pattern(_ pattern: String) throws(PatternSyntaxError) -> Allowance {
      Allowance(rule: .pattern(try SharedRegex(pattern)))
    }

    func allows(secret: String, match: String) -> Bool {
      switch rule {
      case .value(let value): return value == secret || value == match
      case .pattern(let regex): return regex.matchesWhole(secret) || regex.matchesWhole(match)
      }
    }
  }

  /// The values to accept.
  public var allowList: [Allowance]

  /// Creates a scanner that reports everything except the `allowList`.
  public init(allowing allowList: [Allowance] = []) {
    self.allowList = allowList
  }

  /// Every credential-shaped value in `har`, in the order of the file.
  public func scan(_ har: HAR) -> [CredentialFinding] {
    // Dates hold no secrets, and one a cassette cannot write must not stop the scan either.
    var har = har
    for index in har.log.entries.indices {
      har.log.entries[index].startedDateTime = Date(timeIntervalSince1970: 0)
    }
    for index in har.log.pages.indices {
      har.log.pages[index].startedDateTime = Date(timeIntervalSince1970: 0)
    }
    let encoder = HAR.makeEncoder()
    // NaN cannot be written to a file, but it must not stop a scan either.
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
    guard let data = try? encoder.encode(har), let document = try? JSONNode.parse(Array(data))
    else { return [] }
    var findings: [CredentialFinding] = []
    var path: [JSONPathComponent] = []
    visit(document, path: &path, encoding: nil, into: &findings)
    return findings
  }

  /// Every credential-shaped value in `text`, reported at `path`.
  public func scan(_ text: String, at path: String) -> [CredentialFinding] {
    findings(in: text) { path }
  }

  /// The findings in `text`; `path` is rendered only when there is one.
  private func findings(in text: String, path: () -> String) -> [CredentialFinding] {
    // Most strings in a cassette are short or plain; one combined expression turns them away
    // before eleven separate ones run.
    guard text.utf8.count >= CredentialDetector.shortestMatch,
      CredentialDetector.any.regex.firstMatch(
        in: text, range: NSRange(text.startIndex..., in: text)) != nil
    else { return [] }
    let text =
      text.range(of: "redacted:", options: .caseInsensitive) == nil
      ? text
      : RedactionPlaceholder.anyPlaceholder.regex.stringByReplacingMatches(
        in: text, range: NSRange(text.startIndex..., in: text), withTemplate: " ")
    var taken: [Range<String.Index>] = []
    var findings: [CredentialFinding] = []
    for detector in CredentialDetector.all {
      for match in detector.regex.matches(in: text) {
        guard let whole = Range(match.range, in: text),
          let secretRange = Range(match.range(at: 2), in: text),
          !taken.contains(where: { $0.overlaps(whole) })
        else { continue }
        let secret = String(text[secretRange])
        guard detector.accepts(secret),
          !allowList.contains(where: { $0.allows(secret: secret, match: String(text[whole])) })
        else { continue }
        taken.append(whole)
        let label = text[whole.lowerBound..<secretRange.lowerBound]
        let shown = secret.prefix(min(4, secret.count / 3))
        findings.append(
          CredentialFinding(
            path: path(), kind: detector.kind,
            excerpt: "\(label)\(shown)… (\(secret.count) characters)"))
      }
    }
    return findings
  }

  private func visit(
    _ node: JSONNode, path: inout [JSONPathComponent], encoding: String?,
    into findings: inout [CredentialFinding]
  ) {
    switch node.value {
    case .object(let members):
      let encoding = members.first { $0.key == "encoding" }.flatMap { member -> String? in
        if case .string(let value) = member.value.value { return value }
        return nil
      }
      for member in members {
        path.append(.key(member.key))
        visit(
          member.value, path: &path, encoding: member.key == "text" ? encoding : nil,
          into: &findings)
        path.removeLast()
      }
    case .array(let elements):
      for (index, element) in elements.enumerated() {
        path.append(.index(index))
        visit(element, path: &path, encoding: nil, into: &findings)
        path.removeLast()
      }
    case .string(let text):
      var readable = text
      // Binary bodies are read leniently: an ASCII key inside an image is still a leak.
      if encoding != nil, let data = try? HARBodyText.decode(text: text, encoding: encoding) {
        readable = String(decoding: data, as: UTF8.self)
      }
      let location = path
      findings += self.findings(in: readable) { JSONPathComponent.render(location) }
    case .number, .bool, .null:
      break
    }
  }
}

/// A credential-shaped value found in a cassette.
public struct CredentialFinding: Sendable, Hashable, CustomStringConvertible {
  /// Where it is, as a JSON path into the file: `log.entries[0].request.headers[2].value`.
  public var path: String
  /// What it looks like.
  public var kind: CredentialKind
  /// The start of the value and its length, such as `ghp_AbCd… (40 characters)`; never the
  /// whole secret, so the report itself can be logged.
  public var excerpt: String

  /// Creates a finding.
  public init(path: String, kind: CredentialKind, excerpt: String) {
    self.path = path
    self.kind = kind
    self.excerpt = excerpt
  }

  /// `path: kind (excerpt)`.
  public var description: String { "\(path): \(kind) (\(excerpt))" }
}

/// The shapes of credential the scanner recognises.
public enum CredentialKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// `Authorization: Bearer …` and tokens written the same way elsewhere.
  case bearerToken
  /// `Basic` followed by base64 of `user:password`.
  case basicCredentials
  /// A JSON Web Token (`eyJ….eyJ….…`).
  case jsonWebToken
  /// An AWS access key ID (`AKIA…`, `ASIA…`).
  case awsAccessKey
  /// A GitHub token (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`).
  case gitHubToken
  /// A Slack token (`xoxb-`, `xoxp-`, …).
  case slackToken
  /// A Stripe secret or restricted key (`sk_live_`, `sk_test_`, `rk_live_`, `rk_test_`).
  case stripeKey
  /// A Google API key (`AIza…`).
  case googleAPIKey
  /// A GitLab personal access token (`glpat-`).
  case gitLabToken
  /// An OpenAI-style secret key (`sk-…`).
  case openAIKey
  /// The header of a PEM private key.
  case privateKey

  /// A name for reports, such as `GitHub token`.
  public var description: String {
    switch self {
    case .bearerToken: return "bearer token"
    case .basicCredentials: return "Basic credentials"
    case .jsonWebToken: return "JSON Web Token"
    case .awsAccessKey: return "AWS access key"
    case .gitHubToken: return "GitHub token"
    case .slackToken: return "Slack token"
    case .stripeKey: return "Stripe key"
    case .googleAPIKey: return "Google API key"
    case .gitLabToken: return "GitLab token"
    case .openAIKey: return "OpenAI-style secret key"
    case .privateKey: return "private key"
    }
  }
}

/// One credential shape: a regular expression whose group 1 is the label (`Bearer `, `ghp_`)
/// and group 2 the secret.
private struct CredentialDetector: Sendable {
  let kind: CredentialKind
  let regex: SharedRegex
  /// A second look at a match the expression alone cannot judge.
  let accepts: @Sendable (String) -> Bool

  init(
    _ kind: CredentialKind, _ pattern: String,
    accepts: @escaping @Sendable (String) -> Bool = { _ in true }
  ) {
    self.kind = kind
    regex = SharedRegex(literal: pattern)
    self.accepts = accepts
  }

  /// The fewest characters any detector matches (`Basic ` and six of base64).
  static let shortestMatch = 12

  /// Every detector in one expression, to rule out a string with a single pass.
  static let any = SharedRegex(
    literal: all.map { "(?:\($0.regex.pattern))" }.joined(separator: "|"))

  /// Most specific first: a match claims its text, so a JWT inside `Bearer …` is reported as a
  /// JWT, once.
  static let all = [
    CredentialDetector(.privateKey, "(-----BEGIN )((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----)"),
    CredentialDetector(.awsAccessKey, "\\b(AKIA|ASIA)([0-9A-Z]{16})\\b"),
    CredentialDetector(.gitHubToken, "\\b(gh[opusr]_|github_pat_)([A-Za-z0-9_]{20,})"),
    CredentialDetector(.slackToken, "\\b(xox[abprs]-)([A-Za-z0-9-]{10,})"),
    CredentialDetector(.stripeKey, "\\b((?:sk|rk)_(?:live|test)_)([A-Za-z0-9]{10,})"),
    CredentialDetector(.googleAPIKey, "\\b(AIza)([0-9A-Za-z_-]{35})(?![0-9A-Za-z_-])"),
    CredentialDetector(.gitLabToken, "\\b(glpat-)([A-Za-z0-9_-]{20,})"),
    CredentialDetector(.openAIKey, "\\b(sk-(?:proj-|svcacct-|admin-)?)([A-Za-z0-9_-]{20,})"),
    CredentialDetector(
      .jsonWebToken, "\\b(eyJ)([A-Za-z0-9_-]+\\.eyJ[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*)"),
    CredentialDetector(
      .bearerToken, "\\b((?i:bearer)\\s+)([A-Za-z0-9._~+/-]{12,}=*)(?![A-Za-z0-9._~+/=-])"),
    // Only base64 of `user:password` counts, so prose such as "Basic authentication" does not.
    CredentialDetector(
      .basicCredentials, "\\b((?i:basic)\\s+)([A-Za-z0-9+/]{6,}={0,2})(?![A-Za-z0-9+/=])",
      accepts: { secret in
        Data(base64Encoded: secret).map { String(decoding: $0, as: UTF8.self).contains(":") }
          ?? false
      }),
  ]
}

extension CredentialScanner {
  /// Where credential-shaped values sit in `text`: the secret part of each match, without its
  /// label (`Bearer `, `ghp_`), so logs can mask what the scanner would report.
  static func secretRanges(in text: String) -> [Range<String.Index>] {
    guard text.utf8.count >= CredentialDetector.shortestMatch,
      CredentialDetector.any.regex.firstMatch(
        in: text, range: NSRange(text.startIndex..., in: text)) != nil
    else { return [] }
    var taken: [Range<String.Index>] = []
    var secrets: [Range<String.Index>] = []
    for detector in CredentialDetector.all {
      for match in detector.regex.matches(in: text) {
        guard let whole = Range(match.range, in: text),
          let secret = Range(match.range(at: 2), in: text),
          !taken.contains(where: { $0.overlaps(whole) }), detector.accepts(String(text[secret]))
        else { continue }
        taken.append(whole)
        secrets.append(secret)
      }
    }
    return secrets
  }
}
