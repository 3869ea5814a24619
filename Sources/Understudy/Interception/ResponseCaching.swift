import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// HTTP caching of stubbed answers, for a registry that ``StubRegistry/cachesResponses``.
///
/// The Apple URL loading system caches what a protocol marks `.allowed` and answers fresh
/// requests from the cache without starting the protocol. FoundationNetworking does neither for
/// a protocol of its caller's (platform notes, row 10a): it looks the request up and hands the
/// protocol what it found (row 10b), and stores nothing. So on Linux the protocol stores a
/// cacheable answer itself and answers from what it is handed, by the rules below, which are the
/// ones a test of caching relies on: freshness from `Cache-Control: max-age` (or `Expires`),
/// never `no-store`, and the request's `cachePolicy`.
enum ResponseCaching {
  /// Whether any registry of the process has turned caching on: until one does, a request
  /// asks nothing more of caching than this (every request reads it, in the debug build too).
  static let inUse = Locked(false)

  /// Statuses a cache may store without further say (RFC 9111, heuristically cacheable), of
  /// the ones a stub gives.
  private static let cacheableStatuses: Set<Int> = [200, 203, 204, 300, 301, 404, 405, 410, 414]

  /// Whether `reply` to `request` may be stored: a `GET` with a cacheable status, neither side
  /// saying `no-store`, and the answer saying how long it stays fresh.
  /// Asked of every answer, so an answer that says nothing of its freshness (nearly every
  /// stub's) costs two header lookups.
  static func mayStore(_ reply: HTTPReply, for request: URLRequest) -> Bool {
    guard reply.headers["Cache-Control"] != nil || reply.headers["Expires"] != nil,
      (request.httpMethod ?? "GET") == "GET", cacheableStatuses.contains(reply.status),
      !says("no-store", in: request.value(forHTTPHeaderField: "Cache-Control")),
      !says("no-store", in: reply.headers["Cache-Control"])
    else { return false }
    return lifetime(cacheControl: reply.headers["Cache-Control"], expires: reply.headers["Expires"])
      != nil
  }

  /// What the cache keeps of an answer: its response with a `Date` header, which says how old
  /// it is when it is read again.
  static func cachedCopy(of response: HTTPURLResponse, body: Data, at now: Date = Date())
    -> CachedURLResponse?
  {
    guard let url = response.url else { return nil }
    var headers = response.allHeaderFields.reduce(into: [String: String]()) {
      $0["\($1.key)"] = "\($1.value)"
    }
    if !headers.keys.contains(where: { $0.lowercased() == "date" }) {
      headers["Date"] = httpDate.string(from: now)
    }
    guard
      let dated = HTTPURLResponse(
        url: url, statusCode: response.statusCode, httpVersion: "HTTP/1.1",
        headerFields: headers)
    else { return nil }
    return CachedURLResponse(response: dated, data: body, userInfo: nil, storagePolicy: .allowed)
  }

  /// Whether `cached` answers `request` instead of a stub: never when the request says to
  /// reload; whatever its age when it says to use cached data; else only while fresh.
  static func answers(_ request: URLRequest, with cached: CachedURLResponse, at now: Date = Date())
    -> Bool
  {
    switch request.cachePolicy {
    case .reloadIgnoringLocalCacheData, .reloadIgnoringLocalAndRemoteCacheData,
      .reloadRevalidatingCacheData:
      return false
    case .returnCacheDataElseLoad, .returnCacheDataDontLoad:
      return true
    default:
      guard !says("no-cache", in: request.value(forHTTPHeaderField: "Cache-Control")),
        let response = cached.response as? HTTPURLResponse,
        !says("no-cache", in: response.value(forHTTPHeaderField: "Cache-Control")),
        let lifetime = lifetime(
          cacheControl: response.value(forHTTPHeaderField: "Cache-Control"),
          expires: response.value(forHTTPHeaderField: "Expires"),
          date: response.value(forHTTPHeaderField: "Date")),
        let date = response.value(forHTTPHeaderField: "Date").flatMap(httpDate.date(from:))
      else { return false }
      return now.timeIntervalSince(date) < lifetime
    }
  }

  /// How long an answer stays fresh, in seconds: its `max-age`, else its `Expires` less its
  /// `Date` (or now); `nil` when it does not say.
  static func lifetime(cacheControl: String?, expires: String?, date: String? = nil)
    -> TimeInterval?
  {
    if let cacheControl {
      for directive in cacheControl.split(separator: ",") {
        let parts = directive.split(separator: "=", maxSplits: 1).map {
          $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        if parts.count == 2, parts[0] == "max-age", let seconds = TimeInterval(parts[1]) {
          return seconds
        }
      }
    }
    guard let expires = expires.flatMap(httpDate.date(from:)) else { return nil }
    let since = date.flatMap(httpDate.date(from:)) ?? Date()
    return expires.timeIntervalSince(since)
  }

  private static func says(_ directive: String, in cacheControl: String?) -> Bool {
    cacheControl?.lowercased().split(separator: ",").contains {
      $0.trimmingCharacters(in: .whitespaces) == directive
    } ?? false
  }

  /// RFC 9110's date format (`Sun, 06 Nov 1994 08:49:37 GMT`); made for each use, since not
  /// every SDK declares `DateFormatter` `Sendable`, and only cacheable answers need it.
  private static var httpDate: DateFormatter {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter
  }
}
