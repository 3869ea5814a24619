import Foundation

/// A URL with the parts matching reads from it, read once per distinct URL.
///
/// A test sends the same few URLs again and again, and FoundationNetworking hands the protocol a
/// new `URL` for each task (about 350 bytes with its parse). Every snapshot the journal keeps
/// kept its own; snapshots of one URL now share one `ParsedURL`, so a journal that keeps every
/// request grows by the request's own fields only, and the URL's path, host and query are read
/// once instead of once a request.
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
  static func of(_ url: URL, in recent: RecentURLs = .shared) -> ParsedURL {
    // A relative URL's text does not say what it resolves to; it is rare enough to read afresh.
    guard url.baseURL == nil else { return ParsedURL(url) }
    let text = url.relativeString
    if let known = recent.find(text) { return known }
    let parsed = ParsedURL(url)
    recent.insert(parsed, as: text)
    return parsed
  }

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

/// The last few URLs read, by their text; the oldest is replaced first. One is shared by the
/// process; tests make their own, so other tests' requests never push theirs out.
struct RecentURLs: Sendable {
  static let shared = RecentURLs()

  private struct Ring {
    var texts: [String] = []
    var parsed: [ParsedURL] = []
    var next = 0
  }

  /// Enough for a test that alternates between a handful of endpoints; each lookup compares
  /// against all of them.
  let capacity: Int
  private let ring = Locked(Ring())

  init(capacity: Int = 8) {
    self.capacity = max(1, capacity)
  }

  func find(_ text: String) -> ParsedURL? {
    ring.withLock { ring in
      // Newest first: a test usually repeats the URL it just sent.
      var index = ring.next
      for _ in ring.texts.indices {
        index = (index == 0 ? ring.texts.count : index) - 1
        if ring.texts[index] == text { return ring.parsed[index] }
      }
      return nil
    }
  }

  func insert(_ url: ParsedURL, as text: String) {
    ring.withLock { ring in
      if ring.texts.count < capacity {
        ring.texts.append(text)
        ring.parsed.append(url)
      } else {
        ring.texts[ring.next] = text
        ring.parsed[ring.next] = url
      }
      ring.next = (ring.next + 1) % capacity
    }
  }
}
