extension HAR {
  /// What the browser cache held for a request, before and after it.
  ///
  /// The spec distinguishes a missing member ("not known") from `null` ("there was no cache
  /// entry"), so each side is a ``State`` rather than an optional.
  package struct Cache: Codable, Sendable, Hashable {
    /// What is known about one side of the request.
    package enum State: Sendable, Hashable {
      /// Nothing is known; the member is left out of the file.
      case unknown
      /// There was no cache entry; written as `null`.
      case absent
      /// The cache entry.
      ///
      /// Boxed: almost every entry's cache is empty, and kept inline two cache entries made
      /// every ``HAR/Entry`` 120 bytes larger, 1.2 MB of a loaded 10,000-entry cassette.
      indirect case present(CacheEntry)
    }

    /// The cache entry before the request.
    package var beforeRequest: State
    /// The cache entry after the request.
    package var afterRequest: State
    /// A comment from the user or the application.
    package var comment: String?

    /// Creates cache information; the default, nothing known, is written as `{}`.
    package init(
      beforeRequest: State = .unknown, afterRequest: State = .unknown, comment: String? = nil
    ) {
      self.beforeRequest = beforeRequest
      self.afterRequest = afterRequest
      self.comment = comment
    }

    private enum CodingKeys: String, CodingKey {
      case beforeRequest, afterRequest, comment
    }

    /// Decodes cache information, telling a missing member from `null`.
    package init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      beforeRequest = try Self.state(container, .beforeRequest)
      afterRequest = try Self.state(container, .afterRequest)
      comment = try container.decodeIfPresent(String.self, forKey: .comment)
    }

    /// Encodes cache information, leaving out what is unknown and writing `null` for no entry.
    package func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      for (state, key) in [
        (beforeRequest, CodingKeys.beforeRequest), (afterRequest, .afterRequest),
      ] {
        switch state {
        case .unknown: break
        case .absent: try container.encodeNil(forKey: key)
        case .present(let entry): try container.encode(entry, forKey: key)
        }
      }
      try container.encodeIfPresent(comment, forKey: .comment)
    }

    private static func state(
      _ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys
    ) throws -> State {
      guard container.contains(key) else { return .unknown }
      if try container.decodeNil(forKey: key) { return .absent }
      return .present(try container.decode(CacheEntry.self, forKey: key))
    }
  }

  /// A browser cache entry.
  package struct CacheEntry: Codable, Sendable, Hashable {
    /// When the entry expires, as the exporter wrote it.
    package var expires: String?
    /// When the entry was last opened, as the exporter wrote it.
    package var lastAccess: String
    /// The entry's entity tag.
    package var eTag: String
    /// How many times the entry has been opened.
    package var hitCount: Int
    /// A comment from the user or the application.
    package var comment: String?

    /// Creates a cache entry.
    package init(
      expires: String? = nil, lastAccess: String, eTag: String, hitCount: Int,
      comment: String? = nil
    ) {
      self.expires = expires
      self.lastAccess = lastAccess
      self.eTag = eTag
      self.hitCount = hitCount
      self.comment = comment
    }

    /// Decodes a cache entry, accepting exports that leave out its required members.
    package init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      expires = try container.decodeIfPresent(String.self, forKey: .expires)
      lastAccess = try container.decode(.lastAccess, or: "")
      eTag = try container.decode(.eTag, or: "")
      hitCount = try container.decode(.hitCount, or: 0)
      comment = try container.decodeIfPresent(String.self, forKey: .comment)
    }
  }
}
