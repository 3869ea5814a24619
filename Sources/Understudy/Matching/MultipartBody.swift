/// A `multipart/form-data` body (RFC 7578) split into its parts: the one reader of multipart
/// bodies, used by part matchers, reports and redaction alike.
///
/// Lenient where clients are: lines may end in CRLF or a bare LF, and a body sent without a
/// boundary in its Content-Type is recognised by its first line. Offsets are bytes, so a part's
/// content may be binary.
struct MultipartBody: Sendable {
  let parts: [MultipartPart]

  /// The parts of `body`, or `nil` when it is not a multipart body.
  ///
  /// - Parameter contentType: The request's Content-Type; its `boundary` parameter names the
  ///   delimiter. Without one, a body whose first line that opens with `--` is `--token`, and
  ///   which has a Content-Disposition, is read with that token.
  init?(_ body: Data, contentType: String?) {
    let bytes = [UInt8](body)
    guard let boundary = Self.boundary(contentType: contentType, bytes: bytes) else { return nil }
    let delimiter = Array("--\(boundary)".utf8)
    var starts = Self.delimiters(delimiter, in: bytes)
    guard !starts.isEmpty else { return nil }
    var parts: [MultipartPart] = []
    while let start = starts.first {
      starts.removeFirst()
      var cursor = start + delimiter.count
      // "--" right after the delimiter closes the body.
      if bytes[cursor...].starts(with: [0x2D, 0x2D]) { break }
      while cursor < bytes.count, bytes[cursor] == 0x20 || bytes[cursor] == 0x09 { cursor += 1 }
      guard let afterLine = Self.lineBreakEnd(bytes, at: cursor) else { continue }
      // The line break before the next delimiter belongs to the delimiter.
      let end = starts.first.map { Self.trimmingLineBreak(bytes, before: $0) } ?? bytes.count
      guard afterLine <= end else { continue }
      parts.append(Self.part(bytes, from: afterLine, to: end, in: body))
    }
    self.parts = parts
  }

