extension HAR {
  /// One HTTP exchange: the request, the response, and how long it took.
  public struct Entry: Sendable, Equatable, HARReferenceCodable {
    /// The ``Page/id`` of the page the request belongs to.
    package var pageref: String? {
      get { extras?.value.pageref }
      set { extras = Extras.boxed(extras, setting: \.pageref, to: newValue) }
    }
    /// When the request started, kept to the millisecond (the precision a cassette stores), so an
    /// entry compares equal to itself after a round trip through a file.
    public var startedDateTime: Date {
      didSet { startedDateTime = HARTimestamp.normalized(startedDateTime) }
    }
    /// The total time of the exchange in milliseconds: the sum of the non-negative timings of its
    /// phases.
    public var time: Double {
      didSet {
        // Timings left to follow the old time keep its value.
        if timingsBox == nil { timingsBox = Self.box(Timings(wait: max(0, oldValue)), time: time) }
      }
    }
    /// The request as sent.
    public var request: Request
    /// The response as received.
    public var response: Response
    /// What the browser cache knew about the request.
    package var cache: Cache {
      get { cacheBox?.value ?? Cache() }
      set { cacheBox = Self.box(newValue) }
    }
    /// How ``time`` divides into phases.
    package var timings: Timings {
      get { timingsBox?.value ?? Timings(wait: max(0, time)) }
      set { timingsBox = Self.box(newValue, time: time) }
    }
    /// ``cache``, boxed and `nil` when nothing is known, as in every cassette Understudy
    /// records: inline it took 32 bytes of every entry of a loaded cassette (issue 17).
    private var cacheBox: Boxed<Cache>?
    /// ``timings``, boxed and `nil` when they are the ones an entry gets from its ``time``
    /// alone (the wait), as in every cassette Understudy records: inline they took 72 bytes of
    /// every entry of a loaded cassette (issue 17).
    private var timingsBox: Boxed<Timings>?
    /// The IP address of the server (the result of DNS resolution).
    package var serverIPAddress: String? {
      get { extras?.value.serverIPAddress }
      set { extras = Extras.boxed(extras, setting: \.serverIPAddress, to: newValue) }
    }
    /// An identifier of the TCP connection, such as the client port.
    package var connection: String? {
      get { extras?.value.connection }
      set { extras = Extras.boxed(extras, setting: \.connection, to: newValue) }
    }
    /// A comment from the user or the application.
    public var comment: String? {
      get { extras?.value.comment }
      set { extras = Extras.boxed(extras, setting: \.comment, to: newValue) }
    }
    /// The members above (page, server, connection, comment), boxed and `nil` when none is set: recorders rarely write them, and
    /// inline they made every entry of a loaded cassette 64 bytes larger (issue 17).
    private var extras: Boxed<Extras>?

    /// The members of an entry most files leave out.
    private struct Extras: Hashable, Sendable {
      var pageref: String?
      var serverIPAddress: String?
      var connection: String?
      var comment: String?

      /// `box` with one member changed; `nil` once no member is set, so entries that differ
      /// only in how they got there compare and hash the same.
      static func boxed(
        _ box: Boxed<Extras>?, setting member: WritableKeyPath<Extras, String?>, to value: String?
      ) -> Boxed<Extras>? {
        var extras = box?.value ?? Extras()
        extras[keyPath: member] = value
        return extras.boxed
      }

      /// The members in a box, or `nil` when none is set.
      var boxed: Boxed<Extras>? { self == Extras() ? nil : Boxed(self) }
    }

    /// Creates an entry.
    package init(
      pageref: String? = nil, startedDateTime: Date, time: Double, request: Request,
      response: Response, cache: Cache = Cache(), timings: Timings? = nil,
      serverIPAddress: String? = nil, connection: String? = nil, comment: String? = nil
    ) {
      self.startedDateTime = HARTimestamp.normalized(startedDateTime)
      self.time = time
      self.request = request
      self.response = response
      self.cacheBox = Self.box(cache)
      self.timingsBox = timings.flatMap { Self.box($0, time: time) }
      self.extras =
        Extras(
          pageref: pageref, serverIPAddress: serverIPAddress, connection: connection,
          comment: comment
        ).boxed
    }

    /// `cache` boxed, or `nil` when nothing is known.
    private static func box(_ cache: Cache) -> Boxed<Cache>? {
      cache == Cache() ? nil : Boxed(cache)
    }

    /// `timings` boxed, or `nil` when they are exactly (bit for bit, so `-0` stays written as
    /// `-0`) the timings `time` alone gives.
    private static func box(_ timings: Timings, time: Double) -> Boxed<Timings>? {
      let derived = Timings(wait: max(0, time))
      let isDerived =
        timings.comment == nil && timings.blocked.bitPattern == derived.blocked.bitPattern
        && timings.dns.bitPattern == derived.dns.bitPattern
        && timings.connect.bitPattern == derived.connect.bitPattern
        && timings.send.bitPattern == derived.send.bitPattern
        && timings.wait.bitPattern == derived.wait.bitPattern
        && timings.receive.bitPattern == derived.receive.bitPattern
        && timings.ssl.bitPattern == derived.ssl.bitPattern
      return isDerived ? nil : Boxed(timings)
    }

    private enum CodingKeys: String, CodingKey {
      case pageref, startedDateTime, time, request, response, cache, timings, serverIPAddress
      case connection, comment
    }

    /// Decodes an entry, accepting exports that leave out `time`, `cache` or `timings`.
    package init(reference decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      let pageref = try container.decodeIfPresent(String.self, forKey: .pageref)
      startedDateTime = try container.decodeTimestamp(.startedDateTime)
      time = try container.decode(.time, or: -1)
      request = try container.decode(Request.self, forKey: .request)
      response = try container.decode(Response.self, forKey: .response)
      cacheBox = Self.box(try container.decode(.cache, or: Cache()))
      timingsBox = Self.box(try container.decode(.timings, or: Timings()), time: time)
      extras =
        Extras(
          pageref: pageref,
          serverIPAddress: try container.decodeIfPresent(String.self, forKey: .serverIPAddress),
          connection: try container.decodeIfPresent(String.self, forKey: .connection),
          comment: try container.decodeIfPresent(String.self, forKey: .comment)
        ).boxed
    }

    /// Encodes the entry with its date in UTC to the millisecond.
    package func encode(reference encoder: any Encoder) throws {
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
