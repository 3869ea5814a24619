extension HAR {
  /// A name and a value: a header field or a query parameter, which the spec describes with the
  /// same members.
  public struct NameValue: Sendable, Equatable, HARReferenceCodable {
    /// The name as it was sent.
    public var name: String
    /// The value; query parameters are percent-decoded.
    public var value: String
    /// A comment from the user or the application; kept as read and written back.
    package var comment: String?

    /// Creates a name and value.
    public init(name: String, value: String) {
      self.name = name
      self.value = value
    }

    /// Creates a name and value with a comment, as an exporter may write one.
    package init(name: String, value: String, comment: String?) {
      self.name = name
      self.value = value
      self.comment = comment
    }

    private enum CodingKeys: String, CodingKey {
      case name, value, comment
    }

    /// Decodes a name and value; both must be present.
    package init(reference decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      name = try container.decode(String.self, forKey: .name)
      value = try container.decode(String.self, forKey: .value)
      comment = try container.decodeIfPresent(String.self, forKey: .comment)
    }

    /// Encodes the name and value, and the comment when there is one.
    package func encode(reference encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(name, forKey: .name)
      try container.encode(value, forKey: .value)
      try container.encodeIfPresent(comment, forKey: .comment)
    }
  }

  /// A header field of a request or response.
  public typealias Header = NameValue
}

extension [HAR.NameValue] {
  /// The fields ordered by name, ignoring case, with fields of the same name kept in their
  /// original order (the order of repeated headers such as `Set-Cookie` carries meaning).
  ///
  /// The recorder stores headers this way so a cassette does not change when a platform or
  /// library version sends the same headers in another order.
  package func sortedByName() -> [HAR.NameValue] {
    // Spelled out with its types: the chained closures took the type checker 8 s in every build.
    let keys: [String] = map { (field: HAR.NameValue) -> String in field.name.lowercased() }
    let order: [Int] = indices.sorted { (left: Int, right: Int) -> Bool in
      keys[left] != keys[right] ? keys[left] < keys[right] : left < right
    }
    return order.map { (index: Int) -> HAR.NameValue in self[index] }
  }
}
