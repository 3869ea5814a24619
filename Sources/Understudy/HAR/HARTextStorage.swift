import Foundation

/// A body's `text` member as the model holds it: a string, or the JSON string in the bytes of
/// the file it was read from, decoded only when used.
///
/// A replayed cassette serves a few of its entries per test, and the command-line tool passes a
/// 50 MB body through untouched more often than it reads it, so decoding every body at load
/// time was most of the cost of loading. The loader checked the string completely (escapes,
/// UTF-8), so decoding it later cannot fail. The bytes stay alive as long as the model does,
/// which is the memory the decoded strings took before.
enum HARTextStorage: Sendable {
  case string(String)
  /// The file's bytes and the span of the JSON string in them.
  case file(Data, JSONScanner.StringSpan)

  var string: String {
    switch self {
    case .string(let text):
      return text
    case .file(let bytes, let span):
      return bytes.withUnsafeBytes { JSONScanner.decode(span, in: $0) }
    }
  }

  /// The text's UTF-8 bytes; without an escape they are copied from the file as they are.
  var utf8: Data {
    switch self {
    case .string(let text):
      return Data(text.utf8)
    case .file(let bytes, let span):
      return bytes.withUnsafeBytes { buffer in
        let raw = UnsafeRawBufferPointer(rebasing: buffer[span.range])
        return span.hasEscapes ? Data(JSONScanner.unescaped(raw)) : Data(raw)
      }
    }
  }
}
