/// What the protocol hands to URLSession for one request: a response with its body, or an error.
enum Reply: Sendable {
  case response(url: URL, status: Int, headers: HTTPHeaders, body: ResponseBody)
  case failure(any Error & Sendable)

  init(_ response: StubResponse, for request: InterceptedRequest) {
    switch response.outcome {
    case .http(let status, let headers, let body):
      if let problem = body.problem {
        self = .failure(
          URLError.understudy(
            .fileDoesNotExist, "Understudy: cannot serve \(request): \(problem)", request.url))
      } else {
        self = .response(url: request.url, status: status, headers: headers, body: body)
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
    case .response(_, let status, let headers, let body):
      return JournalEntry.Response(
        statusCode: status, headers: headers, body: body.inlineData, error: nil, duration: duration)
    case .failure(let error):
      return JournalEntry.Response(
        statusCode: nil, headers: [:], body: nil, error: error.localizedDescription,
        duration: duration)
    }
  }

  /// The `HTTPURLResponse`, with a Content-Length when the stub did not give one, as a server
  /// would, so `expectedContentLength` is right.
  static func httpResponse(url: URL, status: Int, headers: HTTPHeaders, bodyLength: Int?)
    -> HTTPURLResponse
  {
    var fields = headers.dictionary
    if let bodyLength, !headers.contains("Content-Length") {
      fields["Content-Length"] = String(bodyLength)
    }
    return HTTPURLResponse(
      url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fields)
      ?? HTTPURLResponse(url: url, statusCode: 500, httpVersion: "HTTP/1.1", headerFields: [:])!
  }
}

extension URLError {
  /// A `URLError` whose description is `message`, so it reads well when printed or thrown.
  static func understudy(
    _ code: URLError.Code, _ message: String, _ url: URL?, underlying: (any Error)? = nil
  )
    -> URLError
  {
    var info: [String: Any] = [NSLocalizedDescriptionKey: message]
    if let url {
      info[NSURLErrorFailingURLErrorKey] = url
    }
    if let underlying { info[NSUnderlyingErrorKey] = underlying }
    return URLError(code, userInfo: info)
  }
}
