/// The `HTTPURLResponse` a stubbed response produced last, for the next request to the same URL.
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

  // Guards the last response built.
  private let last = Locked<Entry?>(nil)

  /// The response for `url` and `bodyLength`: the last one if it was for the same, else `make()`.
  func response(for url: URL, bodyLength: Int?, make: () -> HTTPURLResponse) -> HTTPURLResponse {
    if let entry = last.current, entry.bodyLength == bodyLength, entry.url == url {
      return entry.response
    }
    let response = make()
    last.withLock { $0 = Entry(url: url, bodyLength: bodyLength, response: response) }
    return response
  }
}
