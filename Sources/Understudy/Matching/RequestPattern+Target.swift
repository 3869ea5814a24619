// A target is what a developer copies from API docs: a path template, or a whole URL with a
// template path. Both become ordinary conditions (method, scheme, host, port, path, query), so a
// report names the one part that differed.

extension RequestPattern {
  /// Matches `method` and `target`.
  ///
  /// `target` is either
  /// - a path template starting with `/` (`/users/{id}`), matched as ``path(_:)`` does, on any
  ///   host; or
  /// - an absolute URL template with a scheme (`https://api.example.com/users/{id}`,
  ///   `myapp://handoff/open`): scheme, host and port must match exactly (a missing port means the
  ///   scheme's default) and the path as a template. A custom scheme makes sessions intercept it.
  ///
  /// A query in `target` (`/search?q=swift`) means the request's query contains those items, in
  /// any order, among others. The fragment is ignored. A target that is neither puts a sentence
  /// in ``problems`` and never matches.
  ///
  /// ```swift
  /// .request("PURGE", "/cache/{key}")
  /// ```
  public static func request(_ method: HTTPMethod, _ target: String) -> RequestPattern {
    // Built in one step: every test declares its stubs afresh, and a pattern built by four `&&`s
    // ordered and checked its conditions four times. Tests declare the same targets again, so
    // the patterns built are kept (`TargetPatternMemo`).
    TargetPatternMemo.pattern(method, target) {
      allOf([.method(method)] + targetConditions(target))
    }
  }

  /// `GET` `target`; see ``request(_:_:)`` for what `target` may be.
  ///
  /// ```swift
  /// .get("/users/{id}")
  /// .get("https://api.example.com/search?q=swift")
  /// ```
  public static func get(_ target: String) -> RequestPattern { request(.get, target) }

  /// `POST` `target`; see ``request(_:_:)`` for what `target` may be.
  public static func post(_ target: String) -> RequestPattern { request(.post, target) }

  /// `PUT` `target`; see ``request(_:_:)`` for what `target` may be.
  public static func put(_ target: String) -> RequestPattern { request(.put, target) }

  /// `PATCH` `target`; see ``request(_:_:)`` for what `target` may be.
  public static func patch(_ target: String) -> RequestPattern { request(.patch, target) }

  /// `DELETE` `target`; see ``request(_:_:)`` for what `target` may be.
  public static func delete(_ target: String) -> RequestPattern { request(.delete, target) }

  /// `HEAD` `target`; see ``request(_:_:)`` for what `target` may be.
  public static func head(_ target: String) -> RequestPattern { request(.head, target) }

  /// `OPTIONS` `target`; see ``request(_:_:)`` for what `target` may be.
  public static func options(_ target: String) -> RequestPattern { request(.options, target) }

  /// The conditions a target string stands for, to be joined with `&&`.
  ///
  /// The delimiters (`://`, `/`, `?`, `#`, `:`) are ASCII, so the target is scanned as UTF-8
  /// bytes: walking it by `Character`, testing each against a string of delimiters, cost more
  /// than the rest of declaring a stub.
  static func targetConditions(_ target: String) -> [RequestPattern] {
    if target.hasPrefix("/") { return pathAndQuery(Substring(target)) }
    guard let separator = target.range(of: "://"), isScheme(target[..<separator.lowerBound])
    else {
      return [
        .invalid(
          field: "target", expected: "== \(target)",
          problem: "Target \(target.quoted()) is neither a path starting with \"/\" nor an "
            + "absolute URL; write \"/\(target)\" or \"https://host/\(target)\".")
      ]
    }
    let scheme = target[..<separator.lowerBound]
    let rest = target[separator.upperBound...]
    let authorityEnd =
      rest.utf8.firstIndex {
        $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
      }
      ?? rest.endIndex
    let authority = rest[..<authorityEnd]
    if authority.contains("@") {
      return [
        .invalid(
          field: "target", expected: "== \(target)",
          problem: "Target \(target.quoted()) has user information before its host, which a "
            + "target does not match on; leave it out, and match credentials with "
            + ".header(\"Authorization\", …).")
      ]
    }
    let (host, portText) = splitAuthority(authority)
    // `https:///x` reads as no host at all, which would match every host: a slip of a slash.
    if host.isEmpty, ["http", "https", "ws", "wss"].contains(scheme.lowercased()) {
      let path = rest[authorityEnd...].drop { $0 == "/" }
      return [
        .invalid(
          field: "target", expected: "== \(target)",
          problem: "Target \(target.quoted()) has no host after \"://\"; write "
            + "\"\(scheme)://api.example.com/\(path)\" with the host, or \"/\(path)\" for any host."
        )
      ]
    }
    var conditions = [RequestPattern.scheme(String(scheme))]
    if !host.isEmpty {
      var port = defaultPort(forScheme: String(scheme))
      if let portText {
        guard let number = Int(portText), (0...65_535).contains(number) else {
          return [
            .invalid(
              field: "port", expected: "== \(portText)",
              problem: "Target \(target.quoted()) has the invalid port \(portText.quoted()); "
                + "write a number from 0 to 65535, or leave it out for the scheme's default.")
          ]
        }
        port = number
      }
      conditions += [.host(host), .portCondition(port, implied: portText == nil)]
    }
    return conditions + pathAndQuery(rest[authorityEnd...])
  }

  /// RFC 3986: a letter, then letters, digits, `+`, `-` or `.`.
  private static func isScheme(_ text: Substring) -> Bool {
    guard let first = text.utf8.first, ASCIIByte.isLetter(first) else { return false }
    return text.utf8.allSatisfy(ASCIIByte.isSchemeCharacter)
  }

  /// `host` and the text after `:`, if any; brackets around an IPv6 literal are dropped, as
  /// `URL.host` drops them.
  private static func splitAuthority(_ authority: Substring) -> (String, Substring?) {
    if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
      let host = authority[authority.index(after: authority.startIndex)..<close]
      let after = authority[authority.index(after: close)...]
      return (String(host), after.hasPrefix(":") ? after.dropFirst() : nil)
    }
    guard let colon = authority.lastIndex(of: ":") else { return (String(authority), nil) }
    return (String(authority[..<colon]), authority[authority.index(after: colon)...])
  }

  /// The conditions of a path template with an optional `?query` and `#fragment`.
  private static func pathAndQuery(_ text: Substring) -> [RequestPattern] {
    let withoutFragment = text[..<(text.utf8.firstIndex(of: UInt8(ascii: "#")) ?? text.endIndex)]
    let path =
      withoutFragment[
        ..<(withoutFragment.utf8.firstIndex(of: UInt8(ascii: "?")) ?? withoutFragment.endIndex)]
    let pattern = RequestPattern.path(path.isEmpty ? "/" : String(path))
    guard path.endIndex < withoutFragment.endIndex else { return [pattern] }
    let query = withoutFragment[withoutFragment.utf8.index(after: path.endIndex)...]
    let items = NameValuePairs(encoded: query, plusIsSpace: true)
    return items.pairs.isEmpty ? [pattern] : [pattern, .queryContaining(items)]
  }
}
