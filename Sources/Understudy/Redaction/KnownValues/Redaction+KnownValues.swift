extension Redaction {
  /// These rules plus secret values, each replaced by `<redacted:NAME>` wherever it appears,
  /// in any spelling: as written, percent-encoded, escaped in a JSON string, base64 (inside a
  /// longer run too) and hex, in URLs and their paths, header names and values, bodies, file
  /// names and every other string of a cassette. Once a cassette uses this redaction, every
  /// report and line the library prints in this process masks them too.
  ///
  /// Declare a secret the rules cannot find by its name, such as a token in a URL path:
  ///
  /// ```swift
  /// let redaction = Redaction.default.redactingValues(["stripe": stripeKey])
  /// ```
  ///
  /// Replay puts the value back where the placeholder stands (as a cassette's `restoring` option
  /// does), so the code under test gets the key the replaying process declares. A name that a
  /// placeholder cannot hold has those characters replaced by `_`.
  public func redactingValues(_ values: [String: String]) -> Redaction {
    var copy = self
    copy.knownValues.merge(values) { _, new in new }
    return copy
  }

  /// These rules, with the values of this process's credential-named environment variables
  /// (``environmentValueNames``) known values or not. ``default`` has them; turn them off for a
  /// cassette that must keep a value that also stands in the environment.
  public func redactingEnvironmentValues(_ redacts: Bool) -> Redaction {
    var copy = self
    copy.redactsEnvironmentValues = redacts
    return copy
  }

  /// The names of this process's environment variables whose values are known values when
  /// ``redactingEnvironmentValues(_:)`` has them on, sorted. A variable is one when its name
  /// reads as a credential's (`*_TOKEN`, `*_KEY`, `*SECRET*`, `*PASSWORD*`, `*_PAT`, `*_DSN`,
  /// `DATABASE_URL`, …; `*_ID`, `*_FILE` and `*_PATH` are not) and its value has at least 8
  /// characters. Print these to see what a recording will redact; the values are never shown.
  public static var environmentValueNames: [String] {
    KnownValues.environment.keys.sorted()
  }

  /// The known values, by placeholder name, that this redaction replaces: the declared ones
  /// and, when on, the environment's. Replay restores each where its placeholder stands.
  var knownValuesForReplay: [String: String] {
    var values: [String: String] = [:]
    if redactsEnvironmentValues {
      for (name, value) in KnownValues.environment {
        values[RedactionPlaceholder.cleanedName(from: name)] = value
      }
    }
    for (name, value) in knownValues {
      values[RedactionPlaceholder.cleanedName(from: name)] = value
    }
    // A URL's password, a connection string's: each restored where its own placeholder stands.
    for (name, value) in KnownValues.withParts(values) where values[name] == nil {
      values[RedactionPlaceholder.cleanedName(from: name)] = value
    }
    return values
  }
}
