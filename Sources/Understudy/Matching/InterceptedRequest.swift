/// A request as Understudy saw it: what matchers test, what the journal keeps, and what
/// responders receive.
///
/// The body is read once from wherever URLSession put it (`httpBody`, `httpBodyStream`, or an
/// upload task's body) so every matcher and the journal see the same bytes.
public struct InterceptedRequest: Sendable, CustomStringConvertible {
  /// The HTTP method, upper-cased (`GET` when the request named none).
  public var method: String
  /// The full URL; fixed, because ``path`` and ``queryItems`` are derived from it.
  public let url: URL
  /// The header fields as the protocol received them.
  public var headers: HTTPHeaders
  /// The body bytes, or `nil` when the request had none.
  public var body: Data? {
    didSet { jsonCache = nil }
  }
  /// Set by the registry while it looks for a stub, so JSON matchers parse the body once.
  var jsonCache: ParsedJSONBodyCache?
  /// Values captured by path templates (`/users/{id}` gives `["id": "42"]`), filled in when a stub
  /// matches.
  public var pathParameters: [String: String]
  /// The timeout the caller asked for, in seconds.
  public var timeoutInterval: TimeInterval

  /// The URL's path, percent-decoded (`/` when empty).
  public let path: String
  /// The URL's path as written, percent-encoded, for templates: an encoded slash stays inside its
  /// segment.
  let encodedPath: String
  /// The URL's query items, percent-decoded, in the order they appear.
  public let queryItems: [URLQueryItem]
  /// The URL's host, lower-cased.
  public let host: String?

  /// Creates a request snapshot.
  public init(
    method: String = "GET", url: URL, headers: HTTPHeaders = [:], body: Data? = nil,
    timeoutInterval: TimeInterval = 60
  ) {
    // Methods nearly always arrive upper-case already; uppercased() would still build a copy.
    let isUpperCase = method.utf8.allSatisfy { $0 < UInt8(ascii: "a") || $0 > UInt8(ascii: "z") }
    self.method = isUpperCase ? method : method.uppercased()
    self.url = url
    self.headers = headers
    self.body = body
    self.pathParameters = [:]
    self.timeoutInterval = timeoutInterval
    // Decoding the host costs more than the rest of this initialiser; hosts rarely hold a `%`.
    let encodedHost = url.host(percentEncoded: true)
    let hasEscapes = encodedHost?.utf8.contains(UInt8(ascii: "%")) ?? false
    self.host = (hasEscapes ? url.host : encodedHost)?.lowercased()
    // Every request pays for this, so skip URLComponents (a second parse of the URL) when the
    // URL's own accessors give the same answer: an absolute URL's path, and no query. A relative
    // URL keeps URLComponents, which reads the relative part only.
    if url.baseURL == nil {
      let encoded = url.path(percentEncoded: true)
      // utf8.contains: `contains("%")` resolves to Foundation's substring search, ~30x slower.
      let decoded =
        encoded.utf8.contains(UInt8(ascii: "%")) ? url.path(percentEncoded: false) : encoded
      self.path = decoded.isEmpty ? "/" : decoded
      self.encodedPath = encoded
      self.queryItems =
        url.query(percentEncoded: true) == nil
        ? [] : URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    } else {
      let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
      let path = components?.path ?? url.path
      self.path = path.isEmpty ? "/" : path
      self.encodedPath = url.path(percentEncoded: true)
      self.queryItems = components?.queryItems ?? []
    }
  }

  /// Creates a snapshot of `request`, taking the body from `body` when given (the protocol passes
  /// the drained stream or upload body here) and from `httpBody` otherwise.
  public init(_ request: URLRequest, body: Data? = nil) {
    self.init(
      method: request.httpMethod ?? "GET",
      url: request.url ?? URL(string: "about:blank")!,
      headers: HTTPHeaders(request.allHTTPHeaderFields ?? [:]),
      body: body ?? request.httpBody,
      timeoutInterval: request.timeoutInterval
    )
  }

  /// The request as a `URLRequest`, with the body back in `httpBody` so code that reads it works.
  public var urlRequest: URLRequest {
    var request = URLRequest(url: url, timeoutInterval: timeoutInterval)
    request.httpMethod = method
    for field in headers {
      request.addValue(field.value, forHTTPHeaderField: field.name)
    }
    request.httpBody = body
    return request
  }

  /// The body decoded as UTF-8, or `nil` when there is no body or it is not UTF-8.
  public var bodyText: String? {
    body.flatMap { String(data: $0, encoding: .utf8) }
  }

  /// The first value of the query item `name`.
  public func queryValue(_ name: String) -> String? {
    queryItems.first { $0.name == name }?.value
  }

  /// `METHOD url`.
  public var description: String { "\(method) \(url.absoluteString)" }
}
