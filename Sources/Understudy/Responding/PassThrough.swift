/// How a request is changed before it goes to the real server.
///
/// ```swift
/// // Send everything under /api to a local server instead of production.
/// registry.stub(.path(prefix: "/api"), .passThrough(PassThrough(baseURL: localServer)))
/// ```
public struct PassThrough: Sendable {
  /// Replaces scheme, host and port (and prefixes the base URL's path) when set.
  package var baseURL: URL?
  /// Header fields added to (or replacing those of) the request.
  package var addedHeaders: HTTPHeaders
  /// A final change of your own, applied after the others.
  package var transform: (@Sendable (inout URLRequest) -> Void)?

  /// Creates a rewrite; with no arguments the request goes out unchanged.
  public init(
    baseURL: URL? = nil, addedHeaders: HTTPHeaders = [:],
    transform: (@Sendable (inout URLRequest) -> Void)? = nil
  ) {
    self.baseURL = baseURL
    self.addedHeaders = addedHeaders
    self.transform = transform
  }

  /// The request that goes to the network.
  func apply(to request: InterceptedRequest) -> URLRequest {
    var outgoing = request.urlRequest
    if let baseURL, var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
    {
      components.scheme = baseURL.scheme
      components.host = baseURL.host
      components.port = baseURL.port
      let prefix = baseURL.path.hasSuffix("/") ? String(baseURL.path.dropLast()) : baseURL.path
      components.percentEncodedPath = prefix + components.percentEncodedPath
      outgoing.url = components.url ?? request.url
    }
    for field in addedHeaders {
      outgoing.setValue(field.value, forHTTPHeaderField: field.name)
    }
    transform?(&outgoing)
    return outgoing
  }
}
