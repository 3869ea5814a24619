extension RequestPattern {
  /// The yes-or-no test of a condition on the request's method, one of its URL parts or a
  /// header, run by matching in a `switch`: every stub of a route repeats these (`.post(url)` is
  /// five of them),
  /// and a debug build (what `swift test` compiles) paid about 500 instructions for each through
  /// its closure and the `FieldCheck` it built, against about 100 here. Each case gives the
  /// verdict its condition's `check` gives; reports still ask `check`.
  enum BuiltInTest: Sendable {
    case method(String)
    /// The decoded path equals the text.
    case exactPath(String)
    /// The lower-cased scheme equals the (lower-cased) text.
    case scheme(String)
    /// The lower-cased host equals the (lower-cased) text.
    case host(String)
    /// The port, or the scheme's default, equals the number; see `portCondition`.
    case port(Int?, implied: Bool)
    /// A field named `name` (compared without case) has a value `value` accepts.
    case header(name: String, value: @Sendable (String) -> Bool)
    /// No field is named `name`.
    case noHeader(String)

    // Optionals are unwrapped by hand: `==` on two optionals is a generic call in a debug build.
    func passes(_ request: InterceptedRequest) -> Bool {
      switch self {
      case .method(let name): return request.methodName == name
      case .exactPath(let path): return request.path == path
      case .scheme(let scheme):
        guard let actual = request.scheme else { return false }
        return actual == scheme
      case .host(let host):
        guard let actual = request.host else { return false }
        return actual == host
      case .port(let port, let implied):
        let actual: Int
        if let named = request.port {
          actual = named
        } else if implied {
          return true
        } else if let known = RequestPattern.defaultPort(forScheme: request.scheme) {
          actual = known
        } else {
          return port == nil
        }
        guard let port else { return false }
        return actual == port
      case .header(let name, let value):
        return request.headers.contains(name, where: value)
      case .noHeader(let name):
        return !request.headers.contains(name)
      }
    }
  }
}
