/// What a stub answers: an HTTP response, an error, or "send it to the real server".
///
/// ```swift
/// registry.stub(.get("/health"), .text("ok"))
/// registry.stub(.get("/users/7"), .json(User(id: 7, name: "Ada")))
/// registry.stub(.get("/offline"), .failure(URLError(.notConnectedToInternet)))
/// registry.stub(.get("/avatar.png"), .fixture("Fixtures/avatar.png"))
/// ```
public struct StubResponse: Sendable {
  enum Outcome: Sendable {
    case http(status: Int, headers: HTTPHeaders, body: ResponseBody)
    case failure(any Error & Sendable)
    case passThrough(PassThrough)
  }

  /// Everything a response holds. A response is copied at each step of a request (out of its
  /// stub, into a decision, into a reply), so the fields are kept behind one reference.
  private struct Fields: Sendable {
    var outcome: Outcome
    var responseCache = HTTPResponseCache()
    var delay: TimeInterval = 0
    var bodyDelay: TimeInterval = 0
    var bytesPerSecond: Int?
    var dropAfterBytes: Int?
    var chunks: [BodyChunk]?
    var webSocket: WebSocketConversation?
  }

  private var storage: CopyOnWrite<Fields>

  var outcome: Outcome {
    get { storage.value.outcome }
    set {
      storage.value.outcome = newValue
      // The cached HTTPURLResponse was built from the old status and headers.
      storage.value.responseCache = HTTPResponseCache()
    }
  }
  /// Shared by copies until the outcome changes.
  var responseCache: HTTPResponseCache { storage.value.responseCache }
  /// How long to wait before the response (status and headers), in seconds; the protocol waits
  /// without blocking a thread.
  package var delay: TimeInterval {
    get { storage.value.delay }
    set { storage.value.delay = newValue }
  }
  /// How long to wait between the response and the first byte of the body, in seconds.
  package var bodyDelay: TimeInterval {
    get { storage.value.bodyDelay }
    set { storage.value.bodyDelay = newValue }
  }
  /// The rate the body is delivered at, in bytes per second, or `nil` for all at once.
  package var bytesPerSecond: Int? {
    get { storage.value.bytesPerSecond }
    set { storage.value.bytesPerSecond = newValue }
  }
  /// When set, the connection drops after this many body bytes and the request fails with
  /// `URLError(.networkConnectionLost)`.
  package var dropAfterBytes: Int? {
    get { storage.value.dropAfterBytes }
    set { storage.value.dropAfterBytes = newValue }
  }
  /// When set, the body goes out in these parts, each after its delay (a stream of server-sent
  /// events, say); delegate-based tasks see each part, other tasks the whole body at the end.
  package var chunks: [BodyChunk]? {
    get { storage.value.chunks }
    set { storage.value.chunks = newValue }
  }
  /// The conversation a WebSocket stub holds; the response itself is the `426` that requests
  /// which do not upgrade get.
  package var webSocket: WebSocketConversation? {
    get { storage.value.webSocket }
    set { storage.value.webSocket = newValue }
  }

  init(_ outcome: Outcome) {
    storage = CopyOnWrite(Fields(outcome: outcome))
  }

  /// Creates an HTTP response.
  public init(status: Int = 200, headers: HTTPHeaders = [:], body: ResponseBody = .empty) {
    self.init(.http(status: status, headers: headers, body: body))
  }

  /// An empty `200 OK`.
  public static var ok: StubResponse { StubResponse() }

  /// An empty response with the given status code.
  public static func status(_ code: Int) -> StubResponse { StubResponse(status: code) }

  /// A UTF-8 text body, `text/plain` unless `headers` names another Content-Type.
  public static func text(_ text: String, status: Int = 200, headers: HTTPHeaders = [:])
    -> StubResponse
  {
    StubResponse(
      status: status, headers: headers.withDefault("Content-Type", "text/plain; charset=utf-8"),
      body: .text(text))
  }

  /// Raw bytes with an optional Content-Type.
  public static func data(
    _ data: Data, status: Int = 200, contentType: String? = nil, headers: HTTPHeaders = [:]
  ) -> StubResponse {
    var headers = headers
    if let contentType { headers = headers.withDefault("Content-Type", contentType) }
    return StubResponse(status: status, headers: headers, body: .data(data))
  }

  /// A JSON body encoded from `value`, with `Content-Type: application/json`.
  ///
  /// Encoding happens now; if it fails, the stub answers every request with that error so the
  /// test sees what went wrong instead of an empty body.
  public static func json<Value: Encodable>(
    _ value: Value, status: Int = 200, headers: HTTPHeaders = [:],
    encoder: JSONEncoder = JSONEncoder()
  ) -> StubResponse {
    let headers = headers.withDefault("Content-Type", "application/json")
    do {
      return StubResponse(status: status, headers: headers, body: .data(try encoder.encode(value)))
    } catch {
      let message = "could not encode \(Value.self) as JSON: \(error)"
      return StubResponse(
        status: status, headers: headers, body: ResponseBody(storage: .unavailable(message)))
    }
  }

