extension HAR {
  /// A cookie sent with a request or set by a response.
  package struct Cookie: Codable, Sendable, Hashable {
    /// The cookie's name.
    package var name: String
    /// The cookie's value.
    package var value: String
    /// The path the cookie applies to.
    package var path: String?
    /// The host the cookie applies to.
    package var domain: String?
    /// When the cookie expires, as the exporter wrote it. Kept as text because exporters write
    /// forms a date type would not round-trip (`null`, epoch dates, other time zones).
    package var expires: String?
    /// Whether the cookie is hidden from scripts.
    package var httpOnly: Bool?
    /// Whether the cookie is only sent over TLS.
    package var secure: Bool?
    /// A comment from the user or the application.
    package var comment: String?

    /// Creates a cookie.
    package init(
      name: String, value: String, path: String? = nil, domain: String? = nil,
      expires: String? = nil, httpOnly: Bool? = nil, secure: Bool? = nil, comment: String? = nil
    ) {
      self.name = name
      self.value = value
      self.path = path
      self.domain = domain
      self.expires = expires
      self.httpOnly = httpOnly
      self.secure = secure
      self.comment = comment
    }
  }
}
