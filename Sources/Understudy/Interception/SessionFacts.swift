/// What the protocol needs to know about the session a task belongs to.
///
/// On Linux there is no public route from a task to its session, so FoundationNetworking's
/// private `session` field is read (see ``PrivateField``); on Darwin the system applies the
/// session's timeouts and cookies itself, so nothing is needed.
///
/// Read once, in `startLoading`, on the task's work queue: FoundationNetworking sets the field
/// to `nil` there when the task completes, so reading it from any other queue races with that
/// write (and crashed this suite before the rule was followed).
struct SessionFacts {
  var timeoutForRequest: TimeInterval?
  var timeoutForResource: TimeInterval?
  var cookieStorage: HTTPCookieStorage?
  var session: URLSession?

  init() {}

  init(task: URLSessionTask?) {
    #if canImport(FoundationNetworking)
      guard let task,
        let session = PrivateField.value(named: "session", in: task).flatMap(PrivateField.unwrap)
          as? URLSession
      else { return }
      let configuration = session.configuration
      self.session = session
      timeoutForRequest = configuration.timeoutIntervalForRequest
      timeoutForResource = configuration.timeoutIntervalForResource
      if configuration.httpShouldSetCookies, configuration.httpCookieAcceptPolicy != .never {
        cookieStorage = configuration.httpCookieStorage
      }
    #endif
  }

  /// The idle timeout: the request's own when it set one, the configuration's otherwise.
  func idleTimeout(for request: InterceptedRequest) -> TimeInterval {
    let requestDefault: TimeInterval = 60
    if request.timeoutInterval != requestDefault || timeoutForRequest == nil {
      return request.timeoutInterval
    }
    return timeoutForRequest ?? request.timeoutInterval
  }

  /// Stores the response's `Set-Cookie` fields, as URLSession does for its own protocols.
  func storeCookies(from headers: HTTPHeaders, for url: URL) {
    guard let cookieStorage else { return }
    let setCookies = headers.values(for: "Set-Cookie")
    guard !setCookies.isEmpty else { return }
    var cookies: [HTTPCookie] = []
    for value in setCookies {
      cookies += HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": value], for: url)
    }
    cookieStorage.setCookies(cookies, for: url, mainDocumentURL: nil)
  }

  /// Adds the stored cookies for `request`'s URL, as URLSession does when a task is created;
  /// used for redirect hops, which URLSession never sees.
  func addCookies(to request: inout URLRequest) {
    guard let cookieStorage, let url = request.url,
      request.value(forHTTPHeaderField: "Cookie") == nil,
      let cookies = cookieStorage.cookies(for: url), !cookies.isEmpty
    else { return }
    for (name, value) in HTTPCookie.requestHeaderFields(with: cookies) {
      request.setValue(value, forHTTPHeaderField: name)
    }
  }
}
