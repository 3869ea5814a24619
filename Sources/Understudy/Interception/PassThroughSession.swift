/// The session that carries pass-through requests to the real network.
///
/// Its configuration never lists an Understudy protocol, so what it sends is never intercepted
/// again (the recursion that bites hand-written stubbing protocols). It stores no cookies and
/// caches nothing: the intercepted request already carries the caller's cookies, and the caller's
/// own session decides what to keep. It does not follow redirects: the protocol follows them
/// through the registry, so each hop is stubbed, replayed or recorded on its own.
enum PassThroughSession {
  static let shared: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    configuration.httpShouldSetCookies = false
    configuration.httpCookieAcceptPolicy = .never
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    return URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
  }()

  private static let delegate = PassThroughDelegate()

  /// Sends `request` and calls `completion` with the reply, on a queue of URLSession's choosing.
  static func send(_ request: URLRequest, completion: @escaping @Sendable (Reply) -> Void)
    -> URLSessionDataTask
  {
    let task = shared.dataTask(with: request)
    delegate.track(task, request: request, completion: completion)
    task.resume()
    return task
  }
}

/// Collects each pass-through task's response and body, and keeps the network from following
/// redirects or starting authentication rounds on the caller's behalf.
private final class PassThroughDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  private struct Exchange {
    let request: URLRequest
    let completion: @Sendable (Reply) -> Void
    var response: HTTPURLResponse?
    var body = Data()
    var challenged = false
    /// When the response arrived, and each part of the body after it.
    var respondedAt: Date?
    var parts: [(size: Int, at: Date)] = []
  }

  // Guards the exchanges in flight, by task identifier.
  private let exchanges = Locked<[Int: Exchange]>([:])

  func track(
    _ task: URLSessionTask, request: URLRequest, completion: @escaping @Sendable (Reply) -> Void
  ) {
    exchanges.withLock {
      $0[task.taskIdentifier] = Exchange(request: request, completion: completion)
    }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
    completionHandler: @escaping (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
    completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
  ) {
    // FoundationNetworking 6.3 cannot hand a 401 with a Basic challenge back to the caller, and
    // default handling hangs; cancelling at least ends the exchange with an explanation.
    exchanges.withLock { $0[task.taskIdentifier]?.challenged = true }
    completionHandler(.cancelAuthenticationChallenge, nil)
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    exchanges.withLock {
      $0[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse
      $0[dataTask.taskIdentifier]?.respondedAt = Date()
    }
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    exchanges.withLock {
      $0[dataTask.taskIdentifier]?.body.append(data)
      $0[dataTask.taskIdentifier]?.parts.append((data.count, Date()))
    }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    guard let exchange = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else {
      return
    }
    let url = exchange.request.url
    // Only a failure shows the request (its URL as a cassette would write it).
    func sent() -> InterceptedRequest { InterceptedRequest(exchange.request) }
    if exchange.challenged {
      let challenged = sent()
      exchange.completion(
        .failure(
          URLError.understudy(
            .userAuthenticationRequired,
            "Understudy: the server answered \(CompiledRedaction.forReports.redactedURL(of: challenged)) with an "
              + "authentication challenge (401 + WWW-Authenticate: Basic). FoundationNetworking "
              + "6.3 on Linux cannot hand that response back (swift-corelibs-foundation #5456), "
              + "so it cannot be passed through or recorded here; send credentials up front.",
            for: challenged)))
      return
    }
    if let error {
      // The network's own error carries the URL, user information and query as sent, in its
      // description and user info, and test runners print both: it is handed on as one of
      // ours, with the same code, masked and with the URL redacted (SecretsInReports.md).
      let code = (error as? URLError)?.code ?? .unknown
      exchange.completion(
        .failure(
          URLError.understudy(
            code,
            "Understudy: the request passed through to the network failed: "
              + error.localizedDescription, for: sent())))
      return
    }
    guard let http = exchange.response else {
      exchange.completion(
        .failure(
          URLError.understudy(.badServerResponse, "pass-through got no HTTP response", for: sent()))
      )
      return
    }
    var reply = HTTPReply(
      url: http.url ?? url!, status: http.statusCode, headers: HTTPHeaders(http),
      body: .data(exchange.body))
    reply.chunks = Self.streamedParts(exchange, headers: reply.headers)
    exchange.completion(.response(reply))
  }

  /// The body's parts with their timing, when it was streamed: an event stream, or parts that
  /// came spread over time. A body that merely arrived in several network reads is not.
  private static func streamedParts(_ exchange: Exchange, headers: HTTPHeaders) -> [BodyChunk]? {
    guard exchange.parts.count > 1, let start = exchange.respondedAt else { return nil }
    let isEventStream = headers["Content-Type"]?.lowercased().hasPrefix("text/event-stream") == true
    let span = exchange.parts.last!.at.timeIntervalSince(exchange.parts.first!.at)
    guard isEventStream || span >= 0.05 else { return nil }
    var previous = start
    return exchange.parts.map { part in
      defer { previous = part.at }
      return BodyChunk(size: part.size, delay: max(0, part.at.timeIntervalSince(previous)))
    }
  }
}
