/// One part of a `multipart/form-data` request body: a form field or an uploaded file.
///
/// Read the parts of a request with ``InterceptedRequest/multipartParts``, in a responder or
/// from the journal; match them with ``RequestPattern/multipartPart(_:filename:contentType:content:)``.
///
/// Its ``description`` is safe to print: a part named like a credential (`password`, `token`)
/// shows its length only, and other text is masked wherever a credential shows in it.
public struct MultipartPart: Sendable, Hashable, CustomStringConvertible {
  /// The field name, from `Content-Disposition: form-data; name="…"`.
  public let name: String?
  /// The file name of an uploaded file, from `filename="…"` (or `filename*`), or `nil` for a
  /// plain field.
  public let filename: String?
  /// The part's own header fields (`Content-Disposition`, `Content-Type` …).
  public let headers: HTTPHeaders
  /// Where the content sits in the request body, in bytes.
  let contentRange: Range<Int>
  /// The content, byte for byte.
  public let data: Data

  init(
    name: String?, filename: String?, headers: HTTPHeaders, contentRange: Range<Int>,
    data: Data
  ) {
    self.name = name
    self.filename = filename
    self.headers = headers
    self.contentRange = contentRange
    self.data = data
  }

  /// The part's Content-Type header, or `nil` when it has none (RFC 7578 then means
  /// `text/plain`).
  var contentType: String? { headers["Content-Type"] }

  /// The content decoded as UTF-8, or `nil` when it is not UTF-8.
  var text: String? { String(data: data, encoding: .utf8) }

  /// `part "avatar", file "me.png" (image/png, 2048 bytes)`; a field's text follows, masked.
  public var description: String { summary(naming: nil) }

  /// The one-line summary reports show, masking with a test's own redaction names too.
  func summary(naming: NamedSecrets?) -> String {
    var line = "part " + (name.map { $0.quoted(limit: 60) } ?? "(no name)")
    if let filename { line += ", file " + LogRedaction.mask(filename.quoted(limit: 60)) }
    let type = contentType.map { LogRedaction.mask($0.clipped(to: 60), naming: naming) + ", " }
    line += " (\(type ?? "")\(data.count) byte\(data.count == 1 ? "" : "s"))"
    // A file's content is not shown: it is rarely text, and often large.
    guard filename == nil, let text else { return line }
    if let name, NamedSecrets.isSecret(name, at: .parameter, naming: naming) {
      return line + ": " + LogRedaction.masked(text)
    }
    return line + ": " + text.maskedQuoted(limit: 80, oneLine: true, naming: naming)
  }
}

extension InterceptedRequest {
  /// The parts of a `multipart/form-data` body, in order; `nil` when the body is not multipart.
  ///
  /// The boundary comes from the Content-Type header; a body sent without one is recognised by
  /// its first line.
  public var multipartParts: [MultipartPart]? {
    guard let body else { return nil }
    return MultipartBody(body, contentType: headers["Content-Type"])?.parts
  }
}

extension [MultipartPart] {
  /// The parts' names as reports list them, never their content: `"avatar", "bio"`, or `none`.
  var names: String {
    isEmpty ? "none" : map { ($0.name ?? "(no name)").quoted(limit: 40) }.joined(separator: ", ")
  }
}
