import Foundation

/// How redaction and the scanner read a body as text: UTF-8 when it is UTF-8, otherwise in the
/// charset its `Content-Type` names.
///
/// A form or JSON body in ISO-8859-1, Windows-1252 or UTF-16 travels in a HAR as base64, yet
/// holds the same fields and members as a UTF-8 one. A text type that names no charset (or one
/// Understudy does not know) is read as ISO-8859-1, which reads every byte and writes it back
/// the same. A body that is neither UTF-8 nor of a text type (an image, `octet-stream`) is not
/// read as text.
package enum BodyCharset {
  /// `data` as text and the encoding that writes the text back to the same bytes, or `nil`
  /// when it is not text.
  package static func text(
    of data: Data, mimeType: String
  ) -> (text: String, encoding: String.Encoding)? {
    let parameters = mimeType.lowercased().split(separator: ";").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    let type = parameters.first ?? ""
    let declared = parameters.dropFirst().lazy.compactMap { parameter -> String.Encoding? in
      guard parameter.hasPrefix("charset=") else { return nil }
      let name = parameter.dropFirst("charset=".count).trimmingCharacters(
        in: CharacterSet(charactersIn: "\"' "))
      return encoding(named: name, for: data)
    }.first
    // UTF-16 of ASCII text without a byte order mark is also UTF-8, but not the text it holds.
    let isUTF16 = declared == .utf16LittleEndian || declared == .utf16BigEndian
    if isUTF16, let declared, let text = text(of: data, in: declared) { return (text, declared) }
    let utf8 = String(decoding: data, as: UTF8.self)
    if Data(utf8.utf8) == data { return (utf8, .utf8) }
    guard declared != nil || isText(type) else { return nil }
    for encoding in [declared, utf16(byMarkOf: data), .isoLatin1] {
      if let encoding, let text = text(of: data, in: encoding) { return (text, encoding) }
    }
    return nil
  }

  /// Whether `mimeType` may name UTF-16, whose text can be stored as itself (ASCII without a
  /// byte order mark is also UTF-8) and still need reading in its charset.
  static func declaresUTF16(_ mimeType: String) -> Bool {
    mimeType.lowercased().contains("utf-16")
  }

  /// `data` in `encoding`, when writing the text back gives the same bytes.
  private static func text(of data: Data, in encoding: String.Encoding) -> String? {
    guard let text = String(data: data, encoding: encoding), text.data(using: encoding) == data
    else { return nil }
    return text
  }

  /// Whether `mimeType` names a binary format (an image, `octet-stream`, protobuf), whose
  /// bytes can frame their contents by length even when they happen to be UTF-8.
  static func isBinaryType(_ mimeType: String) -> Bool {
    let type = mimeType.lowercased().prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
    guard !isText(type) else { return false }
    return ["image/", "audio/", "video/", "font/"].contains { type.hasPrefix($0) }
      || ["octet-stream", "protobuf", "grpc", "msgpack", "cbor", "zip", "pdf"].contains {
        type.contains($0)
      }
  }

  private static func isText(_ type: String) -> Bool {
    type.hasPrefix("text/") || type.hasPrefix("multipart/") || type.hasSuffix("+json")
      || type.hasSuffix("+xml") || type.hasSuffix("/json") || type.hasSuffix("/xml")
      || type.hasSuffix("/x-www-form-urlencoded") || type.hasSuffix("/javascript")
      || type.hasSuffix("/graphql")
  }

  private static func encoding(named charset: String, for data: Data) -> String.Encoding? {
    switch charset {
    case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1", "us-ascii", "ascii":
      return .isoLatin1
    case "windows-1252", "cp1252": return .windowsCP1252
    case "utf-16le": return .utf16LittleEndian
    case "utf-16be": return .utf16BigEndian
    case "utf-16": return utf16(byMarkOf: data) ?? .utf16BigEndian
    default: return nil
    }
  }

  /// UTF-16 in the byte order its byte order mark names. The mark stays in the text as U+FEFF,
  /// so writing the text back writes the mark again.
  private static func utf16(byMarkOf data: Data) -> String.Encoding? {
    switch (data.first, data.dropFirst().first) {
    case (0xFF, 0xFE): return .utf16LittleEndian
    case (0xFE, 0xFF): return .utf16BigEndian
    default: return nil
    }
  }
}
