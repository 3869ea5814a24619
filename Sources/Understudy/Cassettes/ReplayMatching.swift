/// How a live request is matched with a recorded one.
///
/// The default compares the method and the URL, with query items in any order. Add rules to be
/// stricter, or ignore volatile query parameters such as timestamps:
///
/// ```swift
/// let matching = ReplayMatching([.method, .host, .path, .query(ignoring: ["ts", "nonce"]), .jsonBody])
/// ```
///
/// ``ignoring(jsonPaths:queryItems:headers:for:)`` leaves values that change on every run out of
/// every rule's comparison, for all requests or for those a pattern matches.
public struct ReplayMatching: Sendable {
  /// One thing two requests must agree on.
  #if hasAttribute(nonexhaustive)
    @nonexhaustive
  #endif
  public enum Rule: Sendable {
    /// The HTTP method.
    case method
    /// Scheme, host, port, path and query (items in any order).
    case url
    /// The host, case-insensitively.
    case host
    /// The path.
    case path
    /// The query items in any order, leaving out the named parameters.
    case query(ignoring: Set<String>)
    /// The named headers (names case-insensitive), each with the same values.
    case headers([String])
    /// Every header (names case-insensitive, values in order), as VCR's `:headers` matcher;
    /// leave out those that change with ``ReplayMatching/ignoring(jsonPaths:queryItems:headers:for:)``.
    case allHeaders
    /// The URL's fragment (after `#`), exactly; a request without one matches only an entry
    /// without one. Replay's `.fragment`.
    case fragment
    /// The body, byte for byte.
    case body
    /// The body as JSON, ignoring key order and whitespace.
    case jsonBody
    /// Your own comparison of the live request with the recorded one; `name` appears in reports.
    case custom(
      String, @Sendable (_ live: InterceptedRequest, _ recorded: InterceptedRequest) -> Bool)
  }

  /// The rules; all must hold.
  package var rules: [Rule]
  /// What the rules leave out, each for all requests or for those its pattern matches.
  var ignores: [Ignored] = []
  /// Why the rules cannot work as declared (an ignored JSON path that does not parse, say).
  var problems: [String] = []

  /// Creates a rule set.
  public init(_ rules: [Rule]) {
    self.rules = rules
  }

  /// Whether a rule, or a pattern scoping what is ignored, is the test's own closure, which
  /// never runs on a URLSession work queue.
  var runsUserCode: Bool {
    rules.contains { if case .custom = $0 { true } else { false } }
      || ignores.contains { $0.scope?.runsUserCode == true }
  }

  /// Method and URL, with query items in any order.
  public static let `default` = ReplayMatching([.method, .url])

