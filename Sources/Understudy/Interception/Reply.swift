/// What the protocol hands to URLSession for one request: a response with its body and how the
/// body is paced, or an error.
enum Reply: Sendable {
  case response(HTTPReply)
  case failure(any Error & Sendable)

  init(_ response: StubResponse, for request: InterceptedRequest) {
    switch response.outcome {
    case .http(let status, let headers, let body):
      if let problem = body.problem {
        self = .failure(
          URLError.understudy(
            .fileDoesNotExist, "Understudy: cannot serve \(request): \(problem)",
            for: request))
      } else {
        self = .response(
          HTTPReply(
            url: request.url, status: status, headers: headers, body: body,
            bodyDelay: response.bodyDelay, bytesPerSecond: response.bytesPerSecond,
            dropAfterBytes: response.dropAfterBytes, chunks: response.chunks,
            responseCache: response.responseCache))
      }
    case .failure(let error):
      self = .failure(error)
    case .passThrough:
      self = .failure(
        URLError.understudy(
          .unknown, "Understudy: pass-through reached the reply stage", request.url))
    }
  }

  /// The journal's record of this reply.
  func journalResponse(duration: TimeInterval) -> JournalEntry.Response {
    switch self {
    case .response(let reply):
      return JournalEntry.Response(
        status: reply.status, headers: reply.headers, body: reply.body.inlineData, error: nil,
        duration: duration)
    case .failure(let error):
      return JournalEntry.Response(
        status: nil, headers: [:], body: nil, error: error.localizedDescription,
        duration: duration)
    }
  }
}

/// An HTTP answer: status, headers, body and the body's pacing.
struct HTTPReply: Sendable {
  var url: URL
  var status: Int
  var headers: HTTPHeaders
  var body: ResponseBody
  var bodyDelay: TimeInterval = 0
  var bytesPerSecond: Int? = nil
  var dropAfterBytes: Int? = nil
  /// The parts the body goes out in, when it is streamed (stubbed, or as recorded).
  var chunks: [BodyChunk]? = nil
  /// Where a stub keeps the `HTTPURLResponse` it built last; `nil` for answers built once.
  var responseCache: HTTPResponseCache? = nil

  /// Whether the body goes out in one piece as soon as the response is sent.
  var isImmediate: Bool {
    // Matched as cases: `== nil` on an optional array is a generic call in a debug build.
    guard bodyDelay <= 0, case .none = bytesPerSecond, case .none = dropAfterBytes,
      case .none = chunks
    else { return false }
    return true
  }

  /// The `HTTPURLResponse`, with a Content-Length when the stub did not give one, as a server
  /// would, so `expectedContentLength` is right.
  ///
  /// - Parameter recent: Responses built before, shared by every stub; tests pass their own.
  func httpResponse(
    bodyLength: Int?, sharing recent: RecentReadings<ResponseShape, HTTPURLResponse> = built
  ) -> HTTPURLResponse {
    guard let responseCache else { return makeHTTPResponse(bodyLength: bodyLength, recent) }
    return responseCache.response(for: url, bodyLength: bodyLength) {
      makeHTTPResponse(bodyLength: bodyLength, recent)
    }
  }

  private func makeHTTPResponse(
    bodyLength: Int?, _ recent: RecentReadings<ResponseShape, HTTPURLResponse>
  ) -> HTTPURLResponse {
    let shape = ResponseShape(status: status, url: url, headers: headers, bodyLength: bodyLength)
    return recent.reading(shape) { $0.build() }
  }

  /// What an `HTTPURLResponse` is built from; two equal shapes build equal responses.
  struct ResponseShape: Equatable, Sendable {
    // Compared in this order: the status and the URL tell most shapes apart cheaply.
    let status: Int
    let url: URL
    let headers: HTTPHeaders
    let bodyLength: Int?

