extension FieldMismatch {
  /// The mismatch as a log may show it: under a credential's name (`header Authorization`,
  /// `query access_token`) what the request had is masked whole, and so is the value the
  /// pattern expected (a test may read it from the environment: a real key); other values are
  /// masked wherever a credential shows in them.
  func masked(naming: NamedSecrets? = nil) -> FieldMismatch {
    var copy = self
    if Self.isCredential(field, naming: naming),
      !["absent", "no query", "no body"].contains(actual),
      // A missing multipart part lists the parts there are, none of them its value.
      !actual.hasPrefix("absent; parts: "), !actual.hasPrefix("not multipart/form-data")
    {
      let present = "present: "
      copy.actual =
        actual.hasPrefix(present)
        ? present + LogRedaction.masked(String(actual.dropFirst(present.count)))
        : LogRedaction.masked(actual)
    } else {
      copy.actual = LogRedaction.mask(actual, naming: naming, asTraffic: true)
    }
    copy.expected = Self.maskedExpectation(expected, of: field, naming: naming)
    return copy
  }

  /// What a pattern expects of `field`, as a log may show it: under a credential's name the
  /// operand is masked whole and the comparison kept (`== ••••(12 chars)`, `contains …`);
  /// `present` and `absent` say nothing of a value. Elsewhere, what masking finds is masked,
  /// in the text as written and as read with its escapes undone (``SpelledExpectation``).
  static func maskedExpectation(_ expected: String, of field: String, naming: NamedSecrets?)
    -> String
  {
    guard isCredential(field, naming: naming), expected != "present", expected != "absent",
      let space = expected.firstIndex(of: " ")
    else { return SpelledExpectation.masked(expected, naming: naming) }
    return expected[...space]
      + LogRedaction.masked(String(expected[expected.index(after: space)...]))
  }

  /// Whether `field` names a credential: a header, query parameter, form field or multipart
  /// part whose name is a credential's.
  private static func isCredential(_ field: String, naming: NamedSecrets?) -> Bool {
    let words = field.split(separator: " ", maxSplits: 1)
    let place: CredentialName.Place? =
      switch words.first {
      case "header": .header
      case "query", "form", "part": .parameter
      default: nil
      }
    guard let place, words.count == 2 else { return false }
    return NamedSecrets.isSecret(String(words[1]), at: place, naming: naming)
  }

  /// `✗ field: expected …, got …`, masked, as reports list it.
  func reportLine(naming: NamedSecrets? = nil) -> String {
    let masked = masked(naming: naming)
    return "✗ \(masked.field): expected \(masked.expected), got \(masked.actual)"
  }
}
