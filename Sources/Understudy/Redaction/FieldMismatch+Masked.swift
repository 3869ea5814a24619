extension FieldMismatch {
  /// The mismatch as a log may show it: what the request had under a credential's name
  /// (`header Authorization`, `query access_token`) masked whole, other values masked wherever a
  /// credential shows in them. What the pattern expected comes from the test's own source, so
  /// only credential shapes are masked there.
  func masked(naming: NamedSecrets? = nil) -> FieldMismatch {
    var copy = self
    let words = field.split(separator: " ", maxSplits: 1)
    let place: CredentialName.Place? =
      switch words.first {
      case "header": .header
      case "query", "form", "part": .parameter
      default: nil
      }
    if let place, words.count == 2,
      NamedSecrets.isSecret(String(words[1]), at: place, naming: naming),
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
      copy.actual = LogRedaction.mask(actual, naming: naming)
    }
    copy.expected = LogRedaction.mask(expected, naming: naming)
    return copy
  }

  /// `✗ field: expected …, got …`, masked, as reports list it.
  func reportLine(naming: NamedSecrets? = nil) -> String {
    let masked = masked(naming: naming)
    return "✗ \(masked.field): expected \(masked.expected), got \(masked.actual)"
  }
}
