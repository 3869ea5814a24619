/// The `HTTPURLResponse` a stubbed response produced last, for the next request to the same URL,
/// and the header fields the loopback server sends for its canned body.
///
/// Building one makes Foundation canonicalise every header name (on Linux that is more work than
/// all of Understudy's own per-request bookkeeping), and a stub usually answers the same URL
/// over and over. `HTTPURLResponse` is immutable, so tasks can share one. Copies of a cache share
/// what it holds, as copies of a `Locked` do.
struct HTTPResponseCache: Sendable {
  private struct Entry {
    let url: URL
    let bodyLength: Int?
    let response: HTTPURLResponse
  }

  private struct Held {
    var last: Entry?
    /// The stub's header fields with the body's length added, and that length.
    var framed: (bodyLength: Int, headers: HTTPHeaders)?
  }

  // Guards what was built last; both live in the one allocation a stub response already has.
  private let held = Locked(Held())

  /// The response for `url` and `bodyLength`: the last one if it was for the same, else `make()`.
  func response(for url: URL, bodyLength: Int?, make: () -> HTTPURLResponse) -> HTTPURLResponse {
    if let entry = held.current.last, entry.bodyLength == bodyLength, entry.url == url {
      return entry.response
    }
    let response = make()
    held.withLock { $0.last = Entry(url: url, bodyLength: bodyLength, response: response) }
    return response
  }

  /// The header fields that frame a body of `bodyLength` bytes: the last ones if they were for the
  /// same length, else `make()`. A server answering the same stub over and over then shares one
  /// header array instead of copying it to add `Content-Length` for every request.
  func headers(framing bodyLength: Int, make: () -> HTTPHeaders) -> HTTPHeaders {
    if let framed = held.current.framed, framed.bodyLength == bodyLength { return framed.headers }
    let headers = make()
    held.withLock { $0.framed = (bodyLength, headers) }
    return headers
  }
}
