import Foundation

/// A `data:` URL (RFC 2397), `data:[<media type>][;base64],<data>`: a body written inline, in a
/// JSON string, an attribute or a header, whose payload redaction reads as a body of its type
/// and writes back as it was spelled.
struct DataURL {
  /// The media type, `text/plain` when the URL names none.
  let mediaType: String
  /// The payload as text, decoded from base64 or from percent-encoding.
  let payload: String
  private let header: Substring
  private let isBase64: Bool
  /// Whether the payload was percent-encoded; one written plainly is written back plainly.
  private let isEscaped: Bool

  /// The URL `text` is, whole; `nil` for anything else, or a payload that is not UTF-8 text.
  init?(_ text: String) {
    // Asked of every text redaction reads: the first byte rules nearly all of them out.
    guard text.utf8.first.map({ $0 | 0x20 }) == UInt8(ascii: "d"), text.utf8.count > 6,
      text.utf8.prefix(5).map(ASCIIByte.lowercased) == Array("data:".utf8),
      let comma = text.firstIndex(of: ",")
    else { return nil }
    header = text[..<comma]
    let parameters = header.dropFirst(5).split(separator: ";", omittingEmptySubsequences: false)
    isBase64 = parameters.last?.lowercased() == "base64"
    let type = parameters.first.map(String.init) ?? ""
    mediaType = type.isEmpty ? "text/plain" : type
    let data = text[text.index(after: comma)...]
    isEscaped = data.contains("%")
    if isBase64 {
      guard let bytes = Data(base64Encoded: String(data)),
        let decoded = String(data: bytes, encoding: .utf8)
      else { return nil }
      payload = decoded
    } else {
      guard let decoded = String(data).removingPercentEncoding else { return nil }
      payload = decoded
    }
  }

  /// The URL with `payload` in place of its own, encoded as the URL encoded its own.
  func replacingPayload(with payload: String) -> String {
    if isBase64 { return header + "," + Data(payload.utf8).base64EncodedString() }
    return header + "," + (isEscaped ? RedactionPlaceholder.percentEncode(payload) : payload)
  }
}
