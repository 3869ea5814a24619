/// The request a redirect leads to, following the rules of each status code (RFC 9110 15.4).
enum Redirect {
  static let statuses: Set<Int> = [301, 302, 303, 307, 308]
  /// The most hops followed before failing, as browsers and URLSession do.
  static let maximumHops = 16

  /// The next request, or `nil` when `reply` is not a followable redirect.
  static func nextRequest(after reply: HTTPReply, for request: InterceptedRequest) -> URLRequest? {
    guard statuses.contains(reply.status), let location = reply.headers["Location"],
      let target = URL(string: location, relativeTo: request.url)?.absoluteURL
    else { return nil }
    var next = request.urlRequest
    next.url = target
    // 303 always becomes GET; 301 and 302 turn POST into GET as every client does; 307 and 308
    // keep the method and the body.
    let becomesGet =
      reply.status == 303
      || ((reply.status == 301 || reply.status == 302) && request.method == "POST")
    if becomesGet {
      next.httpMethod = request.method == "HEAD" ? "HEAD" : "GET"
      next.httpBody = nil
      for name in ["Content-Type", "Content-Length", "Content-Encoding"] {
        next.setValue(nil, forHTTPHeaderField: name)
      }
    }
    // Credentials never follow a redirect to another origin.
    if target.host?.lowercased() != request.url.host?.lowercased()
      || target.scheme != request.url.scheme || target.port != request.url.port
    {
      next.setValue(nil, forHTTPHeaderField: "Authorization")
      next.setValue(nil, forHTTPHeaderField: "Cookie")
    }
    return next
  }
}

/// A redirect waiting for the task delegate's decision.
struct RedirectQuestion: Sendable {
  /// What to deliver if the delegate declines.
  let reply: Reply
  let redirect: HTTPReply
  let next: URLRequest
  let registry: StubRegistry
  let hops: Int
}
