/// How a live request is matched with a recorded one.
///
/// The default compares the method and the URL, with query items in any order. Add rules to be
/// stricter, or ignore volatile query parameters such as timestamps:
///
/// ```swift
/// let matching = ReplayMatching([.method, .host, .path, .query(ignoring: ["ts", "nonce"]), .jsonBody])
/// ```
public struct ReplayMatching: Sendable {
  /// One thing two requests must agree on.
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
    /// The body, byte for byte.
    case body
    /// The body as JSON, ignoring key order and whitespace.
    case jsonBody
    /// Your own comparison of the live request with the recorded one; `name` appears in reports.
    case custom(
      String, @Sendable (_ live: InterceptedRequest, _ recorded: InterceptedRequest) -> Bool)
  }

  /// The rules; all must hold.
  public var rules: [Rule]

  /// Creates a rule set.
  public init(_ rules: [Rule]) {
    self.rules = rules
  }

  /// Method and URL, with query items in any order.
  public static let `default` = ReplayMatching([.method, .url])

  /// The first rule `live` and `recorded` disagree on, or `nil` when they match.
  func firstDifference(_ live: InterceptedRequest, _ recorded: InterceptedRequest) -> String? {
    for rule in rules {
      switch rule {
      case .method:
        if live.method != recorded.method { return "method \(live.method) ≠ \(recorded.method)" }
      case .url:
        if !Self.sameOrigin(live.url, recorded.url) || live.path != recorded.path
          || Self.queryBag(live, ignoring: []) != Self.queryBag(recorded, ignoring: [])
        {
          return "URL \(live.url.absoluteString) ≠ \(recorded.url.absoluteString)"
        }
      case .host:
        if live.host != recorded.host {
          return "host \(live.host ?? "-") ≠ \(recorded.host ?? "-")"
        }
      case .path:
        if live.path != recorded.path { return "path \(live.path) ≠ \(recorded.path)" }
      case .query(let ignored):
        if Self.queryBag(live, ignoring: ignored) != Self.queryBag(recorded, ignoring: ignored) {
          return "query \(live.url.query ?? "") ≠ \(recorded.url.query ?? "")"
        }
      case .headers(let names):
        for name in names where live.headers.values(for: name) != recorded.headers.values(for: name)
        {
          return "header \(name)"
        }
      case .body:
        if (live.body ?? Data()) != (recorded.body ?? Data()) { return "body" }
      case .jsonBody:
        let liveJSON = live.body.flatMap { try? JSONValue(parsing: $0) }
        let recordedJSON = recorded.body.flatMap { try? JSONValue(parsing: $0) }
        if liveJSON != recordedJSON { return "JSON body" }
      case .custom(let name, let same):
        if !same(live, recorded) { return name }
      }
    }
    return nil
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
    return (pinsMethod ? request.method : "*") + " " + request.path
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
    for item in request.queryItems where !ignored.contains(item.name) {
      bag["\(item.name)=\(item.value ?? "")", default: 0] += 1
    }
    return bag
  }
}
