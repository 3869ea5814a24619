/// The names a test's own ``Redaction`` lists, so reports mask those values as well as the ones
/// ``CredentialName`` recognises: a cassette that redacts `X-Session-Ref` gets it masked in its
/// near-miss reports too.
struct NamedSecrets: Sendable {
  /// The header rules, patterns as the redaction reads them (`X-Tenant-*`).
  let headers: CredentialName
  let parameters: CredentialName
  /// The JSON member rules, and the last member name of each JSON path (`nationalID` of
  /// `$.profile.nationalID`).
  let members: CredentialName
  let patterns: [Redaction.BodyPattern]

  init(_ redaction: Redaction) {
    headers = CredentialName(redaction.headerNames)
    parameters = CredentialName(redaction.queryParameterNames)
    let pathNames = redaction.jsonPaths.compactMap { path in
      path.steps.last.flatMap { step -> String? in
        switch step {
        case .member(let name): return name
        case .descendant(let name): return name
        case .index, .anyChild: return nil
        }
      }
    }
    // A path's name is exact: `*` in it is a member called `*`, not a wildcard.
    members = CredentialName(
      redaction.jsonMemberNames + pathNames.map { $0.replacingOccurrences(of: "*", with: "") })
    patterns = redaction.bodyPatterns
  }

  /// Whether `name` at `place` is a credential's, by its words or by the test's rules.
  static func isSecret(_ name: String, at place: CredentialName.Place, naming: NamedSecrets?)
    -> Bool
  {
    if CredentialName.isCredential(name, at: place) { return true }
    guard let naming else { return false }
    switch place {
    case .header: return naming.headers.matches(name)
    case .parameter: return naming.parameters.matches(name)
    case .jsonMember: return naming.members.matches(name)
    }
  }
}
