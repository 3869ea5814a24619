/// The JSON documents inside a body that is JSON with something around it, so redaction by
/// JSON path and member name reaches them too.
///
/// Real APIs wrap JSON: a UTF-8 byte order mark; an XSSI guard such as `)]}'` or `while(1);`
/// before it (Google, Angular); JSONP's `callback({...});`; NDJSON, one document per line. Each
/// document is parsed where it sits, and its nodes' ranges are offset to the whole body, so the
/// body keeps every other byte.
enum AlmostJSON {
  /// The documents found, each as `read` returns it (`nil` when it is not JSON) with the byte
  /// offset it starts at, and whether they cover every JSON-looking part of `text`. A document
  /// nested deeper than the parser allows, or a line that is not JSON, leaves it incomplete:
  /// the caller then redacts by member name in the text.
  static func documents<Document>(
    in text: String, reading read: (UnsafeBufferPointer<UInt8>) -> Document?
  ) -> (documents: [(Int, Document)], isComplete: Bool) {
    var copy = text
    // Not JSON-shaped: complete unless it holds something that reads like a JSON member
    // (or a TOML key quoted as one).
    return copy.withUTF8 { documents(in: $0, reading: read) } ?? (
      [], !JSONMemberText.mayHoldMembers(text)
    )
  }

  /// The documents, or `nil` when `bytes` is not shaped like JSON.
  private static func documents<Document>(
    in bytes: UnsafeBufferPointer<UInt8>, reading read: (UnsafeBufferPointer<UInt8>) -> Document?
  ) -> (documents: [(Int, Document)], isComplete: Bool)? {
    var start = 0
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
    start = skipWhitespace(bytes, from: start)
    let unguarded = start
    start = skipGuard(bytes, from: start)
    guard start < bytes.count else { return ([], true) }
    if bytes[start] == UInt8(ascii: "{") || bytes[start] == UInt8(ascii: "[") {
      // The parser skips a byte order mark and whitespace itself.
      let whole = start == unguarded ? read(bytes) : read(.init(rebasing: bytes[start...]))
      if let whole { return ([(start == unguarded ? 0 : start, whole)], true) }
      return lines(bytes, from: start, reading: read)
    }
    if let range = paddingRange(bytes, from: start),
      let document = read(.init(rebasing: bytes[range]))
    {
      return ([(range.lowerBound, document)], true)
    }
    return nil
  }

  /// NDJSON: each non-empty line a document.
  private static func lines<Document>(
    _ bytes: UnsafeBufferPointer<UInt8>, from start: Int,
    reading read: (UnsafeBufferPointer<UInt8>) -> Document?
  ) -> (documents: [(Int, Document)], isComplete: Bool) {
    var documents: [(Int, Document)] = []
    var isComplete = true
    var lineStart = start
    while lineStart < bytes.count {
      let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
      let first = skipWhitespace(bytes, from: lineStart)
      if first < lineEnd {
        if let document = read(.init(rebasing: bytes[first..<lineEnd])) {
          documents.append((first, document))
        } else {
          isComplete = false
        }
      }
      lineStart = lineEnd + 1
    }
    return (documents, isComplete)
  }

  /// The XSSI guards servers put before JSON so a `<script>` tag cannot read it.
  private static let guards = [")]}',", ")]}'", "while(1);", "for(;;);", "&&&START&&&"].map {
    Array($0.utf8)
  }

  private static func skipGuard(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    for prefix in guards where bytes[start...].starts(with: prefix) {
      return skipWhitespace(bytes, from: start + prefix.count)
    }
    return start
  }

  /// The argument of JSONP's `name(…)` with an optional `/**/` before and `;` after.
  private static func paddingRange(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Range<
    Int
  >? {
    var index = start
    if bytes[index...].starts(with: Array("/**/".utf8)) {
      index = skipWhitespace(bytes, from: index + 4)
    }
    let nameStart = index
    while index < bytes.count, isCallbackCharacter(bytes[index]) { index += 1 }
    guard index > nameStart else { return nil }
    index = skipWhitespace(bytes, from: index)
    guard index < bytes.count, bytes[index] == UInt8(ascii: "(") else { return nil }
    var end = bytes.count
    while end > index,
      ASCIIByte.isJSONWhitespace(bytes[end - 1]) || bytes[end - 1] == UInt8(ascii: ";")
    {
      end -= 1
    }
    guard end > index + 1, bytes[end - 1] == UInt8(ascii: ")") else { return nil }
    let inner = skipWhitespace(bytes, from: index + 1)
    return inner < end - 1 ? inner..<(end - 1) : nil
  }

  private static func isCallbackCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"),
      UInt8(ascii: "."), UInt8(ascii: "["), UInt8(ascii: "]"):
      return true
    default:
      return false
    }
  }

  private static func skipWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    var index = start
    while index < bytes.count, ASCIIByte.isJSONWhitespace(bytes[index]) { index += 1 }
    return index
  }
}
