extension RequestPattern {
  /// Matches one exact URL: scheme and host compared case-insensitively, default ports
  /// normalised (`https://a.test` is `https://a.test:443`), the path exactly, the query items as
  /// a multiset (order does not matter, repeats do); the fragment is ignored.
  ///
  /// ```swift
  /// .url("https://api.example.com/search?q=swift&page=2")
  /// ```
  ///
  /// For placeholders use ``get(_:)`` and friends or ``path(_:)``; a string that is not an
  /// absolute URL puts a sentence in ``problems`` and never matches.
  public static func url(_ string: String) -> RequestPattern {
    let expected = "== \(string)"
    if string.contains("{") {
      return .invalid(
        field: "url", expected: expected,
        problem: "URL \(string.quoted()) contains \"{\", but .url matches one exact URL; use "
          + ".get(\(string.quoted())) or .path(_:) for a template.")
    }
    guard let url = URL(string: string), url.scheme != nil else {
      return .invalid(
        field: "url", expected: expected,
        problem: "URL \(string.quoted()) is not an absolute URL; write it with its scheme and "
          + "host, as in \"https://api.example.com/users\".")
    }
    return .url(url)
  }

  /// Matches one exact URL, compared as ``url(_:)`` compares; a URL built relative to a base is
  /// compared as its absolute URL, the one a session would send. Users pass
  /// `url.absoluteString`, which spells the same URL.
  package static func url(_ url: URL) -> RequestPattern {
    let url = url.absoluteURL
    let expected = URLIdentity(url)
    return RequestPattern(
      Condition(
        field: "url", expected: "== \(url.absoluteString)", exactPath: expected.path,
        scheme: customScheme(expected.scheme)
      ) { request in
        let actual = URLIdentity(request)
        guard let part = expected.firstDifference(from: actual) else { return .matched }
        return .mismatched(
          actual: "\(request.url.absoluteString.clipped(to: 100)) (\(part) differs)")
      })
  }

  /// Matches the whole URL, as sent (`absoluteString`: percent-encoded, query and all), against a
  /// regular expression (`NSRegularExpression` syntax), found anywhere in it unless you anchor
  /// it with `^` and `$`. For Hippolyte's `RegexMatcher` and OHHTTPStubs' `urlMatches`; prefer
  /// ``url(_:)``, ``path(matching:)`` or ``query(_:_:)`` when one part is enough, since
  /// they need no escaping of `?`, `.` and `/`.
  ///
  /// ```swift
  /// .url(matching: #"^https://api\.example\.com/v[12]/users\?page=\d+$"#)
  /// ```
  ///
  /// Named groups become path parameters. An expression that does not compile puts a sentence in
  /// ``problems`` and never matches.
  public static func url(matching regex: String) -> RequestPattern {
    withRegex(regex, field: "url") { regex, expected in
      RequestPattern.builtIn(field: "url", expected: expected) { request in
        let url = request.url.absoluteString
        if let captures = regex.firstMatch(in: url) { return .matched(captures) }
        return .mismatched(actual: url.clipped())
      }
    }
  }

  /// Matches the URL's fragment (the text after `#`) exactly; `nil` matches a URL without one.
  /// Sessions never send a fragment to a server, but the request a stub sees keeps it, so code
  /// that routes on it (OAuth implicit flows, deep links) can be told apart. Replay's
  /// `.fragment` matcher.
  ///
  /// ```swift
  /// .get("/callback") && .fragment("access_granted")
  /// ```
  public static func fragment(_ fragment: String?) -> RequestPattern {
    RequestPattern.builtIn(
      field: "fragment", expected: fragment.map { "== \($0)" } ?? "absent"
    ) { request in
      let actual = request.url.fragment
      return actual == fragment ? .matched : .mismatched(actual: actual?.clipped() ?? "none")
    }
  }

