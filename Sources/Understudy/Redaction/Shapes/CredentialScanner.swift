/// Looks through everything a cassette would write for secrets, so one that redaction missed
/// is caught before it reaches version control.
///
/// One rule set drives the scanner and ``Redaction``: a finding is every value the scanner's
/// redaction (given to ``init(redaction:allowing:)``) would replace (the headers, query parameters,
/// form fields, JSON members and body patterns it names, found by running it, never by a second
/// list of names) and every value shaped like a credential that is left after it ran (a bearer
/// token, a JWT, a vendor's key: each finding's description names the shape). The scanner reads the
/// cassette as it would be written (every member of the encoded JSON, with base64 bodies decoded),
/// so nothing the file holds escapes it. Placeholders left by ``Redaction`` are never reported.
/// Findings show a masked excerpt, never the secret.
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
  package var allowList: [Allowance]

  /// The rules whose every replacement is a finding: a value `redaction` would remove is
  /// reported whatever its shape (a session cookie, an `api_key` of any form).
  package var redaction: Redaction

  /// Creates a scanner that reports what `redaction` would replace and every other
  /// credential-shaped value, except the `allowList` and the redaction's own
  /// allowances (``Redaction/allowingCredentials(_:)``).
  public init(redaction: Redaction = .default, allowing allowList: [Allowance] = []) {
    self.redaction = redaction
    self.allowList = redaction.credentialAllowances + allowList
  }

  /// Every value the scanner's redaction would replace in `har` and every credential-shaped value
  /// left after it, in the order of the file.
  public func scan(_ har: HAR) -> [CredentialFinding] {
    let har = Self.withoutDates(har)
    let redacted = redaction.redact(har)
    var replaced: [[JSONPathComponent]: [CredentialFinding]] = [:]
    for index in har.log.entries.indices where har.log.entries[index] != redacted.log.entries[index]
    {
      var original = har.log.entries[index]
      var result = redacted.log.entries[index]
      let path: [JSONPathComponent] = [.key("log"), .key("entries"), .index(index)]
      for (old, new) in zip(Self.takeBodies(from: &original), Self.takeBodies(from: &result))
      where old.text != new.text {
        record(
          RedactedValue.replacements(
            from: Self.readable(old.text, encoding: old.encoding, mimeType: old.mimeType),
            to: Self.readable(new.text, encoding: new.encoding, mimeType: new.mimeType)),
          at: path + old.path, into: &replaced)
      }
      guard let before = Self.document(original), let after = Self.document(result) else {
        continue
      }
      var walked = path
      compare(before, after, path: &walked, encoding: nil, into: &replaced)
    }
    // The rest of the log (the creator's and browser's names, pages, comments) is free text
    // the rules read too.
    if let before = Self.document(Self.withoutEntries(har)),
      let after = Self.document(Self.withoutEntries(redacted))
    {
      var walked: [JSONPathComponent] = []
      compare(before, after, path: &walked, encoding: nil, into: &replaced)
    }
    return shapes(in: redacted, replaced: replaced)
  }

  private static func withoutEntries(_ har: HAR) -> HAR {
    var har = har
    har.log.entries = []
    return har
  }

  /// Every credential-shaped value in `har`, an archive the scanner's redaction has already been
  /// applied to, without applying it again: what a command or recorder that has just redacted an
  /// archive checks before writing it.
  ///
  /// Every string the file would hold is read, as in ``scan(_:)``. Only a rule that redacting
  /// once more would still change something reports less here; for what `redaction.redact(_:)`
  /// returned, that is nothing, and the shapes are what remains to catch.
  ///
  /// Every string no field rule reads (names, media types, methods, versions, the creator's
  /// name, comments, titles) is also read by the free-text rules and the known values once
  /// more: one they would still change is a finding, so a string redaction failed to reach is
  /// reported rather than written.
  public func scan(redacted har: HAR) -> [CredentialFinding] {
    shapes(in: Self.withoutDates(har), replaced: [:], textRules: CompiledRedaction(redaction))
  }

  /// The members whose strings field rules read (values, URLs, bodies): the free-text check of
  /// ``scan(redacted:)`` leaves them to those rules, which have run.
  private static let fieldRuleMembers: Set<String> = ["value", "url", "redirectURL", "text"]

  /// What the free-text rules and the known values would still replace in `text`.
  private func textRuleFindings(
    in text: String, rules: CompiledRedaction, path: [JSONPathComponent]
  ) -> [CredentialFinding] {
    if case .key(let member) = path.last, Self.fieldRuleMembers.contains(member) { return [] }
    let redacted: String
    if CompiledRedaction.mayHoldRuledText(text) {
      var echoes = rules.known
      redacted = rules.redactText(text, echoes: &echoes)
    } else {
      // A token (`Content-Type`, `GET`) holds no pair: only a known value can be in it.
      guard !rules.known.isEmpty else { return [] }
      redacted = rules.known.replace(in: text, field: .text)
    }
    guard redacted != text else { return [] }
    var found: [[JSONPathComponent]: [CredentialFinding]] = [:]
    record(RedactedValue.replacements(from: text, to: redacted), at: path, into: &found)
    return found[path] ?? []
  }

  /// The archive with every date at 1970: dates hold no secrets, and one a cassette cannot
  /// write must not stop the scan either.
  private static func withoutDates(_ har: HAR) -> HAR {
    var har = har
    for index in har.log.entries.indices {
      har.log.entries[index].startedDateTime = Date(timeIntervalSince1970: 0)
    }
    for index in har.log.pages.indices {
      har.log.pages[index].startedDateTime = Date(timeIntervalSince1970: 0)
    }
    return har
  }

  /// The findings `replaced` holds by path, and every credential-shaped value in `redacted`.
  private func shapes(
    in redacted: HAR, replaced: [[JSONPathComponent]: [CredentialFinding]],
    textRules: CompiledRedaction? = nil
  ) -> [CredentialFinding] {
    // A body no rule can read (still compressed, in a charset not read) may hide anything.
    let unreadable = UnreadableBody.find(in: redacted.log.entries).map {
      CredentialFinding(path: $0.path, kind: .unreadableBody, excerpt: $0.problem)
    }
    var redacted = redacted
    // Bodies are scanned as the strings they are; encoding and parsing them again as members
    // of the document took most of the time of a large file.
    var bodies: [[JSONPathComponent]: String] = [:]
    for index in redacted.log.entries.indices {
      for body in Self.takeBodies(from: &redacted.log.entries[index]) {
        bodies[[.key("log"), .key("entries"), .index(index)] + body.path] = Self.readable(
          body.text, encoding: body.encoding, mimeType: body.mimeType)
      }
    }
    guard let document = Self.document(redacted) else { return [] }
    var findings: [CredentialFinding] = []
    var path: [JSONPathComponent] = []
    visit(
      document, path: &path, encoding: nil, name: nil, replaced: replaced, bodies: bodies,
      textRules: textRules, into: &findings)
    return findings + Self.malformedMethods(in: redacted.log.entries) + unreadable
  }

  /// Every request method in `entries` that is not an HTTP token (``ASCIIByte/isMethodToken(_:)``):
  /// no client sends one, and a crafted file can put anything there. The method is described by
  /// its length only. `indexes` number the entries as in the file they came from, when given.
  package static func malformedMethods(in entries: [HAR.Entry], indexes: [Int]? = nil)
    -> [CredentialFinding]
  {
    entries.enumerated().compactMap { position, entry in
      let method = entry.request.method
      guard !ASCIIByte.isMethodToken(method) else { return nil }
      return CredentialFinding(
        path: "log.entries[\(indexes?[position] ?? position)].request.method",
        kind: .malformedMethod, excerpt: "\(method.count) characters")
    }
  }

  /// The entry's request and response body texts, each replaced by a one-character stand-in
  /// that keeps its member in the encoding, with their paths inside the entry.
  private static func takeBodies(from entry: inout HAR.Entry)
    -> [(path: [JSONPathComponent], text: String, encoding: String?, mimeType: String)]
  {
    var bodies: [(path: [JSONPathComponent], text: String, encoding: String?, mimeType: String)] =
      []
    if var postData = entry.request.postData {
      bodies.append(
        (
          [.key("request"), .key("postData"), .key("text")], postData.text, postData.encoding,
          postData.mimeType
        ))
      postData.text = "-"
      entry.request.postData = postData
    }
    if let text = entry.response.content.text {
      bodies.append(
        (
          [.key("response"), .key("content"), .key("text")], text, entry.response.content.encoding,
          entry.response.content.mimeType
        ))
      entry.response.content.text = "-"
    }
    return bodies
  }

  /// Adds a finding at `path` for each of `replacements` no allowance accepts.
  private func record(
    _ replacements: [RedactedValue], at path: [JSONPathComponent],
    into replaced: inout [[JSONPathComponent]: [CredentialFinding]]
  ) {
    let findings = replacements.compactMap { replacement -> CredentialFinding? in
      if let removed = replacement.removed, isAllowed(removed) { return nil }
      return CredentialFinding(
        path: JSONPathComponent.render(path), kind: .redactionRule,
        excerpt: replacement.description)
    }
    if !findings.isEmpty { replaced[path, default: []] += findings }
  }

  /// Whether a value a rule would remove is accepted: allowed itself, or holding credentials
  /// that are all allowed (`Basic YXBw…` when `YXBw…` is).
  private func isAllowed(_ removed: String) -> Bool {
    guard !allowList.isEmpty else { return false }
    if allowList.contains(where: { $0.allows(secret: removed, match: removed) }) { return true }
    var text = removed
    let shapes = text.withUTF8 { CredentialShape.find(in: $0).count }
    return shapes > 0 && findings(in: removed, nameContext: false, path: { "" }).isEmpty
  }

  /// Every credential-shaped value in `text`, reported at `path`.
  public func scan(_ text: String, at path: String) -> [CredentialFinding] {
    findings(in: text, nameContext: false) { path }
  }

  /// What `rules` (this scanner's redaction, compiled) would replace in `text` read as a body
  /// of no declared type, and every credential-shaped value in it, reported at `path`: a string
  /// no field of the model holds (a browser's `_webSocketMessages` frame, an exporter's own
  /// member) is judged as a body is, so a scan calls nothing clean that a body would not be.
  package func scan(
    unmodelled text: String, at path: String, rules: CompiledRedaction
  ) -> [CredentialFinding] {
    var echoes = rules.known
    let redacted = rules.redactBody(text, mimeType: "", echoes: &echoes)
    let ruled =
      redacted == text
      ? []
      : RedactedValue.replacements(from: text, to: redacted).compactMap {
        replacement -> CredentialFinding? in
        if let removed = replacement.removed, isAllowed(removed) { return nil }
        return CredentialFinding(path: path, kind: .redactionRule, excerpt: replacement.description)
      }
    return ruled + scan(text, at: path)
  }

  /// `value` encoded as a cassette writes it, and parsed back with byte offsets.
  private static func document(_ value: some HARReferenceCodable) -> JSONNode? {
    let encoder = HAR.makeEncoder()
    // NaN cannot be written to a file, but it must not stop a scan either.
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
    guard let data = try? encoder.encode(HARReference(value)) else { return nil }
    return try? JSONNode.parse(Array(data))
  }

  /// The findings in `text`; `path` is rendered only when there is one.
  private func findings(in text: String, nameContext: Bool, path: () -> String)
    -> [CredentialFinding]
  {
    var text = text
    return text.withUTF8 { bytes in
      CredentialShape.find(in: bytes, nameContext: nameContext).compactMap { shape in
        let secret = String(decoding: bytes[shape.secret], as: UTF8.self)
        let whole = String(decoding: bytes[shape.whole], as: UTF8.self)
        guard !allowList.contains(where: { $0.allows(secret: secret, match: whole) }) else {
          return nil
        }
        let label = String(
          decoding: bytes[shape.whole.lowerBound..<shape.secret.lowerBound], as: UTF8.self)
        let shown = secret.prefix(min(4, secret.count / 3))
        return CredentialFinding(
          path: path(), kind: shape.kind,
          excerpt: "\(label)\(shown)… (\(secret.count) characters)")
      }
    }
  }

  /// Walks the original and the redacted encoding of one entry side by side and records, by
  /// path, each value redaction replaced.
  private func compare(
    _ before: JSONNode, _ after: JSONNode, path: inout [JSONPathComponent], encoding: String?,
    into replaced: inout [[JSONPathComponent]: [CredentialFinding]]
  ) {
    switch (before.value, after.value) {
    case (.object(let old), .object(let new)):
      let encoding = Self.encoding(of: new)
      for (oldMember, newMember) in zip(old, new) where oldMember.key == newMember.key {
        path.append(.key(newMember.key))
        compare(
          oldMember.value, newMember.value, path: &path,
          encoding: newMember.key == "text" ? encoding : nil, into: &replaced)
        path.removeLast()
      }
    case (.array(let old), .array(let new)):
      for (index, (oldElement, newElement)) in zip(old, new).enumerated() {
        path.append(.index(index))
        compare(oldElement, newElement, path: &path, encoding: nil, into: &replaced)
        path.removeLast()
      }
    case (.string(let old), .string(let new)) where old != new:
      record(
        RedactedValue.replacements(
          from: Self.readable(old, encoding: encoding, mimeType: ""),
          to: Self.readable(new, encoding: encoding, mimeType: "")),
        at: path, into: &replaced)
    default:
      break
    }
  }

  private func visit(
    _ node: JSONNode, path: inout [JSONPathComponent], encoding: String?, name: String?,
    replaced: [[JSONPathComponent]: [CredentialFinding]], bodies: [[JSONPathComponent]: String],
    textRules: CompiledRedaction?, into findings: inout [CredentialFinding]
  ) {
    switch node.value {
    case .object(let members):
      let encoding = Self.encoding(of: members)
      // A header's or field's name tells an AWS secret key from other base64.
      let name = members.first { $0.key == "name" }.flatMap { member -> String? in
        if case .string(let value) = member.value.value { return value }
        return nil
      }
      for member in members {
        path.append(.key(member.key))
        visit(
          member.value, path: &path, encoding: member.key == "text" ? encoding : nil,
          name: member.key == "value" ? name : nil, replaced: replaced, bodies: bodies,
          textRules: textRules, into: &findings)
        path.removeLast()
      }
    case .array(let elements):
      for (index, element) in elements.enumerated() {
        path.append(.index(index))
        visit(
          element, path: &path, encoding: nil, name: nil, replaced: replaced, bodies: bodies,
          textRules: textRules, into: &findings)
        path.removeLast()
      }
    case .string(let text):
      if !replaced.isEmpty, let ruled = replaced[path] { findings += ruled }
      // A body was read already, in its charset.
      let body = path.last == .key("text") ? bodies[path] : nil
      if let textRules { findings += textRuleFindings(in: text, rules: textRules, path: path) }
      let location = path
      findings += self.findings(
        in: body ?? Self.readable(text, encoding: encoding, mimeType: ""),
        nameContext: name.map(CredentialShape.namesAWSSecret) ?? false
      ) { JSONPathComponent.render(location) }
    case .number, .bool, .null:
      break
    }
  }

  /// The `encoding` member of a HAR content object, which says how to read its `text`.
  private static func encoding(of members: [JSONNode.Member]) -> String? {
    members.first { $0.key == "encoding" }.flatMap { member -> String? in
      if case .string(let value) = member.value.value { return value }
      return nil
    }
  }

  /// Text in another charset is read in it, as redaction reads it (see ``BodyCharset``); binary
  /// bodies are read leniently: an ASCII key inside an image is still a leak.
  private static func readable(_ text: String, encoding: String?, mimeType: String) -> String {
    guard encoding != nil || BodyCharset.readsInCharset(mimeType, start: text.utf8),
      let data = try? HARBodyText.decode(text: text, encoding: encoding)
    else { return text }
    return BodyCharset.text(of: data, mimeType: mimeType)?.text
      ?? String(decoding: data, as: UTF8.self)
  }
}

