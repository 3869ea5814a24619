// Body matchers see the bytes the protocol read once (from httpBody, the stream or the upload),
// so they agree with the journal. A request without a body counts as an empty one.

extension RequestPattern {
  /// Matches when the body is exactly `data`; a report gives both sizes and the first offset that
  /// differs.
  public static func body(_ data: Data) -> RequestPattern {
    RequestPattern.builtIn(
      field: "body", expected: "== \(data.count) bytes",
      key: "== bytes " + data.base64EncodedString()
    ) { request in
      let actual = request.body ?? Data()
      guard let offset = firstDifference(data, actual) else { return .matched }
      guard request.body != nil else { return .mismatched(actual: "no body") }
      return .mismatched(actual: "\(actual.count) bytes, first difference at offset \(offset)")
    }
  }

  /// Matches when the body is exactly `text` in UTF-8.
  ///
  /// ```swift
  /// .body("name=Ann")
  /// ```
  public static func body(_ text: String) -> RequestPattern {
    RequestPattern.builtIn(
      field: "body", expected: text.quotedForDescription(after: "== "), key: "== " + text
    ) {
      request in
      guard request.body != nil else {
        return text.isEmpty ? .matched : .mismatched(actual: "no body")
      }
      guard let actual = request.bodyText else { return .mismatched(actual: request.bodySummary) }
      guard let offset = firstDifference(text, actual) else { return .matched }
      return .mismatched(
        actual: "\(actual.maskedQuoted()), first difference at character \(offset)")
    }
  }

  /// Matches when the body, read as UTF-8 text, contains `text`.
  public static func body(containing text: String) -> RequestPattern {
    // Foundation on Linux lets a needle's trailing NULs run past the end of the text in an
    // unanchored search: `"xa".contains("a\0")` is true and `"éa".contains("a\0")` traps. Its
    // literal search answers both rightly, and a needle holding a NUL is bytes, not prose.
    let options: String.CompareOptions = text.utf8.contains(0) ? .literal : []
    return RequestPattern.builtIn(
      field: "body", expected: text.quotedForDescription(after: "contains "),
      key: "contains " + text
    ) { request in
      request.bodyText?.range(of: text, options: options) != nil
        ? .matched : .mismatched(actual: request.bodySummary)
    }
  }

  /// Matches when the body, read as UTF-8 text, matches a regular expression
  /// (`NSRegularExpression` syntax, found anywhere unless anchored).
  ///
  /// An expression that does not compile puts a sentence in ``problems`` and never matches.
  public static func body(matching regex: String) -> RequestPattern {
    withRegex(regex, field: "body") { regex, expected in
      RequestPattern.builtIn(field: "body", expected: expected) { request in
        request.bodyText.flatMap(regex.firstMatch) != nil
          ? .matched : .mismatched(actual: request.bodySummary)
      }
    }
  }

  /// Matches an `application/x-www-form-urlencoded` body that has every one of `fields` (other
  /// fields may be present); names and values are percent-decoded, with `+` read as a space.
  ///
  /// ```swift
  /// .post("/login") && .formBody(["user": "ann", "remember": "on"])
  /// ```
  public static func formBody(_ fields: [String: String]) -> RequestPattern {
    let expected = NameValuePairs(fields)
    return RequestPattern.builtIn(
      field: "body", expected: "has form fields " + expected.rendered(empty: "(none)"),
      key: "has form fields " + expected.key
    ) { request in
      guard let actual = request.formFields else { return .mismatched(actual: request.notAForm) }
      return actual.containsAll(expected)
        ? .matched : .mismatched(actual: "form fields " + actual.rendered(empty: "(none)"))
    }
  }

  /// Matches an `application/x-www-form-urlencoded` body that has a field `name`, with any
  /// value; the name is percent-decoded, with `+` read as a space.
  ///
  /// `understudy stub` writes this for a field whose recorded value was redacted, so the stub
  /// checks the field is sent without comparing it with a placeholder.
  ///
  /// ```swift
  /// .post("/login") && .formBody(["user": "ann"]) && .formField("password")
  /// ```
  public static func formField(_ name: String) -> RequestPattern {
    RequestPattern.builtIn(field: "body", expected: "has form field \(name)") { request in
      guard let actual = request.formFields else { return .mismatched(actual: request.notAForm) }
      return actual.pairs.contains { $0.name == name }
        ? .matched : .mismatched(actual: "form fields " + actual.rendered(empty: "(none)"))
    }
  }
}

extension InterceptedRequest {
  /// The body's fields as a form, or `nil` when it has no text or is multipart: a multipart
  /// body's text split at `&` and `=` would show its parts' values unmasked in a report.
  fileprivate var formFields: NameValuePairs? {
    guard let text = bodyText, multipartParts == nil else { return nil }
    return NameValuePairs(encoded: Substring(text), plusIsSpace: true)
  }

  /// What a report says of a body that is no form.
  fileprivate var notAForm: String {
    guard let parts = multipartParts else { return bodySummary }
    return "multipart/form-data, parts: " + parts.names
  }
}
