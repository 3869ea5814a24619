// Two readers build this model: each type's init(reference:) below and in the HAR*.swift files (the
// Codable reference, reached through HARReference, whose errors CassetteError+Decoding.swift
// locates) and HARReader, one pass over the bytes that the loader tries first. A member's default,
// check or name changes in both; HARReaderTests and HARReaderMemberTests hold them equal.

/// An HTTP Archive (HAR 1.2): the file format Understudy records cassettes in.
///
/// HAR is what browsers, proxies and HTTP tools already export, so a cassette can be opened in a
/// browser's network panel and a browser export can be replayed as a cassette. The model reads
/// and writes the [HAR 1.2 specification](http://www.softwareishard.com/blog/har-12-spec/)
/// member for member, so a file loses nothing on a round trip; the public members are the ones a
/// test reads or edits (see ``Entry``), and the rest (pages, cookie arrays, cache and timing
/// details, the creator) is kept as read and written back.
/// Decoding accepts what real exporters write (missing members get the specification's defaults,
/// custom `_`-prefixed members are ignored); encoding is deterministic so cassettes diff cleanly.
public struct HAR: Sendable, Equatable {
  /// The root of the archive; the file is `{"log": …}`.
  public var log: Log

  /// Creates an archive around `log`.
  package init(log: Log) {
    self.log = log
  }

  /// Creates an archive of `entries`, written by Understudy.
  public init(entries: [Entry]) {
    self.init(log: Log(entries: entries))
  }
}

extension HAR: HARReferenceCodable {
  private enum CodingKeys: String, CodingKey {
    case log
  }

  /// Decodes the archive: its one member is the log.
  package init(reference decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    log = try container.decode(Log.self, forKey: .log)
  }

  /// Encodes the archive as `{"log": …}`.
  package func encode(reference encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(log, forKey: .log)
  }
}

extension HAR.Log: HARReferenceCodable {}

extension HAR {
  /// The exported data: who wrote it, the pages, and one entry per HTTP exchange.
  public struct Log: Sendable, Equatable {
    /// The format version; `1.2` for files Understudy writes.
    package var version: String
    /// The application that wrote the file.
    package var creator: Creator
    /// The browser that made the requests, when a browser did.
    package var browser: Browser?
    /// The pages the requests belong to; empty when the tool does not group by page.
    package var pages: [Page]
    /// One entry per request, in the order they were sent.
    public var entries: [Entry]
    /// A comment from the user or the application.
    package var comment: String?
    /// The seed of the digests in this cassette's redaction placeholders (`<redacted:key:7f3a>`),
    /// written as the custom member `_redactionDigestSeed`: the moment the cassette was first
    /// recorded, so one value gives unrelated digests in two cassettes. It is kept with the
    /// cassette so replay computes the same digests; `nil` in files recorded before digests,
    /// whose placeholders carry none and replay as they always did.
    package var redactionDigestSeed: String?

    private enum CodingKeys: String, CodingKey {
      case version, creator, browser, pages, entries, comment
      case redactionDigestSeed = "_redactionDigestSeed"
    }

    /// Creates a log; the defaults describe a cassette written by Understudy.
    package init(
      version: String = "1.2", creator: Creator = .understudy, browser: Browser? = nil,
      pages: [Page] = [], entries: [Entry] = [], comment: String? = nil
    ) {
      self.version = version
      self.creator = creator
      self.browser = browser
      self.pages = pages
      self.entries = entries
      self.comment = comment
    }

    /// Decodes a log, accepting exports that leave out `version`, `creator` or `pages`.
    package init(reference decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      version = try container.decode(.version, or: "1.2")
      creator = try container.decode(.creator, or: Creator(name: "", version: ""))
      browser = try container.decodeIfPresent(Browser.self, forKey: .browser)
      pages = try container.decode(.pages, or: [])
      entries = try container.decode([Entry].self, forKey: .entries)
      comment = try container.decodeIfPresent(String.self, forKey: .comment)
      redactionDigestSeed = try container.decodeIfPresent(String.self, forKey: .redactionDigestSeed)
    }

    /// Encodes every member, the absent optional ones left out.
    package func encode(reference encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(version, forKey: .version)
      try container.encode(creator, forKey: .creator)
      try container.encodeIfPresent(browser, forKey: .browser)
      try container.encode(pages, forKey: .pages)
      try container.encode(entries, forKey: .entries)
      try container.encodeIfPresent(comment, forKey: .comment)
      try container.encodeIfPresent(redactionDigestSeed, forKey: .redactionDigestSeed)
    }
  }

  /// The name and version of an application: the spec gives the creator and the browser the same
  /// members.
  package struct Creator: Codable, Sendable, Hashable {
    /// The application's name.
    package var name: String
    /// The application's version.
    package var version: String
    /// A comment from the user or the application.
    package var comment: String?

    /// Creates a name and version.
    package init(name: String, version: String, comment: String? = nil) {
      self.name = name
      self.version = version
      self.comment = comment
    }

    /// Understudy as the creator of the cassettes it records. The version names the cassette
    /// conventions (sorted headers, redaction placeholders), not the library release, so
    /// upgrading the library does not rewrite every cassette.
    package static let understudy = Creator(name: "Understudy", version: "1")
  }

  /// The browser that produced an export; it has the same members as ``Creator``.
  package typealias Browser = Creator
}
