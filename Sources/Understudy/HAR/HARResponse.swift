extension HAR {
  /// A response as it was received.
  public struct Response: Sendable, Equatable, HARReferenceCodable {
    /// The status code, such as `200`.
    public var status: Int
    /// The reason phrase, such as `OK`.
    public var statusText: String
    /// The HTTP version, such as `HTTP/1.1`; empty when the exporter did not say.
    package var httpVersion: String
    /// The cookies set, as parsed from `Set-Cookie` headers by the exporter.
    package var cookies: [Cookie]
    /// The header fields, in the order of the model.
    public var headers: [Header]
    /// The body and its type.
    public var content: Content
    /// The target of a redirect (the `Location` header), or empty.
    public var redirectURL: String
    /// The size of the status line and headers in bytes, or `-1` when unknown.
    package var headersSize: Int
    /// The size of the body as transferred in bytes, or `-1` when unknown.
    package var bodySize: Int
    /// A comment from the user or the application; kept as read and written back (a test notes
    /// an exchange in ``HAR/Entry/comment``).
    package var comment: String?

    /// Creates a response.
    package init(
      status: Int, statusText: String = "", httpVersion: String = "HTTP/1.1",
      cookies: [Cookie] = [], headers: [Header] = [], content: Content = Content(),
      redirectURL: String = "", headersSize: Int = -1, bodySize: Int = -1,
      comment: String? = nil
    ) {
      self.status = status
      self.statusText = statusText
      self.httpVersion = httpVersion
      self.cookies = cookies
      self.headers = headers
      self.content = content
      self.redirectURL = redirectURL
      self.headersSize = headersSize
      self.bodySize = bodySize
      self.comment = comment
    }

    /// Decodes a response; only `status` must be present, the rest get the spec's defaults when
    /// an exporter leaves them out.
    package init(reference decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      status = try container.decode(Int.self, forKey: .status)
      statusText = try container.decode(.statusText, or: "")
      httpVersion = try container.decode(.httpVersion, or: "")
      cookies = try container.decode(.cookies, or: [])
      headers = try container.decode(.headers, or: [])
      content = try container.decode(.content, or: Content())
      redirectURL = try container.decode(.redirectURL, or: "")
      headersSize = try container.decode(.headersSize, or: -1)
      bodySize = try container.decode(.bodySize, or: -1)
      comment = try container.decodeIfPresent(String.self, forKey: .comment)
    }

    /// Encodes every member, `comment` only when there is one.
    package func encode(reference encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(status, forKey: .status)
      try container.encode(statusText, forKey: .statusText)
      try container.encode(httpVersion, forKey: .httpVersion)
      try container.encode(cookies, forKey: .cookies)
      try container.encode(headers, forKey: .headers)
      try container.encode(content, forKey: .content)
      try container.encode(redirectURL, forKey: .redirectURL)
      try container.encode(headersSize, forKey: .headersSize)
      try container.encode(bodySize, forKey: .bodySize)
      try container.encodeIfPresent(comment, forKey: .comment)
    }

    enum CodingKeys: String, CodingKey {
      case status, statusText, httpVersion, cookies, headers, content, redirectURL, headersSize
      case bodySize, comment
    }
  }
}