  /// A JSON body given as text, with `Content-Type: application/json`.
  public static func json(string: String, status: Int = 200, headers: HTTPHeaders = [:])
    -> StubResponse
  {
    StubResponse(
      status: status, headers: headers.withDefault("Content-Type", "application/json"),
      body: .text(string))
  }

  /// Fails the request with `error`, as a dropped connection or DNS failure would.
  public static func failure(_ error: any Error & Sendable) -> StubResponse {
    StubResponse(.failure(error))
  }

  /// Sends the request to the real server through a session Understudy does not intercept, after
  /// applying `rewrite`.
  public static func passThrough(_ rewrite: PassThrough = PassThrough()) -> StubResponse {
    StubResponse(.passThrough(rewrite))
  }

  /// The same response answered after `seconds`: `.delayed(by: 0.3)`.
  public func delayed(by seconds: TimeInterval) -> StubResponse {
    var copy = self
    copy.delay = seconds
    return copy
  }

  /// The same response with its body starting `seconds` after its status and headers.
  public func bodyDelayed(by seconds: TimeInterval) -> StubResponse {
    var copy = self
    copy.bodyDelay = seconds
    return copy
  }

  /// The same response with its body delivered at `bytesPerSecond`.
  ///
  /// Delegate-based tasks receive the body in timed chunks. Async and completion-handler tasks
  /// receive the whole body once the simulated transfer time has passed (on Linux they keep only
  /// the last chunk, so chunking them would lose data). A rate below 1 sends nothing: a stub
  /// declared with it is reported at its declaration, and a responder that returns it fails the
  /// request.
  public func throttled(bytesPerSecond: Int) -> StubResponse {
    var copy = self
    copy.bytesPerSecond = bytesPerSecond
    return copy
  }

  /// The same response, but the connection drops after `bytes` bytes of body: the request fails
  /// with `URLError(.networkConnectionLost)`; delegate-based tasks see the bytes before the drop.
  /// A negative count is no drop: a stub declared with it is reported at its declaration, and a
  /// responder that returns it fails the request.
  public func droppingConnection(afterBytes bytes: Int) -> StubResponse {
    var copy = self
    copy.dropAfterBytes = bytes
    return copy
  }

  /// A streamed body: each part is sent after its delay (seconds after the previous part, or
  /// after the response for the first). Delegate-based tasks receive the parts one by one, as
  /// server-sent events arrive from a real server; async and completion-handler tasks get the
  /// whole body once the last part is out.
  ///
  /// ```swift
  /// registry.stub(.get("/events"), .streaming([
  ///   (Data("data: 1\n\n".utf8), after: 0),
  ///   (Data("data: 2\n\n".utf8), after: 0.5),
  /// ], headers: ["Content-Type": "text/event-stream"]))
  /// ```
  public static func streaming(
    _ parts: [(Data, after: TimeInterval)], status: Int = 200, headers: HTTPHeaders = [:]
  ) -> StubResponse {
    var response = StubResponse(
      status: status, headers: headers, body: .data(parts.reduce(Data()) { $0 + $1.0 }))
    response.chunks = parts.map { BodyChunk(size: $0.0.count, delay: max(0, $0.after)) }
    return response
  }

  /// A `200` that sends nothing at all and closes: `URLError(.zeroByteResource)` is what
  /// URLSession reports for an empty reply from a server.
  public static var emptyReply: StubResponse {
    .failure(URLError(.zeroByteResource))
  }

  /// A redirect to `location` with the given status (301, 302, 303, 307 or 308).
  ///
  /// The protocol follows it through the same registry, as URLSession follows a server's
  /// redirects, unless the task's delegate declines.
  public static func redirect(to location: String, status: Int = 302) -> StubResponse {
    StubResponse(status: status, headers: ["Location": location])
  }

  /// The same response with the header set (replacing any field of that name).
  public func header(_ name: String, _ value: String) -> StubResponse {
    guard case .http(let status, var headers, let body) = outcome else { return self }
    headers[name] = value
    var copy = self
    copy.outcome = .http(status: status, headers: headers, body: body)
    return copy
  }

  /// The HTTP status, or `nil` for failures and pass-through.
  package var status: Int? {
    if case .http(let status, _, _) = outcome { return status }
    return nil
  }

  /// The HTTP headers, empty for failures and pass-through.
  package var headers: HTTPHeaders {
    if case .http(_, let headers, _) = outcome { return headers }
    return [:]
  }

  /// The body source, or `nil` for failures and pass-through.
  package var body: ResponseBody? {
    if case .http(_, _, let body) = outcome { return body }
    return nil
  }

  /// Why the response cannot be served as declared (a missing fixture, a status or a header no
  /// server could send), or `nil`.
  package var problem: String? {
    guard case .http(_, _, let body) = outcome else { return nil }
    return wireProblem ?? body.problem
  }

