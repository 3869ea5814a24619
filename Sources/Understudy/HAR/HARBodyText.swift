/// How a body travels in a HAR `text` member: UTF-8 text as itself, anything else as base64.
///
/// Shared by response content and request post data so both keep non-UTF-8 bodies byte-exact.
enum HARBodyText {
  static let base64 = "base64"
  private static let asciiWhitespace: Set<UInt8> = [0x20, 0x09, 0x0D, 0x0A]

  /// The `text` and `encoding` members for `body`.
  static func encode(_ body: Data) -> (text: String, encoding: String?) {
    // `String(data:encoding:)` drops a leading byte order mark, so compare the bytes back.
    let text = String(decoding: body, as: UTF8.self)
    if Data(text.utf8) == body { return (text, nil) }
    return (body.base64EncodedString(), base64)
  }

  /// The body bytes for `text` in `encoding`, or `nil` when there is no text.
  static func decode(text: String?, encoding: String?) throws(CassetteError) -> Data? {
    guard let text else { return nil }
    guard let encoding else { return Data(text.utf8) }
    guard encoding.lowercased() == base64 else {
      throw CassetteError(
        kind: .unsupportedEncoding,
        problem: "the body's \"encoding\" is \"\(encoding)\", which Understudy cannot decode",
        fix: "Write binary bodies as base64 with \"encoding\": \"base64\", or leave out "
          + "\"encoding\" when the text is the body itself.")
    }
    // Exporters wrap long base64 lines and some drop the padding; neither loses information.
    var compact = Data(text.utf8.filter { !asciiWhitespace.contains($0) })
    if compact.count % 4 >= 2 {
      compact.append(contentsOf: repeatElement(UInt8(ascii: "="), count: 4 - compact.count % 4))
    }
    guard let data = Data(base64Encoded: compact) else {
      throw CassetteError(
        kind: .invalidBase64,
        problem: "the body is marked \"encoding\": \"base64\" but its text is not base64: "
          + base64Flaw(in: text),
        fix: "Record the cassette again, or remove \"encoding\" if the text is the body itself.")
    }
    return data
  }

  /// Checks at load time that a body decodes (base64 that is base64, an encoding Understudy
  /// knows), so a broken cassette fails with its path when it is loaded rather than when a test
  /// first replays that entry.
  static func validate<Key: CodingKey>(
    text: String?, encoding: String?, in container: KeyedDecodingContainer<Key>,
    textKey: Key, encodingKey: Key
  ) throws {
    do {
      _ = try decode(text: text, encoding: encoding)
    } catch {
      let key = error.kind == .unsupportedEncoding ? encodingKey : textKey
      throw HARValueProblem(
        kind: error.kind, codingPath: container.codingPath + [key], problem: error.problem,
        fix: error.fix)
    }
  }

  private static func base64Flaw(in text: String) -> String {
    let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/= \t\r\n")
    if let index = text.firstIndex(where: { !alphabet.contains($0) }) {
      let position = text.distance(from: text.startIndex, to: index) + 1
      return "character \(position) is \"\(text[index])\", which base64 does not use"
    }
    let length = text.utf8.filter { !asciiWhitespace.contains($0) }.count
    if length % 4 == 1 {
      return "its length (\(length) characters) leaves a single character over, "
        + "so the text was probably cut short"
    }
    return "a \"=\" appears before the end"
  }
}
