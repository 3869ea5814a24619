/// The URL schemes a session could reach the network with through a built-in handler.
///
/// A request Understudy's protocol declines goes to the next class in the session's list, and
/// on Linux then to the globally registered ones: FoundationNetworking 6.3 hands `ftp` to its
/// libcurl FTP handler (a real TCP connection) and `ws`/`wss` data tasks to its WebSocket
/// handler; Darwin has its own FTP handler. So sessions claim all of these, whatever the stubs
/// say, and answer the ones no stub names with a failure. `ftps` has no handler on this
/// toolchain but is claimed in case a later one adds it.
enum NetworkSchemes {
  /// Every scheme sessions claim before looking at any stub (lowercase).
  static let claimed: Set<String> = ["http", "https", "ftp", "ftps", "ws", "wss"]

  /// Schemes that follow the unmatched-request policy and cassettes; the rest of ``claimed`` is
  /// answered only by a stub that matches it.
  static let http: Set<String> = ["http", "https"]

  /// Why a request of a claimed scheme other than http(s) that no stub matched was refused,
  /// or `nil` for http(s) and custom schemes.
  static func refusal(for request: InterceptedRequest) -> String? {
    guard let scheme = request.url.scheme?.lowercased(), claimed.contains(scheme),
      !http.contains(scheme)
    else { return nil }
    return "Understudy refused this \(scheme):// request instead of letting URLSession open a "
      + "connection: sessions claim every scheme they could reach the network with ("
      + claimed.sorted().joined(separator: ", ") + "), and outside http(s) only a stub that "
      + "matches the request answers it; neither the unmatched-request policy nor a cassette "
      + "applies. Declare a stub for it (registry.stub(.url(\"\(request.url.absoluteString)\"), "
      + "…)), or pass it through with a stub whose response is .passThrough."
  }
}
