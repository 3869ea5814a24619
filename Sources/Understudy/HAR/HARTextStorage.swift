import Foundation

/// A body's `text` member as the model holds it: a string, or the JSON string in the bytes of
/// the file it was read from, decoded only when used.
///
/// A replayed cassette serves a few of its entries per test, and the command-line tool passes a
/// 50 MB body through untouched more often than it reads it, so decoding every body at load
/// time was most of the cost of loading. The loader checked the string completely (escapes,
/// UTF-8), so decoding it later cannot fail. The bytes stay alive as long as the model does,
/// which is the memory the decoded strings took before.
enum HARTextStorage: Sendable, Equatable {
  case string(String)
  /// The file's bytes and the span of the JSON string in them.
  case file(Data, JSONScanner.StringSpan)
  /// The text decoded from a file's bytes, kept with them: comparing it with the text still in
  /// those bytes is then free, where decoding 50 MB again to compare cost as much as redacting.
  /// Boxed: the largest case sized every body member of a loaded cassette, two per entry, and
  /// a loaded cassette decodes none (issue 17).
  indirect case decoded(String, from: Data, JSONScanner.StringSpan)

  var string: String {
    switch self {
    case .string(let text), .decoded(let text, _, _):
      return text
    case .file(let bytes, let span):
      return bytes.withUnsafeBytes { JSONScanner.decode(span, in: $0) }
    }
  }

  /// The text's UTF-8 bytes; without an escape they are copied from the file as they are.
  var utf8: Data {
    switch self {
    case .string(let text), .decoded(let text, _, _):
      return Data(text.utf8)
    case .file(let bytes, let span):
      return bytes.withUnsafeBytes { buffer in
        let raw = UnsafeRawBufferPointer(rebasing: buffer[span.range])
        return span.hasEscapes ? Data(JSONScanner.unescaped(raw)) : Data(raw)
      }
    }
  }

  /// Holds the text as a string from now on, decoding it if it is still in a file's bytes.
  mutating func decode() {
    if case .file(let bytes, let span) = self { self = .decoded(string, from: bytes, span) }
  }

  /// The file bytes and span the text is (or was decoded from), if any.
  private var source: (bytes: Data, span: JSONScanner.StringSpan)? {
    switch self {
    case .string: return nil
    case .file(let bytes, let span), .decoded(_, let bytes, let span): return (bytes, span)
    }
  }

  /// The length of the text as stored (escapes included for a file's, which the writer copies
  /// for a decoded text too), for sizing a buffer.
  var byteCount: Int {
    switch self {
    case .string(let text): return text.utf8.count
    case .file(_, let span), .decoded(_, _, let span): return span.range.count
    }
  }

  /// Whether two texts are equal, without decoding a text held in a file's bytes.
  ///
  /// Redaction keeps the text it decoded, and the commands then compare entries before and
  /// after: decoding a 50 MB body again for each comparison cost more than the redaction.
  static func == (lhs: HARTextStorage, rhs: HARTextStorage) -> Bool {
    // The same span of the same bytes is the same text, decoded or not.
    if let left = lhs.source, let right = rhs.source, left.span == right.span,
      left.bytes.withUnsafeBytes({ first in
        right.bytes.withUnsafeBytes { $0.baseAddress == first.baseAddress }
      })
    {
      return true
    }
    switch (lhs, rhs) {
    case (.string(let text), .string(let other)), (.decoded(let text, _, _), .string(let other)),
      (.string(let text), .decoded(let other, _, _)),
      (.decoded(let text, _, _), .decoded(let other, _, _)):
      return text == other
    case (.file(let bytes, let span), .string(let text)),
      (.string(let text), .file(let bytes, let span)),
      (.file(let bytes, let span), .decoded(let text, _, _)),
      (.decoded(let text, _, _), .file(let bytes, let span)):
      var text = text
      return text.withUTF8 { utf8 in
        bytes.withUnsafeBytes { file in
          let raw = UnsafeRawBufferPointer(rebasing: file[span.range])
          guard span.hasEscapes else { return same(raw, UnsafeRawBufferPointer(utf8)) }
          return JSONScanner.unescaped(raw, equals: UnsafeRawBufferPointer(utf8))
        }
      }
    case (.file(let bytes, let span), .file(let otherBytes, let otherSpan)):
      let identical = bytes.withUnsafeBytes { first in
        otherBytes.withUnsafeBytes { second in
          same(
            UnsafeRawBufferPointer(rebasing: first[span.range]),
            UnsafeRawBufferPointer(rebasing: second[otherSpan.range]))
        }
      }
      // The same bytes are the same text; different bytes may still escape the same text.
      return identical || lhs.string == rhs.string
    }
  }

  private static func same(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    guard a.count == b.count else { return false }
    guard let first = a.baseAddress, let second = b.baseAddress, first != second else {
      return true
    }
    return memcmp(first, second, a.count) == 0
  }
}
