/// `multipart/form-data` bodies: a part named like a credential field (`password`, `token`)
/// holds a credential just as a form field does.
extension CompiledRedaction {
  /// The body with the content of each credential-named part (files excepted, ``isFile(_:)``)
  /// replaced by the placeholder.
  func redactMultipart(_ text: String, mimeType: String, echoes: inout RedactionEchoes) -> String {
    // A body is multipart by its type or, without one, by a boundary line (its first, or one
    // after a preamble, before a Content-Disposition): anything else is not copied to be
    // looked at.
    guard !queryNames.isEmpty else { return text }
    guard
      mimeType.lowercased().contains("multipart/") || text.utf8.starts(with: "--".utf8)
        || text.contains(bytes: "\n--") && text.contains(bytesIgnoringCase: "content-disposition")
    else { return redactQuotedPart(text, echoes: &echoes) }
    let bytes = Data(text.utf8)
    guard let body = MultipartBody(bytes, contentType: mimeType) else { return text }
    var result = Data()
    var position = 0
    for part in body.parts {
      if let encoding = TransferEncodedPart.encoding(of: part),
        let decoded = TransferEncodedPart.decoded(part.data, encoding)
      {
        // Its text is read as a body of its type, whatever its name: a credential-named part
        // is replaced whole by that reading's placeholder below all the same.
        let redacted = redactBody(
          decoded, mimeType: part.headers["Content-Type"] ?? "", echoes: &echoes)
        let named = !Self.isFile(part) && part.name.map(queryNames.matches) == true
        if redacted != decoded, !named {
          result += bytes[position..<part.contentRange.lowerBound]
          result += Data(TransferEncodedPart.encoded(redacted, encoding).utf8)
          position = part.contentRange.upperBound
          continue
        }
      }
      guard !Self.isFile(part), let name = part.name, queryNames.matches(name) else { continue }
      let key = RedactionPlaceholder.name(from: name.lowercased())
      // Part boundaries are ASCII line breaks, so the content is whole UTF-8 text.
      echoes.remember(String(decoding: part.data, as: UTF8.self), as: key)
      result += bytes[position..<part.contentRange.lowerBound]
      result += Data(RedactionPlaceholder.text(key).utf8)
      position = part.contentRange.upperBound
    }
    guard position > 0 else { return text }
    result += bytes[position...]
    return String(decoding: result, as: UTF8.self)
  }

  /// Whether `part` is a file a form sent: it has a file name. A browser sends a file field
  /// with no file chosen as `filename=""`, a field like any other, whose content a client can
  /// fill all the same.
  private static func isFile(_ part: MultipartPart) -> Bool {
    part.filename.map { !$0.isEmpty } ?? false
  }

  /// The boundary a part quoted without its own is framed with.
  private static let quotedPartBoundary = "understudy-quoted-part"

  /// A part quoted without its boundary line (what a stub's `body(containing:)` expects): its
  /// header block, starting with `Content-Disposition:` or `Content-Type:` in any case, a blank
  /// line, then its content. Framed with a boundary of its own, it reads as the one part it is.
  private func redactQuotedPart(_ text: String, echoes: inout RedactionEchoes) -> String {
    let start = String(decoding: text.utf8.prefix(20), as: UTF8.self).lowercased()
    guard start.hasPrefix("content-disposition:") || start.hasPrefix("content-type:"),
      text.contains(bytesIgnoringCase: "content-disposition")
    else { return text }
    let open = "--\(Self.quotedPartBoundary)\r\n"
    let close = "\r\n--\(Self.quotedPartBoundary)--\r\n"
    let redacted = redactMultipart(
      open + text + close,
      mimeType: "multipart/form-data; boundary=\(Self.quotedPartBoundary)", echoes: &echoes)
    guard redacted.hasPrefix(open), redacted.hasSuffix(close) else { return text }
    return String(redacted.dropFirst(open.count).dropLast(close.count))
  }
}