  /// Matches the URL scheme, compared case-insensitively. Naming a scheme other than http or
  /// https makes sessions intercept that scheme.
  ///
  /// ```swift
  /// .scheme("myapp") && .host("handoff")
  /// ```
  public static func scheme(_ scheme: String) -> RequestPattern {
    // A URL's scheme is letters, digits, `+`, `-` and `.`: `https://` or `https:` is a typo that
    // would match nothing and intercept a scheme that does not exist.
    // Bytes, not characters: every byte is one of these exactly when every character is (a
    // byte outside them, or not ASCII, belongs to a character that is not), and a debug build
    // walks characters at a few hundred instructions each.
    guard !scheme.isEmpty, scheme.utf8.allSatisfy(ASCIIByte.isSchemeCharacter) else {
      let bare = scheme.prefix { $0 != ":" && $0 != "/" }
      return .invalid(
        field: "scheme", expected: "== \(scheme)",
        problem: "Scheme \(scheme.quoted(limit: 40)) matches no request: a scheme is letters, "
          + "digits, +, - and . only; write \(bare.isEmpty ? "\"https\"" : "\"\(bare)\"")"
          + " without \"://\".")
    }
    let scheme = scheme.lowercased()
    return RequestPattern(
      Condition(
        field: "scheme", expected: "== \(scheme)", scheme: customScheme(scheme),
        builtIn: .scheme(scheme)
      ) { request in
        request.scheme == scheme
          ? .matched : .mismatched(actual: request.scheme?.clipped() ?? "none")
      })
  }

  /// Matches the URL host, compared case-insensitively.
  public static func host(_ host: String) -> RequestPattern {
    guard !host.isEmpty else {
      return .invalid(
        field: "host", expected: "== ",
        problem: "An empty host matches no request; write the host, as "
          + ".host(\"api.example.com\"), or leave the condition out to match any host.")
    }
    // A URL's host never holds a scheme, a path or white space; `.host("https://api.example.com")`
    // would match nothing.
    let facts = asciiFacts(ofHost: host)
    let hasSlashOrSpace: Bool
    if let facts {
      hasSlashOrSpace = facts.slashOrSpace
    } else {
      hasSlashOrSpace = host.contains(where: { $0 == "/" || $0.isWhitespace })
    }
    if hasSlashOrSpace {
      let bare = host.components(separatedBy: "://").last?.prefix { $0 != "/" } ?? ""
      return .invalid(
        field: "host", expected: "== \(host)",
        problem: "Host \(host.quoted(limit: 60)) matches no request: a host has no scheme, path "
          + "or spaces; write .host(\"\(bare.trimmingCharacters(in: .whitespaces))\"), or use "
          + ".url(_:) to match the whole URL.")
    }
    // One colon is a port (an IPv6 address has several): the request's host never holds it.
    let colons = facts?.colons ?? host.count(where: { $0 == ":" })
    if colons == 1, !host.hasPrefix("[") {
      let parts = host.split(separator: ":", omittingEmptySubsequences: false)
      return .invalid(
        field: "host", expected: "== \(host)",
        problem: "Host \(host.quoted(limit: 60)) matches no request: a request's host has no port; "
          + "write .host(\"\(parts[0])\") && .port(\(parts[1])).")
    }
    let host = host.lowercased()
    return RequestPattern.builtIn(field: "host", expected: "== \(host)", test: .host(host)) {
      request in
      request.host == host ? .matched : .mismatched(actual: request.host?.clipped() ?? "none")
    }
  }

  /// For an ASCII host, whether it holds `/` or white space and how many `:` it holds, read in
  /// one pass over its bytes, where each character is its one byte (a debug build walks
  /// characters at a few hundred instructions each); `nil` when characters must be read.
  private static func asciiFacts(ofHost host: String) -> (slashOrSpace: Bool, colons: Int)? {
    let facts = host.utf8.withContiguousStorageIfAvailable { bytes -> (Bool, Int)? in
      var slashOrSpace = false
      var colons = 0
      var index = 0
      while index < bytes.count {
        let byte = bytes[index]
        if byte >= 0x80 { return nil }
        // `/`, a space, or tab to carriage return: the ASCII characters `isWhitespace` accepts.
        if byte == 0x2F || byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) { slashOrSpace = true }
        if byte == 0x3A { colons += 1 }
        index += 1
      }
      return (slashOrSpace, colons)
    }
    guard let facts, let facts else { return nil }
    return (facts.0, facts.1)
  }

  /// Matches the URL port; a URL without one has its scheme's default (80 for http, 443 for
  /// https).
  public static func port(_ port: Int) -> RequestPattern {
    guard (0...65_535).contains(port) else {
      return .invalid(
        field: "port", expected: "== \(port)",
        problem: "Port \(port) matches no request: a port is a number from 0 to 65535.")
    }
    return portCondition(port)
  }

  /// `nil` expects no port at all, for custom schemes that have no default. An `implied` port
  /// (one a target left to its scheme's default) also accepts a request that names no port, so a
  /// wrong scheme is reported as the scheme alone rather than as a scheme and a port.
  static func portCondition(_ port: Int?, implied: Bool = false) -> RequestPattern {
    RequestPattern.builtIn(
      field: "port", expected: port.map { "== \($0)" } ?? "absent",
      test: .port(port, implied: implied)
    ) { request in
      if implied && request.port == nil { return .matched }
      let actual = effectivePort(of: request)
      return actual == port ? .matched : .mismatched(actual: actual.map(String.init) ?? "none")
    }
  }

  /// The scheme to record in `Condition.scheme`: only schemes sessions would not claim anyway.
  static func customScheme(_ scheme: String?) -> String? {
    guard let scheme = scheme?.lowercased(), !NetworkSchemes.claimed.contains(scheme) else {
      return nil
    }
    return scheme
  }

  static func defaultPort(forScheme scheme: String?) -> Int? {
    switch scheme?.lowercased() {
    case "http", "ws": 80
    case "https", "wss": 443
    default: nil
    }
  }

  static func effectivePort(of url: URL) -> Int? {
    url.port ?? defaultPort(forScheme: url.scheme)
  }

  static func effectivePort(of request: InterceptedRequest) -> Int? {
    request.port ?? defaultPort(forScheme: request.scheme)
  }
}

/// The parts of a URL that `.url(_:)` compares, normalised so that spelling differences that do
/// not change the resource (case, default ports, query order) compare equal.
private struct URLIdentity {
  let scheme: String?
  let host: String?
  let port: Int?
  let path: String
  let query: [NameValuePairs.Pair: Int]

  init(_ url: URL) {
    let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    let path = components?.path ?? url.path
    scheme = url.scheme?.lowercased()
    host = url.host?.lowercased()
    port = RequestPattern.effectivePort(of: url)
    self.path = path.isEmpty ? "/" : path
    query = NameValuePairs(components?.queryItems ?? []).counts
  }

  init(_ request: InterceptedRequest) {
    scheme = request.scheme
    host = request.host
    port = RequestPattern.effectivePort(of: request)
    path = request.path
    query = NameValuePairs(request.queryItems).counts
  }

  /// The name of the first part that differs, so a report can point at it.
  func firstDifference(from other: URLIdentity) -> String? {
    if scheme != other.scheme { return "scheme" }
    if host != other.host { return "host" }
    if port != other.port { return "port" }
    if path != other.path { return "path" }
    if query != other.query { return "query" }
    return nil
  }
}
