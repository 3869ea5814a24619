extension Redaction {
  /// These rules and `other`'s together: a traffic attachment applies the test's own rules and
  /// the defaults, even when the test chose ``none`` for its cassette.
  func including(_ other: Redaction) -> Redaction {
    Redaction(
      headerNames: headerNames + other.headerNames,
      queryParameterNames: queryParameterNames + other.queryParameterNames,
      jsonMemberNames: jsonMemberNames + other.jsonMemberNames,
      jsonPaths: jsonPaths + other.jsonPaths, bodyPatterns: bodyPatterns + other.bodyPatterns,
      credentialAllowances: credentialAllowances + other.credentialAllowances,
      knownValues: knownValues.merging(other.knownValues) { mine, _ in mine },
      redactsEnvironmentValues: redactsEnvironmentValues || other.redactsEnvironmentValues,
      readsNamesAsWords: readsNamesAsWords || other.readsNamesAsWords)
  }
}