  /// One part: its header block, then an empty line, then its content up to `end`.
  private static func part(_ bytes: [UInt8], from start: Int, to end: Int, in body: Data)
    -> MultipartPart
  {
    var contentStart = start
    var headerEnd = start
    if let blank = lineBreakEnd(bytes, at: start) {
      // No header fields at all: the part opens with its empty line.
      contentStart = min(blank, end)
    } else if let separator = firstBlankLine(bytes, from: start, to: end) {
      headerEnd = separator.lowerBound
      contentStart = separator.upperBound
    } else {
      headerEnd = end
      contentStart = end
    }
    let headerText = String(decoding: bytes[start..<headerEnd], as: UTF8.self)
    var headers = HTTPHeaders()
    for line in headerText.split(whereSeparator: \.isNewline) {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers.add(
        name: line[..<colon].trimmingCharacters(in: .whitespaces),
        value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
    let parameters = headers["Content-Disposition"].map(dispositionParameters) ?? [:]
    let offset = body.startIndex
    return MultipartPart(
      name: parameters["name"] ?? parameters["name*"],
      filename: parameters["filename*"] ?? parameters["filename"],
      headers: headers,
      contentRange: contentStart..<end,
      data: Data(body[(offset + contentStart)..<(offset + end)]))
  }

  /// The `name="value"` parameters of a Content-Disposition (or a Content-Type), names
  /// lower-cased; an extended one such as `filename*` (RFC 5987, `UTF-8''caf%C3%A9.txt`) is
  /// percent-decoded.
  static func dispositionParameters(_ value: String) -> [String: String] {
    var parameters: [String: String] = [:]
    var rest = Substring(value)
    // The disposition type ("form-data") comes first.
    guard let firstSemicolon = rest.firstIndex(of: ";") else { return [:] }
    rest = rest[rest.index(after: firstSemicolon)...]
    while !rest.isEmpty {
      rest = rest.drop(while: { $0 == " " || $0 == "\t" || $0 == ";" })
      guard let equals = rest.firstIndex(of: "=") else { break }
      let name = rest[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
      rest = rest[rest.index(after: equals)...].drop(while: { $0 == " " })
      var parameter = ""
      if rest.first == "\"" {
        rest = rest.dropFirst()
        while let character = rest.first, character != "\"" {
          rest = rest.dropFirst()
          // Browsers send a quote inside a file name as %22, curl as \"; accept both.
          if character == "\\", let escaped = rest.first {
            parameter.append(escaped)
            rest = rest.dropFirst()
          } else {
            parameter.append(character)
          }
        }
        rest = rest.dropFirst()
        rest = rest.drop(while: { $0 != ";" })
      } else {
        let token = rest.prefix { $0 != ";" }
        parameter = token.trimmingCharacters(in: .whitespaces)
        rest = rest[token.endIndex...]
      }
      if name.hasSuffix("*"), let quote = parameter.range(of: "''") {
        parameter = parameter[quote.upperBound...].removingPercentEncoding ?? parameter
      }
      if parameters[name] == nil { parameters[name] = parameter }
    }
    return parameters
  }

  /// The boundary named by the Content-Type, or the one the body opens with.
  private static func boundary(contentType: String?, bytes: [UInt8]) -> String? {
    // A quoted boundary may hold a `;` (`boundary="a;b"`), so the parameters are read as a
    // Content-Disposition's are, quotes and all.
    if let contentType, contentType.lowercased().contains("multipart/"),
      let boundary = dispositionParameters(contentType)["boundary"]
    {
      return boundary.isEmpty ? nil : boundary
    }
    // The first line that opens with `--`: a body's first, or one after a preamble (RFC 2046),
    // as a body quoted from its middle has (a stub's `body(containing:)`, a report's excerpt).
    let window = bytes.prefix(4096)
    var lineStart = 0
    while lineStart < window.count, !window[lineStart...].starts(with: [0x2D, 0x2D]) {
      guard let next = window[lineStart...].firstIndex(of: 0x0A) else { return nil }
      lineStart = next + 1
    }
    guard lineStart < window.count,
      let lineEnd = bytes[lineStart...].firstIndex(where: { $0 == 0x0D || $0 == 0x0A })
    else { return nil }
    let line = bytes[(lineStart + 2)..<lineEnd]
    guard !line.isEmpty, line.count <= 70, !line.contains(0x20),
      let token = String(bytes: line, encoding: .utf8),
      String(decoding: bytes.prefix(4096), as: UTF8.self).range(
        of: "Content-Disposition", options: .caseInsensitive) != nil
    else { return nil }
    return token
  }

  /// Where `delimiter` starts: at the start of the body or of a line.
  private static func delimiters(_ delimiter: [UInt8], in bytes: [UInt8]) -> [Int] {
    var found: [Int] = []
    var index = 0
    guard let first = delimiter.first else { return [] }
    while index + delimiter.count <= bytes.count {
      if bytes[index] == first, index == 0 || bytes[index - 1] == 0x0A,
        bytes[index..<(index + delimiter.count)].elementsEqual(delimiter)
      {
        found.append(index)
        index += delimiter.count
      } else {
        index += 1
      }
    }
    return found
  }

  /// The index after a line break (CRLF or LF) at `index`, or `nil` when none starts there.
  private static func lineBreakEnd(_ bytes: [UInt8], at index: Int) -> Int? {
    if index < bytes.count, bytes[index] == 0x0A { return index + 1 }
    if index + 1 < bytes.count, bytes[index] == 0x0D, bytes[index + 1] == 0x0A { return index + 2 }
    return nil
  }

  /// `index` moved back over the CRLF or LF that ends the line before it.
  private static func trimmingLineBreak(_ bytes: [UInt8], before index: Int) -> Int {
    guard index > 0, bytes[index - 1] == 0x0A else { return index }
    return index >= 2 && bytes[index - 2] == 0x0D ? index - 2 : index - 1
  }

  /// The first empty line between `start` and `end`: from the line break that ends the last
  /// header to the end of the empty line.
  private static func firstBlankLine(_ bytes: [UInt8], from start: Int, to end: Int)
    -> Range<Int>?
  {
    var index = start
    while index < end {
      if bytes[index] == 0x0A, let after = lineBreakEnd(bytes, at: index + 1), after <= end {
        let lower = index > start && bytes[index - 1] == 0x0D ? index - 1 : index
        return lower..<after
      }
      index += 1
    }
    return nil
  }
}
