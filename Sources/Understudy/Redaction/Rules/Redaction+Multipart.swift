/// `multipart/form-data` bodies: a part named like a credential field (`password`, `token`)
/// holds a credential just as a form field does.
extension CompiledRedaction {
  /// The body with the content of each credential-named part (files excepted) replaced by the
  /// placeholder.
  func redactMultipart(_ text: String, mimeType: String, echoes: inout RedactionEchoes) -> String {
    // A body is multipart by its type or, without one, by a boundary line (its first, or one
    // after a preamble, before a Content-Disposition): anything else is not copied to be
    // looked at.
    guard !queryNames.isEmpty,
      mimeType.lowercased().contains("multipart/") || text.utf8.starts(with: "--".utf8)
        || text.contains(bytes: "\n--") && text.contains(bytesIgnoringCase: "content-disposition")
    else { return text }
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
        let named = part.filename == nil && part.name.map(queryNames.matches) == true
        if redacted != decoded, !named {
          result += bytes[position..<part.contentRange.lowerBound]
          result += Data(TransferEncodedPart.encoded(redacted, encoding).utf8)
          position = part.contentRange.upperBound
          continue
        }
      }
      guard part.filename == nil, let name = part.name, queryNames.matches(name) else { continue }
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
}