/// A credential-shaped value found in a cassette.
public struct CredentialFinding: Sendable, Hashable, CustomStringConvertible {
  /// Where it is, as a JSON path into the file: `log.entries[0].request.headers[2].value`.
  public var path: String
  /// What it looks like; its name is in ``description``. Package: a test reads the description
  /// or the path, and the set of shapes grows without breaking anyone's `switch`.
  package var kind: CredentialKind
  /// The start of the value and its length, such as `ghp_AbCd… (40 characters)`; never the
  /// whole secret, so the report itself can be logged.
  var excerpt: String

  /// Creates a finding.
  package init(path: String, kind: CredentialKind, excerpt: String) {
    self.path = path
    self.kind = kind
    self.excerpt = excerpt
  }

  /// `path: kind (excerpt)`.
  public var description: String { "\(path): \(kind) (\(excerpt))" }
}

/// The shapes of credential the scanner recognises.
package enum CredentialKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// `Authorization: Bearer …` and tokens written the same way elsewhere.
  case bearerToken
  /// `Basic` followed by base64 of `user:password`.
  case basicCredentials
  /// `Authorization: Token …`, as Django REST framework and others write it: a credential that
  /// mixes letters and digits.
  case tokenCredentials
  /// A JSON Web Token: three base64url segments whose first decodes to a JSON object, whatever
  /// its members (`eyJ…`, `ewog…`); the signature may be empty.
  case jsonWebToken
  /// An AWS access key ID (`AKIA…`, `ASIA…`).
  case awsAccessKey
  /// An AWS secret access key: 40 characters of base64 mixing cases and digits beside a name
  /// that says `aws` or `secret`, near an access key ID, or standing alone as a whole value.
  case awsSecretKey
  /// An npm access token (`npm_…`).
  case npmToken
  /// A GitHub token (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`).
  case gitHubToken
  /// A Slack token (`xoxb-`, `xoxp-`, …), or the secret path of an incoming webhook's URL
  /// (`https://hooks.slack.com/services/T…/B…/…`).
  case slackToken
  /// A Stripe secret or restricted key (`sk_live_`, `sk_test_`, `rk_live_`, `rk_test_`).
  case stripeKey
  /// A Google API key (`AIza…`).
  case googleAPIKey
  /// A GitLab personal access token (`glpat-`).
  case gitLabToken
  /// An OpenAI-style secret key (`sk-…`).
  case openAIKey
  /// The header of a PEM private key, or a PuTTY key's private lines.
  case privateKey
  /// A private key in base64 DER without its armour, recognised by its structure: PKCS #8,
  /// PKCS #1, SEC 1, or a PKCS #12 (`.pfx`) file.
  case derPrivateKey
  /// A vendor-style token whose prefix no case above names: a short prefix (`SG.`, `hvs.`,
  /// `dop_v1_`, `pypi-`, `SK`) and a long run of random characters, or a run long and random
  /// enough on its own. Identifiers (UUIDs, hex digests, Stripe-style object ids, words joined
  /// by `_` or case) are not reported.
  case vendorToken
  /// The user information of a URL: `https://user:password@host`, or a user name long
  /// enough to be a token (`https://TOKEN@host`).
  case urlUserinfo
  /// A value the scanner's ``CredentialScanner/redaction`` would replace, whatever its shape:
  /// a header, query parameter, form field, JSON member or body pattern its rules name.
  case redactionRule
  /// A request method that is not an HTTP token (a space, a quote, a control character, more
  /// than 32 characters): no client sends one, and a crafted file can hide anything there.
  case malformedMethod
  /// A body no rule can read, which may hide anything: one still compressed (`Content-Encoding`
  /// or a compressed format's signature), or text in a charset Understudy does not read.
  case unreadableBody

  /// A name for reports, such as `GitHub token`.
  package var description: String {
    switch self {
    case .bearerToken: return "bearer token"
    case .basicCredentials: return "Basic credentials"
    case .tokenCredentials: return "Token credentials"
    case .jsonWebToken: return "JSON Web Token"
    case .awsAccessKey: return "AWS access key"
    case .awsSecretKey: return "AWS secret key"
    case .npmToken: return "npm token"
    case .gitHubToken: return "GitHub token"
    case .slackToken: return "Slack token"
    case .stripeKey: return "Stripe key"
    case .googleAPIKey: return "Google API key"
    case .gitLabToken: return "GitLab token"
    case .openAIKey: return "OpenAI-style secret key"
    case .privateKey: return "private key"
    case .derPrivateKey: return "private key (DER, base64)"
    case .vendorToken: return "vendor token"
    case .urlUserinfo: return "URL user information"
    case .redactionRule: return "value redaction replaces"
    case .malformedMethod: return "method is not an HTTP token"
    case .unreadableBody: return "unreadable body"
    }
  }
}

extension CredentialScanner {
  /// Where credential-shaped values sit in `text`: the secret part of each shape, without its
  /// label (`Bearer `, `ghp_`), so logs can mask what the scanner would report.
  /// `opening` judges the text inside base64 (see ``CredentialShape/find(in:nameContext:opening:)``).
  static func secretRanges(
    in text: String, opening: ((UnsafeBufferPointer<UInt8>) -> Bool)? = nil
  ) -> [Range<String.Index>] {
    var copy = text
    let byteRanges = copy.withUTF8 { bytes in
      CredentialShape.find(in: bytes, opening: opening).map {
        GluedRuns.whole($0.secret, in: bytes)
      }
    }
    // Every shape starts and ends on an ASCII byte, so these are valid String indices.
    let utf8 = text.utf8
    return byteRanges.map { range in
      let lower = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
      return lower..<utf8.index(lower, offsetBy: range.count)
    }
  }
}
