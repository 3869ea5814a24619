extension HAR {
  /// A response body: its bytes as ``text``, base64 when they are not UTF-8 text.
  public struct Content: Sendable, Equatable, HARReferenceCodable {
    /// The length of the body in bytes after decoding.
    public var size: Int
    /// The number of bytes compression saved in transfer.
    package var compression: Int? {
      get { notes?.value.compression }
      set { notes = Notes(compression: newValue, comment: comment).boxed }
    }
    /// The media type from `Content-Type`, charset included.
    public var mimeType: String
    /// The body as text, or as base64 when ``encoding`` is `base64`.
    ///
    /// Read from a cassette, the text stays in the file's bytes until it is first used.
    public var text: String? {
      get { textStorage?.string }
      set { textStorage = newValue.map(HARTextStorage.string) }
    }
    /// The text, as given or as read from a file.
    var textStorage: HARTextStorage?
    /// How ``text`` encodes the body: `base64`, or `nil` when the text is the body.
    public var encoding: String?
    /// A comment from the user or the application.
    package var comment: String? {
      get { notes?.value.comment }
      set { notes = Notes(compression: compression, comment: newValue).boxed }
    }
    /// ``compression`` and ``comment``, boxed and `nil` when neither is set, as in every
    /// cassette Understudy records: inline they took 32 bytes of every entry of a loaded
    /// cassette (issue 17).
    private var notes: Boxed<Notes>?

    /// The members of a content most files leave out.
    private struct Notes: Sendable {
      var compression: Int?
      var comment: String?

      /// The members in a box, or `nil` when neither is set.
      var boxed: Boxed<Notes>? { compression == nil && comment == nil ? nil : Boxed(self) }
    }
    /// How the body arrived, part by part, when it came in more than one (server-sent events,
    /// say); stored as the custom member `_chunks`, which other HAR tools ignore.
    package var chunks: [Chunk]?

    /// One part of a body as it arrived.
    package struct Chunk: Codable, Sendable, Hashable {
      /// Its length in bytes.
      package var size: Int
      /// When it arrived, in milliseconds after the response's status and headers.
      package var time: Double

      /// Creates a chunk record.
      package init(size: Int, time: Double) {
        self.size = size
        self.time = time
      }
    }

    enum CodingKeys: String, CodingKey {
      case size, compression, mimeType, text, encoding, comment
      case chunks = "_chunks"
    }

    /// Creates content from its members.
    package init(
      size: Int = 0, compression: Int? = nil, mimeType: String = "", text: String? = nil,
      encoding: String? = nil, comment: String? = nil
    ) {
      self.size = size
      self.notes = Notes(compression: compression, comment: comment).boxed
      self.mimeType = mimeType
      self.textStorage = text.map(HARTextStorage.string)
      self.encoding = encoding
    }

    /// Creates content holding `body`: as text when it is UTF-8, so cassettes stay readable and
    /// diffable, and as base64 otherwise, so binary bodies come back byte for byte.
    public init(body: Data, mimeType: String) {
      let (text, encoding) = HARBodyText.encode(body)
      self.init(size: body.count, mimeType: mimeType, text: text, encoding: encoding)
    }

    /// The size of a body the exporter declared but left out, or `nil` when the body is present
    /// (or empty).
    ///
    /// Browsers, Fiddler and other tools write `size` without `text` for bodies they did not
    /// keep (large, binary, or not yet loaded). Such an entry cannot be replayed: its answer
    /// would be an empty body where the server sent bytes.
    public var omittedSize: Int? { textStorage == nil && size > 0 ? size : nil }

    /// The body bytes, or `nil` when there is no text or it cannot be decoded (text that is not
    /// the base64 its ``encoding`` says; replaying the entry reports why).
    public var body: Data? { try? decodedBody() }

    /// The body bytes, or `nil` when there is no text.
    ///
    /// - Throws: ``CassetteError`` when ``text`` is not valid base64 or ``encoding`` is not one
    ///   Understudy knows.
    package func decodedBody() throws(CassetteError) -> Data? {
      guard let textStorage else { return nil }
      // Text that is the body needs no String in between: a body read from a file is copied.
      guard encoding != nil else { return textStorage.utf8 }
      return try HARBodyText.decode(text: textStorage.string, encoding: encoding)
    }

    /// Decodes content, rejecting base64 that does not decode so the error names the entry.
    package init(reference decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      let size = try container.decodeIfPresent(Int.self, forKey: .size)
      let compression = try container.decodeIfPresent(Int.self, forKey: .compression)
      mimeType = try container.decode(.mimeType, or: "")
      textStorage = try container.decodeIfPresent(String.self, forKey: .text)
        .map(HARTextStorage.string)
      encoding = try container.decodeIfPresent(String.self, forKey: .encoding)
      notes =
        Notes(
          compression: compression,
          comment: try container.decodeIfPresent(String.self, forKey: .comment)
        ).boxed
      chunks = try container.decodeIfPresent([Chunk].self, forKey: .chunks)
      try HARBodyText.validate(
        text: textStorage?.string, encoding: encoding, in: container, textKey: .text,
        encodingKey: .encoding)
      // The spec requires a size; when an exporter leaves it out, the body knows it.
      self.size =
        size ?? (try? HARBodyText.decode(text: textStorage?.string, encoding: encoding))??.count
        ?? 0
    }

    /// Encodes the content; the text is written whether it was given or read from a file.
    package func encode(reference encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(size, forKey: .size)
      try container.encodeIfPresent(compression, forKey: .compression)
      try container.encode(mimeType, forKey: .mimeType)
      try container.encodeIfPresent(text, forKey: .text)
      try container.encodeIfPresent(encoding, forKey: .encoding)
      try container.encodeIfPresent(comment, forKey: .comment)
      try container.encodeIfPresent(chunks, forKey: .chunks)
    }

    /// Whether two contents have the same members, ``text`` compared as text however it is held.
    public static func == (lhs: Content, rhs: Content) -> Bool {
      lhs.size == rhs.size && lhs.compression == rhs.compression
        && lhs.mimeType == rhs.mimeType && lhs.encoding == rhs.encoding
        && lhs.comment == rhs.comment && lhs.chunks == rhs.chunks
        && lhs.textStorage == rhs.textStorage
    }
  }
}
