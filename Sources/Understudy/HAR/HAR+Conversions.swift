// Conversions between the HAR model and what the interception layer sees.
//
// Recording builds an entry from the InterceptedRequest the protocol captured and the response
// it received (an HTTPURLResponse from a real session, or a status, headers and body); replay
// turns an entry back into an InterceptedRequest for matching and a response to deliver. Header
// order is kept as given: the recorder sorts with `sortedByName()` before storing. `cookies`
// stay empty because the Cookie and Set-Cookie headers already carry them, and a second copy is
// one more place a secret could escape redaction.

extension HAR.Request {
  /// Captures a request as the interception layer saw it.
  ///
  /// The URL keeps the request's fragment, which HAR 1.2 leaves out, so the `.fragment` replay
  /// rule can compare it (a request without one records none); the query is also stored
  /// decoded in ``queryString``; the body keeps its bytes exactly (base64 when not UTF-8).
  package init(_ request: InterceptedRequest) {
    let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
    self.init(
      method: request.methodName,
      url: components?.string ?? request.url.absoluteString,
      headers: request.headers.map { HAR.Header(name: $0.name, value: $0.value) },
      queryString: request.queryItems.map {
        HAR.NameValue(name: $0.name, value: $0.value ?? "")
      },
      postData: request.body.map {
        HAR.PostData(body: $0, mimeType: request.headers["Content-Type"] ?? "")
      },
      bodySize: request.body?.count ?? 0)
  }

  /// The header fields as ``HTTPHeaders``, in the model's order.
  public var httpHeaders: HTTPHeaders {
    HTTPHeaders(headers.map { HTTPHeaders.Field(name: $0.name, value: $0.value) })
  }

  /// The request as the matchers see a live one, for finding the entry that answers it.
  ///
  /// - Throws: ``CassetteError`` when ``url`` is not a URL or the body does not decode.
  public func interceptedRequest() throws(CassetteError) -> InterceptedRequest {
    guard let parsed = parsedURL.url ?? URL(string: url) else {
      throw CassetteError(
        kind: .invalidValue, jsonPath: "request.url",
        problem: "\"\(url)\" is not a URL Foundation can parse",
        fix: "Percent-encode the characters that are not allowed in URLs, such as spaces.")
    }
    return InterceptedRequest(
      method: HTTPMethod(rawValue: method), url: parsed, headers: httpHeaders,
      body: try postData?.decodedBody())
  }
}

extension HAR.Response {
  /// Creates a response from what a stub or a real server answered.
  ///
  /// The reason phrase is the standard one for `status` (the same on every platform, unlike
  /// `HTTPURLResponse.localizedString`), `redirectURL` is the `Location` header, and the body is
  /// stored byte-exact with the `Content-Type` as its media type.
  public init(status: Int, headers: HTTPHeaders, body: Data?, httpVersion: String = "HTTP/1.1") {
    self.init(
      status: status, statusText: HTTPReasonPhrase.phrase(for: status), httpVersion: httpVersion,
      headers: headers.map { HAR.Header(name: $0.name, value: $0.value) },
      content: body.map { HAR.Content(body: $0, mimeType: headers["Content-Type"] ?? "") }
        ?? HAR.Content(mimeType: headers["Content-Type"] ?? ""),
      redirectURL: headers["Location"] ?? "", bodySize: body?.count ?? 0)
  }

  /// Creates a response from a real session's answer and the body it delivered.
  ///
  /// Foundation hands headers over as a dictionary, so their order is lost; they come out sorted
  /// by name.
  package init(_ response: HTTPURLResponse, body: Data?) {
    self.init(status: response.statusCode, headers: HTTPHeaders(response), body: body)
  }

  /// The header fields as ``HTTPHeaders``, in the model's order.
  public var httpHeaders: HTTPHeaders {
    HTTPHeaders(headers.map { HTTPHeaders.Field(name: $0.name, value: $0.value) })
  }

  /// The response to hand to URLSession when replaying, or `nil` when Foundation rejects the
  /// status. Repeated header names are joined with `, `, the only form `HTTPURLResponse` takes.
  package func httpURLResponse(url: URL) -> HTTPURLResponse? {
    HTTPURLResponse(
      url: url, statusCode: status, httpVersion: httpVersion.isEmpty ? nil : httpVersion,
      headerFields: httpHeaders.dictionary)
  }
}

extension HAR.Entry {
  /// Creates an entry for an exchange the interception layer saw.
  ///
  /// - Parameters:
  ///   - request: The request as captured.
  ///   - response: The answer, built with ``HAR/Response/init(status:headers:body:httpVersion:)``.
  ///   - startedDateTime: When the request was sent.
  ///   - duration: How long the exchange took; all of it is counted as waiting, the one phase the
  ///     interception layer can measure.
  public init(
    request: InterceptedRequest, response: HAR.Response, startedDateTime: Date,
    duration: Duration
  ) {
    let (seconds, attoseconds) = duration.components
    let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
    self.init(
      startedDateTime: startedDateTime, time: milliseconds, request: HAR.Request(request),
      response: response)
  }
}
