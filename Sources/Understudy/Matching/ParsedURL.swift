import Foundation

/// A URL with the parts matching reads from it, read once per distinct URL.
///
/// A test sends the same few URLs again and again. Every request snapshot used to read these
/// six parts from its URL and keep them (most of its 184 bytes, kept by the journal for every
/// request); snapshots of one URL now share one `ParsedURL`, so the parts are read once and a
/// journal that keeps every request grows by the request's own fields only.
final class ParsedURL: Sendable {
  let url: URL
  /// The path, percent-decoded (`/` when empty).
  let path: String
  /// The path as written, percent-encoded.
  let encodedPath: String
  /// The query items, percent-decoded, in the order they appear.
  let queryItems: [URLQueryItem]
  /// The host, lower-cased.
  let host: String?
  /// The scheme, lower-cased.
  let scheme: String?
  let port: Int?

  /// The parts of `url`, shared with earlier requests for the same URL when one of the last few
  /// named it.
  static func of(_ url: URL, in recent: RecentReadings<String, ParsedURL> = shared) -> ParsedURL {
    // A relative URL's text does not say what it resolves to; it is rare enough to read afresh.
    guard url.baseURL == nil else { return ParsedURL(url) }
    return recent.reading(url.relativeString) { _ in ParsedURL(url) }
  }

  /// The process's last eight URLs: enough for a test that alternates between a handful of
  /// endpoints. Tests of the memo make their own, so other tests never push theirs out.
  static let shared = RecentReadings<String, ParsedURL>(capacity: 8)

  private init(_ url: URL) {
    self.url = url
    // Decoding the host costs more than the rest of this initialiser; hosts rarely hold a `%`.
    let encodedHost = url.host(percentEncoded: true)
    let hasEscapes = encodedHost?.utf8.contains(UInt8(ascii: "%")) ?? false
    // Skip URLComponents (a second parse of the URL) when the URL's own accessors give the same
    // answer: an absolute URL's path, and no query. A relative URL keeps URLComponents, which
    // reads the relative part only.
    if url.baseURL == nil {
      let encoded = url.path(percentEncoded: true)
      // utf8.contains: `contains("%")` resolves to Foundation's substring search, ~30x slower.
      let decoded =
        encoded.utf8.contains(UInt8(ascii: "%")) ? url.path(percentEncoded: false) : encoded
      path = decoded.isEmpty ? "/" : decoded
      encodedPath = encoded
      queryItems =
        url.query(percentEncoded: true) == nil
        ? [] : URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    } else {
      let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
      let componentsPath = components?.path ?? url.path
      path = componentsPath.isEmpty ? "/" : componentsPath
      encodedPath = url.path(percentEncoded: true)
      queryItems = components?.queryItems ?? []
    }
    host = (hasEscapes ? url.host : encodedHost)?.lowercased()
    scheme = url.scheme.map { scheme in
      // Schemes almost always arrive lower-case already; lowercased() would still build a copy.
      scheme.utf8.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
        ? scheme.lowercased() : scheme
    }
    port = url.port
  }
}