  /// The first rule `live` and `recorded` disagree on, or `nil` when they match.
  func firstDifference(_ live: InterceptedRequest, _ recorded: InterceptedRequest) -> String? {
    let ignored = ignores.isEmpty ? Ignored() : self.ignored(for: live)
    for rule in rules {
      switch rule {
      case .method:
        if live.method != recorded.method {
          return "method \(live.method.shown) ≠ \(recorded.method.shown)"
        }
      case .url:
        if !Self.sameOrigin(live.url, recorded.url) || live.path != recorded.path
          || Self.queryBag(live, ignoring: ignored.queryItems)
            != Self.queryBag(recorded, ignoring: ignored.queryItems)
        {
          return "URL \(live.url.absoluteString) ≠ \(recorded.url.absoluteString)"
            + Self.noting(ignored.queryItems, "query items")
        }
      case .host:
        if live.host != recorded.host {
          return "host \(live.host ?? "-") ≠ \(recorded.host ?? "-")"
        }
      case .path:
        if live.path != recorded.path { return "path \(live.path) ≠ \(recorded.path)" }
      case .fragment:
        if live.url.fragment != recorded.url.fragment {
          return "fragment \(live.url.fragment ?? "-") ≠ \(recorded.url.fragment ?? "-")"
        }
      case .query(let names):
        let left = names.union(ignored.queryItems)
        if Self.queryBag(live, ignoring: left) != Self.queryBag(recorded, ignoring: left) {
          return "query \(live.url.query ?? "") ≠ \(recorded.url.query ?? "")"
            + Self.noting(left, "query items")
        }
      case .headers(let names):
        for name in names where !ignored.headers.contains(name.lowercased()) {
          if live.headers.values(for: name) != recorded.headers.values(for: name) {
            return "header \(name)"
          }
        }
      case .allHeaders:
        if let name = Self.firstDifferentHeader(live, recorded, ignoring: ignored.headers) {
          return "header \(name)" + Self.noting(ignored.headers, "headers")
        }
      case .body:
        if (live.body ?? Data()) != (recorded.body ?? Data()) {
          // Left-out paths only make sense in JSON: other bodies still compare byte for byte.
          let paths = ignored.jsonPaths
          guard !paths.isEmpty, let liveJSON = Self.json(live.body, ignoring: paths),
            liveJSON == Self.json(recorded.body, ignoring: paths)
          else { return "body" + Self.noting(paths.map(\.expression), "JSON paths") }
        }
      case .jsonBody:
        let paths = ignored.jsonPaths
        if Self.json(live.body, ignoring: paths) != Self.json(recorded.body, ignoring: paths) {
          return "JSON body" + Self.noting(paths.map(\.expression), "JSON paths")
        }
      case .custom(let name, let same):
        if !same(live, recorded) { return name }
      }
    }
    return nil
  }

  /// The body as JSON with `paths` left out; `nil` when there is none or it is not JSON.
  private static func json(_ body: Data?, ignoring paths: [Redaction.JSONPath]) -> JSONValue? {
    guard let body, var value = try? JSONValue(parsing: body) else { return nil }
    for path in paths { value = value.removing(path) }
    return value
  }

  private static func firstDifferentHeader(
    _ live: InterceptedRequest, _ recorded: InterceptedRequest, ignoring ignored: Set<String>
  ) -> String? {
    var names: [String] = []
    var seen: Set<String> = []
    for field in live.headers.fields + recorded.headers.fields {
      let lowered = field.name.lowercased()
      if !ignored.contains(lowered), seen.insert(lowered).inserted { names.append(field.name) }
    }
    return names.first { live.headers.values(for: $0) != recorded.headers.values(for: $0) }
  }

  /// `" (ignoring a, b)"` when anything of `kind` is ignored, so a miss report shows what was
  /// left out of the comparison that still failed.
  private static func noting<Names: Sequence>(_ names: Names, _ kind: String) -> String {
    let listed = names.map { "\($0)" }.sorted()
    return listed.isEmpty ? "" : " (ignoring \(kind) \(listed.joined(separator: ", ")))"
  }

  /// A key that every matching pair shares, so replay can look candidates up instead of
  /// scanning the whole cassette; `nil` when the rules pin nothing indexable.
  func indexKey(_ request: InterceptedRequest) -> String? {
    let pinsMethod = rules.contains { if case .method = $0 { return true } else { return false } }
    let pinsPath = rules.contains {
      switch $0 {
      case .url, .path: return true
      default: return false
      }
    }
    guard pinsPath else { return nil }
    return (pinsMethod ? request.methodName : "*") + " " + request.path
  }

  private static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
    a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
      && (a.port ?? defaultPort(a)) == (b.port ?? defaultPort(b))
  }

  private static func defaultPort(_ url: URL) -> Int? {
    switch url.scheme?.lowercased() {
    case "http": return 80
    case "https": return 443
    default: return nil
    }
  }

  private static func queryBag(_ request: InterceptedRequest, ignoring ignored: Set<String>)
    -> [String: Int]
  {
    var bag: [String: Int] = [:]
    // `?key` and `?key=` stay apart, as servers can tell them apart (Replay's matcher does too).
    for item in request.queryItems where !ignored.contains(item.name) {
      bag[item.value.map { "\(item.name)=\($0)" } ?? item.name, default: 0] += 1
    }
    return bag
  }
}
