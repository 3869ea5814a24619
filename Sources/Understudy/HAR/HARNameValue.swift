extension HAR {
  /// A name and a value: a header field or a query parameter, which the spec describes with the
  /// same members.
  public struct NameValue: Codable, Sendable, Hashable {
    /// The name as it was sent.
    public var name: String
    /// The value; query parameters are percent-decoded.
    public var value: String
    /// A comment from the user or the application.
    public var comment: String?

    /// Creates a name and value.
    public init(name: String, value: String, comment: String? = nil) {
      self.name = name
      self.value = value
      self.comment = comment
    }
  }

  /// A header field of a request or response.
  public typealias Header = NameValue

  /// A query parameter parsed from a request URL.
  public typealias QueryParameter = NameValue
}

extension [HAR.NameValue] {
  /// The fields ordered by name, ignoring case, with fields of the same name kept in their
  /// original order (the order of repeated headers such as `Set-Cookie` carries meaning).
  ///
  /// The recorder stores headers this way so a cassette does not change when a platform or
  /// library version sends the same headers in another order.
  package func sortedByName() -> [HAR.NameValue] {
    enumerated()
      .map { (key: $0.element.name.lowercased(), index: $0.offset, field: $0.element) }
      .sorted { $0.key != $1.key ? $0.key < $1.key : $0.index < $1.index }
      .map(\.field)
  }
}
