// Header names compare case-insensitively (through HTTPHeaders) because FoundationNetworking
// canonicalises them; values compare exactly. A name sent several times matches when any of its
// values does.

extension RequestPattern {
  /// Matches when the header `name` has the value `value` (any of its values, when repeated).
  ///
  /// ```swift
  /// .header("Accept", "application/json")
  /// ```
  public static func header(_ name: String, _ value: String) -> RequestPattern {
    headerCondition(name, expected: "== \(value)") { $0 == value }
  }

  /// Matches when a value of the header `name` contains `text`.
  ///
  /// ```swift
  /// .header("Content-Type", containing: "json")
  /// ```
  public static func header(_ name: String, containing text: String) -> RequestPattern {
    // A test sends the same value each time and every stub of a route asks again: the last
    // verdict answers for the same value, as for a regular expression.
    let last = LastVerdict()
    return headerCondition(name, expected: "contains \(text)") { value in
      last.verdict(on: value) { $0.containsText(text) }
    }
  }

  /// Matches when a value of the header `name` matches a regular expression
  /// (`NSRegularExpression` syntax, found anywhere in the value unless anchored).
  ///
  /// ```swift
  /// .header("Authorization", matching: "^Bearer [A-Za-z0-9._-]+$")
  /// ```
  ///
  /// An expression that does not compile puts a sentence in ``problems`` and never matches.
  public static func header(_ name: String, matching regex: String) -> RequestPattern {
    if let invalid = invalid(name, expected: "matches regex \(regex)") { return invalid }
    return withRegex(regex, field: "header \(name)") { regex, expected in
      let last = LastVerdict()
      return headerCondition(name, expected: expected) { value in
        last.verdict(on: value) { regex.firstMatch(in: $0) != nil }
      }
    }
  }

  /// Matches when the header `name` is present, with any value.
  public static func header(_ name: String) -> RequestPattern {
    headerCondition(name, expected: "present") { _ in true }
  }

  /// Matches when the header `name` is absent.
  ///
  /// ```swift
  /// .get("/public") && .noHeader("Authorization")
  /// ```
  public static func noHeader(_ name: String) -> RequestPattern {
    if let invalid = invalid(name, expected: "absent") { return invalid }
    return RequestPattern(
      Condition(
        field: "header \(name)", expected: "absent", key: headerKey(name, "absent"),
        // Matching only asks whether the name is there; a report gathers the values it shows.
        builtIn: .noHeader(name)
      ) { request in
        let values = request.headers.values(for: name)
        return values.isEmpty ? .matched : .mismatched(actual: "present: " + rendered(values))
      })
  }

  /// A pattern that never matches and says why, when `name` is no header name a request can
  /// carry: matched, it would never match; as ``noHeader(_:)``, it would always match.
  private static func invalid(_ name: String, expected: String) -> RequestPattern? {
    guard let problem = HTTPHeaders.nameProblem(name) else { return nil }
    return .invalid(
      field: "header \(name)", expected: expected,
      problem: problem.prefix(1).uppercased() + problem.dropFirst()
        + "; write the name as the request sends it, such as \"X-Request-ID\"")
  }

  /// What a header condition compares by: names without case, as requests compare them.
  private static func headerKey(_ name: String, _ expected: String) -> String {
    "header " + name.lowercased() + "\u{1F}" + expected
  }

  private static func headerCondition(
    _ name: String, expected: String, test: @escaping @Sendable (String) -> Bool
  ) -> RequestPattern {
    if let invalid = invalid(name, expected: expected) { return invalid }
    return RequestPattern(
      Condition(
        field: "header \(name)", expected: expected, key: headerKey(name, expected),
        // Matching walks the fields in place; only a report needs the values gathered.
        builtIn: .header(name: name, value: test)
      ) { request in
        let values = request.headers.values(for: name)
        if values.contains(where: test) { return .matched }
        return .mismatched(actual: values.isEmpty ? "absent" : rendered(values))
      })
  }

  /// Several values joined as HTTP would fold them, clipped.
  private static func rendered(_ values: [String]) -> String {
    values.joined(separator: ", ").clipped()
  }
}
