extension HAR {
  /// A request as it was sent.
  public struct Request: Sendable, Equatable, HARReferenceCodable {
    /// The method, such as `GET`.
    public var method: String
    /// The absolute URL, without a fragment. Kept as text so exports with URLs Foundation would
    /// reject still load; ``interceptedRequest()`` parses it.
    public var url: String {
      didSet { parsedURL = ParsedURL() }
    }
    /// ``url`` as the loader parsed it to check it, so replay does not parse every URL of a
    /// cassette a second time (a tenth of loading a large one).
    var parsedURL = ParsedURL()
    /// The HTTP version, such as `HTTP/1.1`; empty when the exporter did not say.
    package var httpVersion: String
    /// The cookies sent, as parsed from the `Cookie` header by the exporter.
    package var cookies: [Cookie]
    /// The header fields, in the order of the model (`sortedByName()` orders them).
    public var headers: [Header]
    /// The query parameters parsed from ``url``, percent-decoded.
    public var queryString: [NameValue]
    /// The body, when there was one.
    public var postData: PostData? {
      get { postDataBox?.value }
      set { postDataBox = newValue.map(Boxed.init) }
    }
    /// Boxed: most requests have none, and inline it made every entry of a loaded cassette
    /// 120 bytes larger (issue 17).
    private var postDataBox: Boxed<PostData>?
    /// The size of the request line and headers in bytes, or `-1` when unknown.
    package var headersSize: Int
    /// The size of the body in bytes, or `-1` when unknown.
    package var bodySize: Int
    /// A comment from the user or the application; kept as read and written back (a test notes
    /// an exchange in ``HAR/Entry/comment``).
    package var comment: String?

    /// Creates a request.
    package init(
      method: String, url: String, httpVersion: String = "HTTP/1.1", cookies: [Cookie] = [],
      headers: [Header] = [], queryString: [NameValue] = [], postData: PostData? = nil,
      headersSize: Int = -1, bodySize: Int = -1, comment: String? = nil
    ) {
      self.method = method
      self.url = url
      self.httpVersion = httpVersion
      self.cookies = cookies
      self.headers = headers
      self.queryString = queryString
      self.postDataBox = postData.map(Boxed.init)
      self.headersSize = headersSize
      self.bodySize = bodySize
      self.comment = comment
    }

    /// Decodes a request; only `method` and `url` must be present, the rest get the spec's
    /// defaults when an exporter leaves them out.
    package init(reference decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      method = try container.decode(String.self, forKey: .method)
      url = try container.decode(String.self, forKey: .url)
      // Checked here so the error names the file, the entry and the line, not a later replay.
      guard let parsed = URL(string: url) else {
        throw HARValueProblem(
          kind: .invalidValue, codingPath: container.codingPath + [CodingKeys.url],
          problem: "\"\(url)\" is not a URL Foundation can parse",
          fix: "Percent-encode the characters that are not allowed in URLs, such as spaces.")
      }
      parsedURL = ParsedURL(parsed)
      httpVersion = try container.decode(.httpVersion, or: "")
      cookies = try container.decode(.cookies, or: [])
      headers = try container.decode(.headers, or: [])
      queryString = try container.decode(.queryString, or: [])
      postDataBox = try container.decodeIfPresent(PostData.self, forKey: .postData).map(Boxed.init)
      headersSize = try container.decode(.headersSize, or: -1)
      bodySize = try container.decode(.bodySize, or: -1)
      comment = try container.decodeIfPresent(String.self, forKey: .comment)
    }

    /// Encodes the request member by member, as the synthesized encoding did when the post data
    /// was stored inline.
    package func encode(reference encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(method, forKey: .method)
      try container.encode(url, forKey: .url)
      try container.encode(httpVersion, forKey: .httpVersion)
      try container.encode(cookies, forKey: .cookies)
      try container.encode(headers, forKey: .headers)
      try container.encode(queryString, forKey: .queryString)
      try container.encodeIfPresent(postData, forKey: .postData)
      try container.encode(headersSize, forKey: .headersSize)
      try container.encode(bodySize, forKey: .bodySize)
      try container.encodeIfPresent(comment, forKey: .comment)
    }

    enum CodingKeys: String, CodingKey {
      case method, url, httpVersion, cookies, headers, queryString, postData, headersSize,
        bodySize, comment
    }
  }

  /// A URL kept beside the text it was parsed from. It is not part of the value: two requests
  /// with the same text are equal whether or not one of them kept its parse.
  struct ParsedURL: Hashable, Sendable {
    let url: URL?

    init(_ url: URL? = nil) {
      self.url = url
    }

    static func == (_: Self, _: Self) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
  }
}
