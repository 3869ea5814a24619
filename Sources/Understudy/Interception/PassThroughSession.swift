/// The session that carries pass-through requests to the real network.
///
/// Its configuration never lists an Understudy protocol, so what it sends is never intercepted
/// again (the recursion that bites hand-written stubbing protocols). It stores no cookies and
/// caches nothing: the intercepted request already carries the caller's cookies, and the caller's
/// own session decides what to keep.
enum PassThroughSession {
  static let shared: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    configuration.httpShouldSetCookies = false
    configuration.httpCookieAcceptPolicy = .never
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    return URLSession(configuration: configuration)
  }()

  /// Sends `request` and calls `completion` with the reply, on a queue of URLSession's choosing.
  static func send(_ request: URLRequest, completion: @escaping @Sendable (Reply) -> Void)
    -> URLSessionDataTask
  {
    let task = shared.dataTask(with: request) { data, response, error in
      if let error {
        let urlError =
          error as? URLError
          ?? URLError.understudy(.unknown, "pass-through failed: \(error)", request.url)
        completion(.failure(urlError))
        return
      }
      guard let http = response as? HTTPURLResponse else {
        completion(
          .failure(
            URLError.understudy(
              .badServerResponse, "pass-through got no HTTP response", request.url)))
        return
      }
      var headers = HTTPHeaders()
      for (name, value) in http.allHeaderFields {
        headers.add(name: "\(name)", value: "\(value)")
      }
      completion(
        .response(
          HTTPReply(
            url: http.url ?? request.url!, status: http.statusCode,
            headers: HTTPHeaders(headers.dictionary), body: .data(data ?? Data()))))
    }
    task.resume()
    return task
  }
}
