/// `multipart/form-data` bodies: a part named like a credential field (`password`, `token`)
/// holds a credential just as a form field does.
extension CompiledRedaction {
  /// The body with the content of each credential-named part (files excepted) replaced by the
  /// placeholder.
  func redactMultipart(_ text: String, mimeType: String, echoes: inout RedactionEchoes) -> String {
    guard !queryNames.isEmpty, let boundary = Self.boundary(text, mimeType: mimeType) else {
      return text
    }
    let delimiter = "--" + boundary
    var parts = text.components(separatedBy: delimiter)
    guard parts.count > 2 else { return text }
    for index in parts.indices.dropFirst() {
      parts[index] = redactPart(parts[index], echoes: &echoes)
    }
    return parts.joined(separator: delimiter)
  }

  private func redactPart(_ part: String, echoes: inout RedactionEchoes) -> String {
    guard let separator = part.range(of: "\r\n\r\n") ?? part.range(of: "\n\n") else {
      return part
    }
    let headers = part[..<separator.lowerBound]
    guard let disposition = headers.range(of: "name=\"", options: .caseInsensitive),
      !headers.localizedCaseInsensitiveContains("filename=")
    else { return part }
    let name = headers[disposition.upperBound...].prefix { $0 != "\"" }
    guard queryNames.matches(String(name)) else { return part }
    var content = part[separator.upperBound...]
    // The line break before the next delimiter belongs to the delimiter.
    var ending = ""
    for suffix in ["\r\n", "\n"] where content.hasSuffix(suffix) {
      content = content.dropLast(suffix.count)
      ending = suffix
      break
    }
    let key = RedactionPlaceholder.name(from: name.lowercased())
    echoes.remember(String(content), as: key)
    return part[..<separator.upperBound] + RedactionPlaceholder.text(key) + ending
  }

  /// The boundary named by the type, or the one the body opens with.
  private static func boundary(_ text: String, mimeType: String) -> String? {
    let type = mimeType.lowercased()
    if type.contains("multipart/"), let range = type.range(of: "boundary=") {
      let value = mimeType[range.upperBound...].prefix { $0 != ";" }
        .trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
      return value.isEmpty ? nil : value
    }
    guard text.hasPrefix("--"), let lineEnd = text.firstIndex(where: { $0 == "\r\n" || $0 == "\n" })
    else { return nil }
    let line = text[text.index(text.startIndex, offsetBy: 2)..<lineEnd]
    guard !line.isEmpty, line.count <= 70, !line.contains(" "),
      text.contains("Content-Disposition") || text.contains("content-disposition")
    else { return nil }
    return String(line)
  }
}