  /// Why no server could send the response (its status, a header, the parts of a streamed body,
  /// or a body its status or length rules out), or `nil`; unlike ``problem``, the body's source
  /// is not checked. Asked of each response a responder returns, since those are made after the
  /// stub's declaration was checked.
  var wireProblem: String? {
    guard case .http(let status, let headers, let body) = outcome else { return nil }
    // URLSession would hand such a response on as it is, and a test would pass on an answer
    // no server can give: `.status(2000)` is a typo, a header with a line break is two.
    if !(100...599).contains(status) {
      return "the status \(status) is not an HTTP status code (100 to 599)"
    }
    for field in headers.fields {
      if let problem = Self.fieldProblem(name: field.name, value: field.value) { return problem }
    }
    if delay.isNaN || bodyDelay.isNaN || chunks?.contains(where: { $0.delay.isNaN }) == true {
      return "a delay is not a number (NaN); give delays in seconds, 0 or more"
    }
    // Set directly, these would stall the body until the request timed out, or end it early
    // as a success instead of the dropped connection the test asked for.
    if let rate = bytesPerSecond, rate < 1 {
      return "bytesPerSecond is \(rate), which sends nothing; throttle to 1 byte a second or "
        + "more, or set it to nil for no throttle"
    }
    if let bytes = dropAfterBytes, bytes < 0 {
      return "dropAfterBytes is \(bytes); give the bytes of body sent before the drop, 0 or "
        + "more (0 drops the connection before any body byte)"
    }
    if (300...399).contains(status), let location = headers["Location"] {
      // Followed, a redirect to nowhere ends as a bare 3xx the code under test was not
      // meant to see.
      if location.isEmpty {
        return "the redirect's Location is empty; write where it leads, as \"/next\" or "
          + "\"https://api.example.com/next\""
      }
      if URL(string: location) == nil {
        return "the redirect's Location \(location.oneLine.quoted(limit: 60)) is not a URL; "
          + "write a path such as \"/next\" or an absolute URL"
      }
    }
    if let negative = chunks?.first(where: { $0.size < 0 }) {
      return "a part of the streamed body has the size \(negative.size); a part's size is a "
        + "number of bytes, 0 or more"
    }
    return Self.framingProblem(status: status, headers: headers, body: body)
  }

  /// A body the status or the stub's own `Content-Length` rules out. A client reading from a
  /// server stops at the head of a 204 or 304 and after the announced length, so such a stub
  /// would hand the code under test bytes no server could send it (and the loopback server
  /// would send a head that lies). An empty body with a length is a HEAD's or a 304's answer.
  private static func framingProblem(status: Int, headers: HTTPHeaders, body: ResponseBody)
    -> String?
  {
    let length: Int? = if case .data(let bytes) = body.storage { bytes.count } else { nil }
    if let length, length > 0, status == 204 || status == 304 {
      return "a \(status) response has no body, but this one has \(length) bytes; leave the "
        + "body out, or use a status that carries one"
    }
    for announced in headers.values(for: "Content-Length") {
      guard let count = Int(announced.trimmingCharacters(in: .whitespaces)), count >= 0 else {
        return "the Content-Length \(announced.oneLine.quoted(limit: 40)) is not a number of "
          + "bytes; leave the header out, and Understudy sets it from the body"
      }
      if let length, length > 0, count != length {
        return "the Content-Length \(count) disagrees with the body's \(length) bytes; leave "
          + "the header out (Understudy sets it from the body), or send fewer bytes with "
          + ".droppingConnection(afterBytes:)"
      }
    }
    return nil
  }

  /// Why a header field with this name and value cannot go out on the wire, or `nil`.
  package static func fieldProblem(name: String, value: String) -> String? {
    if let problem = HTTPHeaders.nameProblem(name) { return problem }
    if value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) {
      return "the value of header \(name) holds a line break or a NUL, which would end "
        + "the header or the response on the wire"
    }
    return nil
  }
}

/// One part of a streamed body: how many bytes, sent how long after the previous part.
package struct BodyChunk: Sendable, Hashable {
  /// Whether `sizes` are byte counts (none negative) that add up to `total` without
  /// overflowing.
  static func sizes(of sizes: [Int], addUpTo total: Int) -> Bool {
    var sum = 0
    for size in sizes {
      guard size >= 0 else { return false }
      let (next, overflow) = sum.addingReportingOverflow(size)
      guard !overflow else { return false }
      sum = next
    }
    return sum == total
  }

  /// Its length in bytes.
  package var size: Int
  /// Seconds after the previous part (or after the response, for the first).
  package var delay: TimeInterval

  /// Creates a part sent `delay` seconds after the previous one.
  package init(size: Int, delay: TimeInterval) {
    self.size = size
    self.delay = delay
  }
}

extension HTTPHeaders {
  func withDefault(_ name: String, _ value: String) -> HTTPHeaders {
    guard !contains(name) else { return self }
    var copy = self
    copy.add(name: name, value: value)
    return copy
  }
}
