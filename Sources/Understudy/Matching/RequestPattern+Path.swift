extension RequestPattern {
  /// Matches the request path exactly, or against a template when `template` has placeholders.
  ///
  /// `{name}` captures one non-empty segment and `{name...}` the rest of the path, slashes
  /// included; captured values are percent-decoded and reach the responder as path parameters. A
  /// trailing slash is significant: `/users` does not match `/users/`. A placeholder fills a whole
  /// segment (`/{name}.json` is a problem; use ``path(matching:)`` for that), and literals may be
  /// written decoded or percent-encoded (`/a b` and `/a%20b` are the same).
  ///
  /// ```swift
  /// .path("/health")              // exactly /health
  /// .path("/users/{id}")          // /users/42 captures ["id": "42"]
  /// .path("/files/{path...}")     // /files/a/b.txt captures ["path": "a/b.txt"]
  /// ```
  ///
  /// An invalid template (unbalanced braces, an empty or repeated name, `{name...}` before the
  /// last segment) puts a sentence in ``problems`` and never matches.
  public static func path(_ template: String) -> RequestPattern {
    let parsed: PathTemplate
    do {
      parsed = try PathTemplate(template)
    } catch {
      return .invalid(field: "path", expected: "~ \(template)", problem: error.description)
    }
    guard parsed.isLiteral else {
      return RequestPattern(
        Condition(
          field: "path", expected: "~ \(template)",
          template: TemplateTree.canFile(parsed) ? parsed : nil
        ) { request in
          if let captures = parsed.match(request.encodedPath) {
            return .matched(captures)
          }
          return .mismatched(actual: request.path.clipped())
        })
    }
    let exact = parsed.literalPrefix
    return RequestPattern(
      Condition(
        field: "path", expected: "== \(exact)", exactPath: exact, builtIn: .exactPath(exact)
      ) { request in
        request.path == exact ? .matched : .mismatched(actual: request.path.clipped())
      })
  }

  /// Matches paths that start with `prefix`, compared as text: include the trailing slash
  /// (`/api/`) to match whole segments only.
  public static func path(prefix: String) -> RequestPattern {
    let prefix = PathTemplate.decoded(Substring(prefix))
    return RequestPattern.builtIn(field: "path", expected: "has prefix \(prefix)") {
      request in
      request.path.hasPrefix(prefix) ? .matched : .mismatched(actual: request.path.clipped())
    }
  }

  /// Matches the percent-decoded path against a regular expression (`NSRegularExpression`
  /// syntax), found anywhere in the path unless you anchor it with `^` and `$`.
  ///
  /// Named groups become path parameters:
  ///
  /// ```swift
  /// .path(matching: #"^/users/(?<id>\d+)$"#)  // /users/42 captures ["id": "42"]
  /// ```
  ///
  /// An expression that does not compile puts a sentence in ``problems`` and never matches.
  public static func path(matching regex: String) -> RequestPattern {
    withRegex(regex, field: "path") { regex, expected in
      RequestPattern.builtIn(field: "path", expected: expected) { request in
        if let captures = regex.firstMatch(in: request.path) { return .matched(captures) }
        return .mismatched(actual: request.path.clipped())
      }
    }
  }
}
