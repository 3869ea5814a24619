// JSON matchers parse the expected document when the pattern is built and the body at most once
// per request (the registry shares one reading among all the stubs it tries), then compare
// values, so key order, whitespace and 1 versus 1.0 never matter. A subset is looked up on the
// body's tape (JSONTape, JSONSubsetPattern), which gives the same verdict without building the
// body.

extension RequestPattern {
  /// Matches when the body is JSON equal to `expected`, ignoring key order and whitespace;
  /// numbers compare by value, so `1` equals `1.0`.
  ///
  /// ```swift
  /// .jsonBody(["name": "Ann", "tags": ["a", "b"]])
  /// ```
  ///
  /// A report names the first JSON path that differs: `at $.tags[1]: expected "b", got "c"`.
  public static func jsonBody(_ expected: JSONValue) -> RequestPattern {
    jsonCondition(expected: "== JSON \(expected)", comparing: expected, mode: .equal)
  }

  /// Matches when the body is JSON equal to `value` encoded with `encoder`; the value is encoded
  /// once, when the pattern is built.
  ///
  /// ```swift
  /// .jsonBody(encoding: NewUser(name: "Ann", role: .admin))
  /// ```
  ///
  /// A value that fails to encode puts a sentence in ``problems`` and never matches.
  public static func jsonBody(
    encoding value: some Encodable & Sendable, encoder: JSONEncoder = JSONEncoder()
  ) -> RequestPattern {
    let expected: JSONValue
    do {
      expected = try JSONValue(parsing: encoder.encode(value))
    } catch {
      return .invalid(
        field: "body", expected: "== JSON encoding of \(type(of: value))",
        problem: "The expected JSON body of type \(type(of: value)) could not be encoded "
          + "(\(String(describing: error).clipped())); make it encodable with this encoder, or "
          + "pass a JSONValue.")
    }
    return jsonBody(expected)
  }

  /// Matches when the body is JSON containing `subset`: every key of an expected object must be
  /// in the actual object with a value that matches in the same way, recursively, and other keys
  /// may be present. Arrays must have the same length and match element by element, in order;
  /// scalars must be equal.
  ///
  /// ```swift
  /// .post("/users") && .jsonBody(subset: ["role": "admin"])
  /// ```
  ///
  /// A report names the first JSON path that differs: `at $.user: missing key "role"`.
  public static func jsonBody(subset: JSONValue) -> RequestPattern {
    jsonCondition(expected: "has JSON subset \(subset)", comparing: subset, mode: .subset)
  }

  private static func jsonCondition(
    expected: String, comparing value: JSONValue, mode: JSONDifference.Mode
  ) -> RequestPattern {
    let difference = JSONDifference(mode: mode)
    let subset = mode == .subset ? JSONSubsetPattern(value) : nil
    return RequestPattern(
      Condition(
        field: "body", expected: expected,
        // Matching only needs yes or no; the sentence saying where the body differs is for
        // reports. A subset is looked up on the body's tape when the body has one.
        test: { request in
          if let subset, let verdict = tapeVerdict(subset, request) { return verdict }
          guard case .value(let actual)? = jsonBody(of: request) else { return false }
          return difference.conforms(expected: value, actual: actual)
        }
      ) { request in
        switch jsonBody(of: request) {
        case nil:
          return .mismatched(actual: "no body")
        case .notJSON(let reason):
          return .mismatched(actual: "body is not JSON: " + reason)
        case .value(let actual):
          guard let found = difference.find(expected: value, actual: actual) else {
            return .matched
          }
          return .mismatched(actual: found.clipped())
        }
      })
  }

  /// Whether the body contains `subset`, read from the body's tape (shared through the
  /// registry's cache when there is one); `nil` when the body needs the full parse.
  private static func tapeVerdict(_ subset: JSONSubsetPattern, _ request: InterceptedRequest)
    -> Bool?
  {
    guard let body = request.body else { return false }
    guard let cache = request.jsonCache else { return subset.conforms(body) }
    guard let tape = cache.tape(of: body) else { return nil }
    return subset.conforms(tape)
  }

  /// The request's body read as JSON, from the cache the registry set up when there is one.
  private static func jsonBody(of request: InterceptedRequest) -> ParsedJSONBody? {
    guard let body = request.body else { return nil }
    guard let cache = request.jsonCache else { return parseJSON(body) }
    return cache.json(of: body, parse: parseJSON)
  }

  private static func parseJSON(_ body: Data) -> ParsedJSONBody {
    do {
      return .value(try JSONValue(parsing: body))
    } catch {
      return .notJSON(reason: notJSONReason(error, body: body))
    }
  }

  /// A short reason: the parser's own words where the platform gives detail, and how the body
  /// starts, which usually shows what it is instead (HTML, a form, a truncated document).
  private static func notJSONReason(_ error: any Error, body: Data) -> String {
    guard !body.isEmpty else { return "the body is empty" }
    var reason = "invalid JSON"
    if case DecodingError.dataCorrupted(let context) = error {
      let underlying = context.underlyingError as NSError?
      reason =
        underlying?.userInfo[NSDebugDescriptionErrorKey] as? String ?? context.debugDescription
    }
    // Darwin's and Linux's parsers word this differently; trim it to fit the sentence it joins.
    if reason.hasSuffix(".") { reason.removeLast() }
    let sentence = reason.prefix(1).lowercased() + reason.dropFirst()
    let start = String(decoding: body.prefix(32 * 20), as: UTF8.self)
    return "\(sentence.clipped(to: 60)); it starts \(start.maskedQuoted(limit: 32))"
  }
}
