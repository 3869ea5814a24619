/// The names a test's own ``Redaction`` lists, so reports mask those values as well as the ones
/// ``CredentialName`` recognises: a cassette that redacts `X-Session-Ref` gets it masked in its
/// near-miss reports too.
struct NamedSecrets: Sendable {
  let headers: Set<String>
  let parameters: Set<String>
  /// The last member name of each JSON path (`nationalID` of `$.profile.nationalID`).
  let members: Set<String>
  let patterns: [Redaction.BodyPattern]

  init(_ redaction: Redaction) {
    headers = Set(redaction.headerNames.map { $0.lowercased() })
    parameters = Set(redaction.queryParameterNames.map { $0.lowercased() })
    members = Set(
      redaction.jsonPaths.compactMap { path in
        path.steps.last.flatMap { step -> String? in
          switch step {
          case .member(let name): return name
          case .descendant(let name): return name
          case .index, .anyChild: return nil
          }
        }
      })
    patterns = redaction.bodyPatterns
  }

  /// Whether `name` at `place` is a credential's, by its words or by the test's rules.
  static func isSecret(_ name: String, at place: CredentialName.Place, naming: NamedSecrets?)
    -> Bool
  {
    if CredentialName.isCredential(name, at: place) { return true }
    guard let naming else { return false }
    switch place {
    case .header: return naming.headers.contains(name.lowercased())
    case .parameter: return naming.parameters.contains(name.lowercased())
    case .jsonMember: return naming.members.contains(name)
    }
  }
}