    func build() -> HTTPURLResponse {
      var fields = headers.dictionary
      if let bodyLength, !headers.contains("Content-Length") {
        fields["Content-Length"] = String(bodyLength)
      }
      #if canImport(FoundationNetworking)
        // FoundationNetworking 6.3 turns a 401 with a Basic challenge from any protocol into an
        // authentication round that hangs, or retries on the real network (platform notes, row
        // 20). A leading space keeps its parser from recognising the scheme; RFC 9110 (5.5)
        // makes leading whitespace insignificant, so the value means the same to the caller.
        if status == 401,
          let key = fields.keys.first(where: { $0.caseInsensitiveEquals("WWW-Authenticate") }),
          let value = fields[key], !value.hasPrefix(" ")
        {
          fields[key] = " " + value
        }
      #endif
      return HTTPURLResponse(
        url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fields)
        ?? HTTPURLResponse(url: url, statusCode: 500, httpVersion: "HTTP/1.1", headerFields: [:])!
    }
  }

  /// The responses built last, by shape: every test of a suite whose `.stubs` trait declares
  /// the same stubs would otherwise build the same response again for its first request, and
  /// building one is the largest single cost of a short test's request (Foundation canonicalises
  /// every header name). Responses are immutable, so tests can share one, as a stub's requests
  /// already do.
  static let built = RecentReadings<ResponseShape, HTTPURLResponse>(capacity: 8)
}

extension URLError {
  /// A `URLError` whose description is `message`, so it reads well when printed or thrown;
  /// credentials in it are masked, since test runners print caught errors to the log.
  static func understudy(
    _ code: URLError.Code, _ message: String, _ url: URL?, underlying: (any Error)? = nil
  ) -> URLError {
    understudy(
      code, message,
      failingURL: url.map { CompiledRedaction.forReports.redactedURL($0.absoluteString) },
      underlying: underlying)
  }

  /// A `URLError` about `request`, whose failing URL is the one a cassette would write for it:
  /// a value the request holds under a credential's name (a bearer token, a form's password)
  /// is replaced where its URL repeats it too (`/users/<redacted:Authorization>`).
  ///
  /// `cassette` is the rules of the cassette the request was replayed from, when it was: a
  /// parameter only they name (`redactingQueryParameters("ref")`) is replaced too, as the
  /// cassette replaced it.
  ///
  /// `hiding` holds values the request holds that no rule names but the cassette knows for
  /// credentials (``Cassette/valuesAtPlaceholders(of:)``): a failing URL holding one is left out.
  static func understudy(
    _ code: URLError.Code, _ message: String, for request: InterceptedRequest,
    cassette: CompiledRedaction? = nil, hiding: Set<String> = [], underlying: (any Error)? = nil
  ) -> URLError {
    var shown = request
    if let cassette, let ruled = URL(string: cassette.redactedURL(of: request)) {
      shown = InterceptedRequest(
        method: request.method, url: ruled, headers: request.headers, body: request.body)
    }
    return understudy(
      code, message, failingURL: CompiledRedaction.forReports.redactedURL(of: shown),
      hiding: hiding, underlying: underlying)
  }

  private static func understudy(
    _ code: URLError.Code, _ message: String, failingURL text: String?,
    hiding: Set<String> = [], underlying: (any Error)?
  ) -> URLError {
    let masked = LogRedaction.mask(message, noting: message.contains(bytes: "\n"))
    var info: [String: Any] = [NSLocalizedDescriptionKey: masked]
    // Test runners print the user info too: the failing URL is redacted as a cassette's would be
    // (`access_token=%3Credacted:access_token%3E`), and left out if that is no URL, or if it
    // still holds what masking would hide (a token in a parameter's name, which redaction keeps
    // as a name): a mask is no URL.
    if let text, let redacted = URL(string: text), LogRedaction.mask(text, noting: false) == text,
      hiding.isEmpty || LogRedaction.mask(text, hiding: hiding) == text
    {
      info[NSURLErrorFailingURLErrorKey] = redacted
    }
    if let underlying { info[NSUnderlyingErrorKey] = underlying }
    return URLError(
      _nsError: DescribedURLError(domain: NSURLErrorDomain, code: code.rawValue, userInfo: info))
  }
}
