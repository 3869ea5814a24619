extension CredentialName {
  /// Where a name was found. A name is judged alike everywhere (``CredentialWords``), except a
  /// name that is only `key` or `code`, which is everyday in JSON.
  enum Place: Int, Sendable, Hashable {
    case header
    case parameter
    case jsonMember
  }

  /// Whether a value named `name` at `place` is a credential by ``Redaction/default``'s rules,
  /// so what logs mask and what cassettes redact cannot disagree.
  static func isCredential(_ name: String, at place: Place) -> Bool {
    CredentialWords.isCredential(name, at: place)
  }
}
