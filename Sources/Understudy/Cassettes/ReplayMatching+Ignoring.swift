extension ReplayMatching {
  /// Parts of a request that replay matching leaves out of its comparisons: values that change on
  /// every run, such as timestamps, nonces and idempotency keys.
  struct Ignored: Sendable {
    var jsonPaths: [Redaction.JSONPath] = []
    var queryItems: Set<String> = []
    /// Lower-cased.
    var headers: Set<String> = []
    /// The requests the ignores apply to; every request when `nil`.
    var scope: RequestPattern?

    mutating func add(_ other: Ignored) {
      jsonPaths += other.jsonPaths
      queryItems.formUnion(other.queryItems)
      headers.formUnion(other.headers)
    }

    var isEmpty: Bool { jsonPaths.isEmpty && queryItems.isEmpty && headers.isEmpty }
  }

  /// These rules, with the named parts of requests left out of every comparison: JSON paths in
  /// bodies (in the syntax of ``Redaction/JSONPath``, as `$.sentAt` or `$..nonce`), query items and
  /// headers (names case-insensitive).
  ///
  /// Ignoring a part only matters to a rule that compares it: JSON paths to `.jsonBody` and
  /// `.body` (bodies that are JSON are compared as JSON then), query items to `.url` and
  /// `.query`, headers to `.headers` and `.allHeaders`. Ignoring a part no rule compares is
  /// reported as a problem of the cassette, so a matching that cannot do what it says fails.
  ///
  /// ```swift
  /// let matching = ReplayMatching([.method, .url, .jsonBody])
  ///   .ignoring(jsonPaths: ["$.sentAt"], queryItems: ["cacheBuster"])
  ///   .ignoring(jsonPaths: ["$.idempotencyKey"], for: .post("/payments"))
  /// ```
  ///
  /// - Parameters:
  ///   - jsonPaths: Values in JSON bodies to leave out: members are removed, array elements
  ///     compare as `null`. A path that does not parse is reported as a cassette problem.
  ///   - queryItems: Query items to leave out, by name.
  ///   - headers: Headers to leave out, by name.
  ///   - requests: Applies the ignores only to live requests this pattern matches (one endpoint's
  ///     entries, say); every request by default. A custom matcher in it runs as a custom rule
  ///     does: off URLSession's work queue, within the request's timeouts.
  public func ignoring(
    jsonPaths: [String] = [], queryItems: Set<String> = [], headers: Set<String> = [],
    for requests: RequestPattern? = nil
  ) -> ReplayMatching {
    var copy = self
    var ignored = Ignored(
      queryItems: queryItems, headers: Set(headers.map { $0.lowercased() }), scope: requests)
    for expression in jsonPaths {
      do {
        ignored.jsonPaths.append(try Redaction.JSONPath(expression))
      } catch {
        copy.problems.append("the ignored JSON path \(expression) does not parse: \(error)")
      }
    }
    if let requests {
      copy.problems += requests.problems.map { "the pattern \(requests) is invalid: \($0)" }
    }
    copy.ignores.append(ignored)
    copy.problems += copy.unusedIgnores(ignored)
    return copy
  }

  /// Why `ignored` would change nothing under these rules.
  private func unusedIgnores(_ ignored: Ignored) -> [String] {
    var comparesBody = false
    var comparesQuery = false
    var comparesHeaders = false
    for rule in rules {
      switch rule {
      case .body, .jsonBody: comparesBody = true
      case .url, .query: comparesQuery = true
      case .headers, .allHeaders: comparesHeaders = true
      default: break
      }
    }
    var problems: [String] = []
    if !ignored.jsonPaths.isEmpty && !comparesBody {
      problems.append(
        "JSON paths are ignored but no rule compares bodies; add .jsonBody to the rules")
    }
    if !ignored.queryItems.isEmpty && !comparesQuery {
      problems.append(
        "query items are ignored but no rule compares the query; add .url or .query(ignoring:)")
    }
    if !ignored.headers.isEmpty && !comparesHeaders {
      problems.append(
        "headers are ignored but no rule compares headers; add .allHeaders or .headers([...])")
    }
    return problems
  }

  /// What to leave out when comparing with `live`: the unscoped ignores and those whose pattern
  /// matches it.
  func ignored(for live: InterceptedRequest) -> Ignored {
    var total = Ignored()
    for ignored in ignores where ignored.scope == nil || ignored.scope?.match(live) != nil {
      total.add(ignored)
    }
    return total
  }
}

extension JSONValue {
  /// The value with what `path` selects left out: object members removed, array elements
  /// replaced by `null` (so the positions of the others stay comparable).
  func removing(_ path: Redaction.JSONPath) -> JSONValue {
    removing(path.steps[...])
  }

  private func removing(_ steps: ArraySlice<Redaction.JSONPath.Step>) -> JSONValue {
    guard let step = steps.first else { return self }
    let rest = steps.dropFirst()
    switch (step, self) {
    case (.member(let name), .object(var members)):
      guard let child = members[name] else { return self }
      // Not a ternary: JSONValue is ExpressibleByNilLiteral, so `nil` there would be `.null`.
      if rest.isEmpty {
        members.removeValue(forKey: name)
      } else {
        members[name] = child.removing(rest)
      }
      return .object(members)
    case (.index(let index), .array(var elements)) where elements.indices.contains(index):
      elements[index] = rest.isEmpty ? .null : elements[index].removing(rest)
      return .array(elements)
    case (.anyChild, .object(let members)):
      return .object(rest.isEmpty ? [:] : members.mapValues { $0.removing(rest) })
    case (.anyChild, .array(let elements)):
      return .array(elements.map { rest.isEmpty ? .null : $0.removing(rest) })
    case (.descendant(let name), _):
      // Below first, then here: a member removed here takes its subtree with it anyway.
      let here: Redaction.JSONPath.Step = name.map { .member($0) } ?? .anyChild
      let deeper: JSONValue
      switch self {
      case .object(let members): deeper = .object(members.mapValues { $0.removing(steps) })
      case .array(let elements): deeper = .array(elements.map { $0.removing(steps) })
      default: return self
      }
      return deeper.removing(ArraySlice([here] + rest))
    default:
      return self
    }
  }
}
