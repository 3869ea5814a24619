extension HAR {
  /// A page the requests were made for, as browsers group them.
  ///
  /// Understudy records no pages; the type exists so browser exports load and write back intact.
  package struct Page: Codable, Sendable, Hashable {
    /// When the page started loading, kept to the millisecond like every date in a cassette.
    package var startedDateTime: Date {
      didSet { startedDateTime = HARTimestamp.normalized(startedDateTime) }
    }
    /// The identifier entries refer to in ``Entry/pageref``.
    package var id: String
    /// The page title.
    package var title: String
    /// When the page's load events fired.
    package var pageTimings: PageTimings
    /// A comment from the user or the application.
    package var comment: String?

    /// Creates a page.
    package init(
      startedDateTime: Date, id: String, title: String = "",
      pageTimings: PageTimings = PageTimings(), comment: String? = nil
    ) {
      self.startedDateTime = HARTimestamp.normalized(startedDateTime)
      self.id = id
      self.title = title
      self.pageTimings = pageTimings
      self.comment = comment
    }

    private enum CodingKeys: String, CodingKey {
      case startedDateTime, id, title, pageTimings, comment
    }

    /// Decodes a page, accepting exports that leave out the title or the timings.
    package init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      startedDateTime = try container.decodeTimestamp(.startedDateTime)
      id = try container.decode(String.self, forKey: .id)
      title = try container.decode(.title, or: "")
      pageTimings = try container.decode(.pageTimings, or: PageTimings())
      comment = try container.decodeIfPresent(String.self, forKey: .comment)
    }

    /// Encodes the page with its date in UTC to the millisecond.
    package func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encodeTimestamp(startedDateTime, forKey: .startedDateTime)
      try container.encode(id, forKey: .id)
      try container.encode(title, forKey: .title)
      try container.encode(pageTimings, forKey: .pageTimings)
      try container.encodeIfPresent(comment, forKey: .comment)
    }
  }

  /// Milliseconds from the start of a page load to its load events; `-1` when unknown.
  package struct PageTimings: Codable, Sendable, Hashable {
    /// When the content was loaded (`DOMContentLoaded`), or `-1`.
    package var onContentLoad: Double
    /// When the page was loaded (`load`), or `-1`.
    package var onLoad: Double
    /// A comment from the user or the application.
    package var comment: String?

    /// Creates page timings; the defaults mean "not known".
    package init(onContentLoad: Double = -1, onLoad: Double = -1, comment: String? = nil) {
      self.onContentLoad = onContentLoad
      self.onLoad = onLoad
      self.comment = comment
    }

    /// Decodes page timings; the spec makes both optional with `-1` as the default.
    package init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      onContentLoad = try container.decode(.onContentLoad, or: -1)
      onLoad = try container.decode(.onLoad, or: -1)
      comment = try container.decodeIfPresent(String.self, forKey: .comment)
    }
  }
}
