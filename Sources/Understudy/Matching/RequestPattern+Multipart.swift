// Multipart matchers read the body with the same parser redaction uses, so a part the journal
// shows, a part a stub matches and a part a cassette redacts are the same part.

extension RequestPattern {
  /// Matches a `multipart/form-data` body that has a part named `name` with the given file name,
  /// Content-Type and content; each one left `nil` is not checked. Other parts may be present,
  /// and when several parts share the name (`files[]`), one of them must match.
  ///
  /// ```swift
  /// .post("/avatar")
  ///   && .multipartPart("avatar", filename: "me.png", contentType: "image/png")
  ///   && .multipartPart("meta", content: .jsonSubset(["user": "ann"]))
  /// ```
  ///
  /// The Content-Type compares without case; an expected type without parameters
  /// (`text/plain`) ignores the part's (`; charset=utf-8`). A part without a Content-Type is
  /// `text/plain`, as RFC 7578 says. A report names the part and what differed:
  /// `✗ part avatar: expected …, got filename "other.png"`.
  public static func multipartPart(
    _ name: String, filename: String? = nil, contentType: String? = nil,
    content: MultipartContent? = nil
  ) -> RequestPattern {
    let expectation = PartExpectation(
      filename: filename, contentType: contentType, content: content)
    return RequestPattern.builtIn(
      field: "part \(name)".clipped(to: 80), expected: expectation.description,
      key: expectation.key(name: name)
    ) { request in
      guard let body = request.body, !body.isEmpty else { return .mismatched(actual: "no body") }
      guard let parts = request.multipartParts else {
        let type = request.headers["Content-Type"] ?? "none"
        return .mismatched(
          actual: "not multipart/form-data (Content-Type \(type.clipped(to: 60)))")
      }
      let named = parts.filter { $0.name == name }
      guard !named.isEmpty else {
        return .mismatched(actual: "absent; parts: " + parts.names)
      }
      var firstDifference = ""
      for part in named {
        guard let difference = expectation.difference(part) else { return .matched }
        if firstDifference.isEmpty { firstDifference = difference }
      }
      return .mismatched(actual: firstDifference)
    }
  }
}

/// What a multipart part's content must be, for
/// ``RequestPattern/multipartPart(_:filename:contentType:content:)``.
#if hasAttribute(nonexhaustive)
  @nonexhaustive
#endif
public enum MultipartContent: Sendable, Hashable {
  /// Exactly these bytes.
  case data(Data)
  /// Exactly this text, in UTF-8.
  case text(String)
  /// JSON containing this subset, compared as ``RequestPattern/jsonBody(subset:)`` compares a
  /// body: key order and whitespace do not matter, other keys may be present.
  case jsonSubset(JSONValue)
}

/// The checks of one part matcher, and the sentence a report gives for the first that fails.
private struct PartExpectation: CustomStringConvertible {
  let filename: String?
  let contentType: String?
  let content: MultipartContent?

  var description: String {
    var checks: [String] = []
    if let filename { checks.append("filename " + filename.quoted(limit: 60)) }
    if let contentType { checks.append("Content-Type " + contentType) }
    switch content {
    case .data(let data): checks.append("\(data.count) bytes")
    case .text(let text): checks.append("text " + text.quoted(limit: 60))
    case .jsonSubset(let subset): checks.append("JSON subset \(subset)")
    case nil: break
    }
    return checks.isEmpty ? "present" : checks.joined(separator: ", ")
  }

  /// Every check in full, each field apart: what a pattern for part `name` compares by.
  func key(name: String) -> String {
    let content: String? =
      switch content {
      case .data(let data): "bytes " + data.base64EncodedString()
      case .text(let text): "text " + text
      case .jsonSubset(let subset): "JSON subset \(subset)"
      case nil: nil
      }
    return [name, filename, contentType?.lowercased(), content]
      .map { $0.map { "=" + $0 } ?? "-" }.joined(separator: "\u{1F}")
  }

  /// Why `part` does not match, or `nil` when it does.
  func difference(_ part: MultipartPart) -> String? {
    if let filename, part.filename != filename {
      return part.filename.map { "filename " + $0.quoted(limit: 60) } ?? "no filename (a field)"
    }
    if let contentType {
      let actual = part.contentType ?? "text/plain"
      if !Self.sameType(expected: contentType, actual: actual) {
        return "Content-Type " + actual.clipped(to: 60)
          + (part.contentType == nil ? " (no Content-Type)" : "")
      }
    }
    switch content {
    case nil:
      return nil
    case .data(let data):
      guard let offset = firstDifference(data, part.data) else { return nil }
      return "\(part.data.count) bytes, first difference at offset \(offset)"
    case .text(let text):
      guard let actual = part.text else { return "\(part.data.count) bytes, not UTF-8" }
      guard let offset = firstDifference(text, actual) else { return nil }
      return "\(actual.maskedQuoted(limit: 60)), first difference at character \(offset)"
    case .jsonSubset(let subset):
      let actual: JSONValue
      do {
        actual = try JSONValue(parsing: part.data)
      } catch {
        guard let text = part.text else {
          return "content is not JSON (\(part.data.count) bytes, not UTF-8)"
        }
        return "content is not JSON: it starts " + text.maskedQuoted(limit: 32, oneLine: true)
      }
      return JSONDifference(mode: .subset).find(expected: subset, actual: actual).map {
        "JSON " + $0.clipped()
      }
    }
  }

  private static func sameType(expected: String, actual: String) -> Bool {
    func normalized(_ type: some StringProtocol) -> String {
      type.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        .joined(separator: ";").lowercased()
    }
    if expected.contains(";") { return normalized(expected) == normalized(actual) }
    return normalized(expected) == normalized(actual.prefix { $0 != ";" })
  }
}
