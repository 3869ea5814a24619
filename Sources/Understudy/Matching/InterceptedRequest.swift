/// A request as Understudy saw it: what matchers test, what the journal keeps, and what
/// responders receive.
///
/// The body is read once from wherever URLSession put it (`httpBody`, `httpBodyStream`, or an
/// upload task's body) so every matcher and the journal see the same bytes.
public struct InterceptedRequest: Sendable, CustomStringConvertible {
  // Every request's snapshot is copied into the journal, the stub's log, the in-flight table
  // and the responder; one reference makes each copy a retain instead of a dozen fields.
  private var storage: Storage

  /// The HTTP method, upper-cased (`GET` when the request named none).
  public var method: HTTPMethod {
    get { HTTPMethod(upperCased: storage.fields.method) }
    set { update { $0.method = newValue.rawValue } }
  }
  /// The method's name, for the matching paths that compare it as text on every request.
  var methodName: String { storage.fields.method }
  /// The full URL; fixed, because the path and ``queryItems`` are derived from it.
  public var url: URL { storage.fields.url.url }
  /// The header fields as the protocol received them.
  public var headers: HTTPHeaders {
    get { storage.fields.headers }
    set { update { $0.headers = newValue } }
  }
  /// The body bytes, or `nil` when the request had none.
  public var body: Data? {
    get { storage.fields.body }
    set {
      update { $0.body = newValue }
      jsonCache = nil
    }
  }
  /// Set by the registry while it looks for a stub, so JSON matchers parse the body once. Kept
  /// beside the storage, not in it, so setting it does not copy the shared fields.
  var jsonCache: ParsedJSONBodyCache?
  /// Values captured by path templates (`/users/{id}` gives `["id": "42"]`), filled in when a stub
  /// matches.
  public var pathParameters: [String: String] {
    get { storage.fields.pathParameters }
    set { update { $0.pathParameters = newValue } }
  }
  /// The timeout the caller asked for, in seconds.
  public var timeoutInterval: TimeInterval {
    get { storage.fields.timeoutInterval }
    set { update { $0.timeoutInterval = newValue } }
  }

  /// The URL's path, percent-decoded (`/` when empty).
  var path: String { storage.fields.url.path }
  /// The URL's path as written, percent-encoded, for templates: an encoded slash stays inside its
  /// segment.
  var encodedPath: String { storage.fields.url.encodedPath }
  /// The URL's query items, percent-decoded, in the order they appear.
  public var queryItems: [URLQueryItem] { storage.fields.url.queryItems }
  /// The URL's host, lower-cased.
  var host: String? { storage.fields.url.host }
  /// The URL's scheme, lower-cased: read once here, since `URL.scheme` costs hundreds of
  /// instructions and every stub whose pattern names a full URL checks it.
  var scheme: String? { storage.fields.url.scheme }
  /// The port the URL names, if any: read once here for the same reason, since every stub
  /// whose pattern names a full URL checks it too.
  var port: Int? { storage.fields.url.port }

  /// Creates a request snapshot.
  public init(
    method: HTTPMethod = .get, url: URL, headers: HTTPHeaders = [:], body: Data? = nil,
    timeoutInterval: TimeInterval = 60
  ) {
    storage = Storage(
      Fields(
        method: method.rawValue, url: ParsedURL.of(url), headers: headers, body: body,
        timeoutInterval: timeoutInterval))
  }

  /// The fields, shared by copies: a change replaces the box. Not `CopyOnWrite`: matching reads
  /// these for every condition of every stub it tries, and a debug build (what `swift test`
  /// compiles) read them through that generic accessor at about 240 instructions a read; a
  /// constant of a concrete class is a load, with no exclusivity check.
  private final class Storage: Sendable {
    let fields: Fields

    init(_ fields: Fields) {
      self.fields = fields
    }
  }

  /// Changes a field of this snapshot only; requests are changed rarely (captured path values,
  /// a drained body), so a new box each time costs less than matching paid for the old one.
  private mutating func update(_ change: (inout Fields) -> Void) {
    var fields = storage.fields
    change(&fields)
    storage = Storage(fields)
  }

  /// The fields, shared by copies until one of them changes a field.
  private struct Fields: Sendable {
    var method: String
    let url: ParsedURL
    var headers: HTTPHeaders
    var body: Data?
    // `[:]` would call the dictionary-literal initialiser on every request; this is inlined.
    var pathParameters = [String: String]()
    var timeoutInterval: TimeInterval
  }

  /// Creates a snapshot of `request`, taking the body from `body` when given (the protocol passes
  /// the drained stream or upload body here) and from `httpBody` otherwise.
  package init(_ request: URLRequest, body: Data? = nil) {
    self.init(
      method: HTTPMethod(rawValue: request.httpMethod ?? "GET"),
      url: request.url ?? URL(string: "about:blank")!,
      headers: Self.sharedHeaders(of: request.allHTTPHeaderFields ?? [:]),
      body: body ?? request.httpBody,
      timeoutInterval: request.timeoutInterval
    )
  }

  /// The header list of a request's fields, shared with the last requests that sent the same
  /// fields: each snapshot the journal keeps would otherwise keep a list of its own.
  static func sharedHeaders(
    of fields: [String: String], in recent: RecentReadings<[String: String], HTTPHeaders> = sent
  ) -> HTTPHeaders {
    fields.isEmpty ? HTTPHeaders() : recent.reading(fields, HTTPHeaders.init)
  }

  /// The fields of the last two requests; comparing a request's fields with them costs a lookup
  /// of each name, so few are kept.
  static let sent = RecentReadings<[String: String], HTTPHeaders>(capacity: 2)

  /// The request as a `URLRequest`, with the body back in `httpBody` so code that reads it works.
  var urlRequest: URLRequest {
    var request = URLRequest(url: url, timeoutInterval: timeoutInterval)
    request.httpMethod = method.rawValue
    for field in headers {
      request.addValue(field.value, forHTTPHeaderField: field.name)
    }
    request.httpBody = body
    return request
  }

  /// The body decoded as UTF-8, or `nil` when there is no body or it is not UTF-8.
  var bodyText: String? {
    body.flatMap { String(data: $0, encoding: .utf8) }
  }

  /// The first value of the query item `name`.
  public func queryValue(_ name: String) -> String? {
    queryItems.first { $0.name == name }?.value
  }

  /// `METHOD url`, with credentials in the URL (userinfo, `access_token=` and the like) masked,
  /// since descriptions end up in logs, and so is a value the request holds under a credential's
  /// name where the URL repeats it (a bearer token as a path segment).
  public var description: String {
    described(hiding: RequestSecrets.values(of: self, redaction: nil))
  }

  /// ``description`` masking `secrets` rather than the values the request holds: for a caller
  /// that has read those, and more, already (a journal entry reads its answer too).
  func described(hiding secrets: some Collection<String>) -> String {
    // The method too: a known value can stand there (a crafted request, a cassette's entry).
    LogRedaction.mask(
      "\(method.shown) \(LogRedaction.mask(url: url.absoluteString))", hiding: secrets)
  }
}
