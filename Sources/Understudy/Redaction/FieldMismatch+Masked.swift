extension FieldMismatch {
  /// The mismatch as a log may show it: what the request had under a credential's name
  /// (`header Authorization`, `query access_token`) masked whole, other values masked wherever a
  /// credential shows in them. What the pattern expected comes from the test's own source, so
  /// only credential shapes are masked there.
  var masked: FieldMismatch {
    var copy = self
    let words = field.split(separator: " ", maxSplits: 1)
    let place: CredentialName.Place? =
      switch words.first {
      case "header": .header
      case "query", "form": .parameter
      default: nil
      }
    if let place, words.count == 2, CredentialName.isCredential(String(words[1]), at: place),
      !["absent", "no query", "no body"].contains(actual)
    {
      let present = "present: "
      copy.actual =
        actual.hasPrefix(present)
        ? present + LogRedaction.masked(String(actual.dropFirst(present.count)))
        : LogRedaction.masked(actual)
    } else {
      copy.actual = LogRedaction.mask(actual)
    }
    copy.expected = LogRedaction.mask(expected)
    return copy
  }

  /// `✗ field: expected …, got …`, masked, as reports list it.
  var reportLine: String {
    let masked = masked
    return "✗ \(masked.field): expected \(masked.expected), got \(masked.actual)"
  }
}
