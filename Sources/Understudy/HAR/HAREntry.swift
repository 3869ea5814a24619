extension HAR {
  /// One HTTP exchange: the request, the response, and how long it took.
  public struct Entry: Codable, Sendable, Hashable {
    /// The ``Page/id`` of the page the request belongs to.
    public var pageref: String?
    /// When the request started, kept to the millisecond (the precision a cassette stores), so an
    /// entry compares equal to itself after a round trip through a file.
    public var startedDateTime: Date {
      didSet { startedDateTime = HARTimestamp.normalized(startedDateTime) }
    }
    /// The total time of the exchange in milliseconds: the sum of the non-negative ``timings``.
    public var time: Double
    /// The request as sent.
    public var request: Request
    /// The response as received.
    public var response: Response
    /// What the browser cache knew about the request.
    public var cache: Cache
    /// How ``time`` divides into phases.
    public var timings: Timings
    /// The IP address of the server (the result of DNS resolution).
    public var serverIPAddress: String?
    /// An identifier of the TCP connection, such as the client port.
    public var connection: String?
    /// A comment from the user or the application.
    public var comment: String?

    /// Creates an entry.
    public init(
      pageref: String? = nil, startedDateTime: Date, time: Double, request: Request,
      response: Response, cache: Cache = Cache(), timings: Timings? = nil,
      serverIPAddress: String? = nil, connection: String? = nil, comment: String? = nil
    ) {
      self.pageref = pageref
      self.startedDateTime = HARTimestamp.normalized(startedDateTime)
      self.time = time
      self.request = request
      self.response = response
      self.cache = cache
      self.timings = timings ?? Timings(wait: max(0, time))
      self.serverIPAddress = serverIPAddress
      self.connection = connection
      self.comment = comment
    }

    private enum CodingKeys: String, CodingKey {
      case pageref, startedDateTime, time, request, response, cache, timings, serverIPAddress
      case connection, comment
    }

    /// Decodes an entry, accepting exports that leave out `time`, `cache` or `timings`.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      pageref = try container.decodeIfPresent(String.self, forKey: .pageref)
      startedDateTime = try container.decodeTimestamp(.startedDateTime)
      time = try container.decode(.time, or: -1)
      request = try container.decode(Request.self, forKey: .request)
      response = try container.decode(Response.self, forKey: .response)
      cache = try container.decode(.cache, or: Cache())
      timings = try container.decode(.timings, or: Timings())
      serverIPAddress = try container.decodeIfPresent(String.self, forKey: .serverIPAddress)
      connection = try container.decodeIfPresent(String.self, forKey: .connection)
      comment = try container.decodeIfPresent(String.self, forKey: .comment)
    }

    /// Encodes the entry with its date in UTC to the millisecond.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encodeIfPresent(pageref, forKey: .pageref)
      try container.encodeTimestamp(startedDateTime, forKey: .startedDateTime)
      try container.encode(time, forKey: .time)
      try container.encode(request, forKey: .request)
      try container.encode(response, forKey: .response)
      try container.encode(cache, forKey: .cache)
      try container.encode(timings, forKey: .timings)
      try container.encodeIfPresent(serverIPAddress, forKey: .serverIPAddress)
      try container.encodeIfPresent(connection, forKey: .connection)
      try container.encodeIfPresent(comment, forKey: .comment)
    }
  }
}
