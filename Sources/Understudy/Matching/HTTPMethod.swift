/// An HTTP request method, such as `GET` or `POST`.
///
/// Methods are case-sensitive on the wire but conventionally upper-case; Understudy upper-cases
/// whatever it is given so `"post"` and `.post` name the same method.
///
/// ```swift
/// let pattern: RequestPattern = .method(.post) && .path("/users")
/// let purge: HTTPMethod = "PURGE"
/// ```
public struct HTTPMethod: RawRepresentable, ExpressibleByStringLiteral, Sendable, Hashable,
  CustomStringConvertible
{
  /// The upper-cased method name.
  public let rawValue: String

  /// Creates a method from its name, upper-casing it.
  public init(rawValue: String) {
    // Every request's method comes through here: the usual two are compared whole, which a
    // debug build does in one call, where walking the bytes costs it thousands of instructions.
    if rawValue == "GET" || rawValue == "POST" {
      self.rawValue = rawValue
      return
    }
    // Methods nearly always arrive upper-case already; uppercased() would still build a copy.
    let isUpperCase = rawValue.utf8.allSatisfy {
      $0 < UInt8(ascii: "a") || $0 > UInt8(ascii: "z")
    }
    self.rawValue = isUpperCase ? rawValue : rawValue.uppercased()
  }

  /// A method from a name already upper-cased, without upper-casing it again: requests carry
  /// their method upper-cased, and reading it is on every request's path.
  init(upperCased name: String) {
    self.rawValue = name
  }

  /// Creates a method from a literal such as `"PURGE"`.
  public init(stringLiteral value: String) {
    self.init(rawValue: value)
  }

  /// The method name.
  public var description: String { rawValue }

  /// `GET`.
  public static let get = HTTPMethod(rawValue: "GET")
  /// `POST`.
  public static let post = HTTPMethod(rawValue: "POST")
  /// `PUT`.
  public static let put = HTTPMethod(rawValue: "PUT")
  /// `PATCH`.
  public static let patch = HTTPMethod(rawValue: "PATCH")
  /// `DELETE`.
  public static let delete = HTTPMethod(rawValue: "DELETE")
  /// `HEAD`.
  public static let head = HTTPMethod(rawValue: "HEAD")
  /// `OPTIONS`.
  public static let options = HTTPMethod(rawValue: "OPTIONS")
  /// `TRACE`.
  public static let trace = HTTPMethod(rawValue: "TRACE")
  /// `CONNECT`.
  public static let connect = HTTPMethod(rawValue: "CONNECT")
}
