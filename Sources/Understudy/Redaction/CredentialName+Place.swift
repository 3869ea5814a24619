extension CredentialName {
  /// Where a name was found, which decides the default rules it is judged by.
  enum Place {
    case header
    case parameter
    case jsonMember
  }

  private static let defaultHeaders = CredentialName(Redaction.defaultHeaderNames)
  private static let defaultParameters = CredentialName(Redaction.defaultQueryParameterNames)
  private static let defaultMembers = CredentialName(Redaction.defaultJSONMemberNames)

  /// Whether a value named `name` at `place` is a credential by ``Redaction/default``'s rules,
  /// so what logs mask and what cassettes redact cannot disagree.
  static func isCredential(_ name: String, at place: Place) -> Bool {
    switch place {
    case .header: defaultHeaders.matches(name)
    case .parameter: defaultParameters.matches(name)
    case .jsonMember: defaultMembers.matches(name)
    }
  }
}
