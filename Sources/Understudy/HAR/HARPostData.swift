extension HAR {
  /// A request body.
  ///
  /// HAR 1.2 has no way to mark binary post data, so Understudy writes non-UTF-8 request bodies
  /// as base64 with an `encoding` member, as the HAR 1.3 draft and ``Content`` do; without it a
  /// binary upload could not be replayed byte for byte.
  public struct PostData: Sendable, Equatable, HARReferenceCodable {
    /// The media type from `Content-Type`.
    public var mimeType: String
    /// The form fields, when the exporter parsed them.
    package var params: [PostParameter]
    /// The body as text, or as base64 when ``encoding`` is `base64`.
    ///
    /// Read from a cassette, the text stays in the file's bytes until it is first used.
    public var text: String {
      get { textStorage.string }
      set { textStorage = .string(newValue) }
    }
    /// The text, as given or as read from a file.
    var textStorage: HARTextStorage
    /// How ``text`` encodes the body: `base64`, or `nil` when the text is the body.
    public var encoding: String?
    /// A comment from the user or the application; kept as read and written back (a test notes
    /// an exchange in ``HAR/Entry/comment``).
    package var comment: String?

    /// Creates post data from its members.
    package init(
      mimeType: String, params: [PostParameter] = [], text: String = "", encoding: String? = nil,
      comment: String? = nil
    ) {
      self.mimeType = mimeType
      self.params = params
      self.textStorage = .string(text)
      self.encoding = encoding
      self.comment = comment
    }

    /// Creates post data holding `body`: as text when it is UTF-8, as base64 otherwise.
    public init(body: Data, mimeType: String) {
      let (text, encoding) = HARBodyText.encode(body)
      self.init(mimeType: mimeType, text: text, encoding: encoding)
    }

    /// The body bytes, or `nil` when they cannot be decoded (text that is not the base64 its
    /// ``encoding`` says; replaying the entry reports why).
    public var body: Data? { try? decodedBody() }

    /// The body bytes.
    ///
    /// - Throws: ``CassetteError`` when ``text`` is not valid base64 or ``encoding`` is not one
    ///   Understudy knows.
    package func decodedBody() throws(CassetteError) -> Data {
      // Text that is the body needs no String in between: a body read from a file is copied.
      guard encoding != nil else { return textStorage.utf8 }
      return try HARBodyText.decode(text: textStorage.string, encoding: encoding) ?? Data()
    }

    enum CodingKeys: String, CodingKey {
      case mimeType, params, text, encoding, comment
    }

    /// Decodes post data, accepting exports that write only `text` or only `params`.
    package init(reference decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      mimeType = try container.decode(.mimeType, or: "")
      params = try container.decode(.params, or: [])
      textStorage = .string(try container.decode(.text, or: ""))
      encoding = try container.decodeIfPresent(String.self, forKey: .encoding)
      comment = try container.decodeIfPresent(String.self, forKey: .comment)
      try HARBodyText.validate(
        text: textStorage.string, encoding: encoding, in: container, textKey: .text,
        encodingKey: .encoding)
    }
    /// Encodes the post data; the text is written whether it was given or read from a file.
    package func encode(reference encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(mimeType, forKey: .mimeType)
      try container.encode(params, forKey: .params)
      try container.encode(text, forKey: .text)
      try container.encodeIfPresent(encoding, forKey: .encoding)
      try container.encodeIfPresent(comment, forKey: .comment)
    }

    /// Whether two post data have the same members, ``text`` compared as text however it is
    /// held.
    public static func == (lhs: PostData, rhs: PostData) -> Bool {
      lhs.mimeType == rhs.mimeType && lhs.params == rhs.params && lhs.encoding == rhs.encoding
        && lhs.comment == rhs.comment
        && lhs.textStorage == rhs.textStorage
    }
  }

  /// A posted form field or file.
  package struct PostParameter: Codable, Sendable, Hashable {
    /// The field name.
    package var name: String
    /// The field value, or the content of a posted file.
    package var value: String?
    /// The name of a posted file.
    package var fileName: String?
    /// The media type of a posted file.
    package var contentType: String?
    /// A comment from the user or the application.
    package var comment: String?

    /// Creates a form field.
    package init(
      name: String, value: String? = nil, fileName: String? = nil, contentType: String? = nil,
      comment: String? = nil
    ) {
      self.name = name
      self.value = value
      self.fileName = fileName
      self.contentType = contentType
      self.comment = comment
    }
  }
}
