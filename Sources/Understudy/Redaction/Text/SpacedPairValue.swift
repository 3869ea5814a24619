/// The value of a credential pair written bare with spaces in it: a `.env` line
/// (`SIGNATURE=quartz falcon thistle`, which dotenv reads to the line's end) or a log line
/// (`pin=velvet violet walnut user=ada`). A pair's value stops at the first space
/// (``EmbeddedQueryPairs``), which left every word of a passphrase but its first.
enum SpacedPairValue {
  /// How far past the value's start the words are followed: a passphrase is a few words, and a
  /// name in prose (`set token=abc and restart`) must not take the rest of a long line.
  static let maximumLength = 256

  /// The end of the value at `value` (its name starting at `nameStart`) taken with the words
  /// after it on its line, each after one space, where the line says they are the value's: a
  /// pair alone on its line (a `.env` file) runs to the line's end, and one followed by
  /// another pair (a log line) runs to it. In prose (`the password=hunter2 is shown`) the words
  /// are the sentence's, and `value.upperBound` is the end.
  static func end(
    of value: Range<Int>, nameStart: Int, in bytes: UnsafeBufferPointer<UInt8>
  ) -> Int {
    if value.count == 1, let close = bracketedEnd(from: value.lowerBound, in: bytes) {
      return close
    }
    return continued(from: lineEnd(of: value, nameStart: nameStart, in: bytes), in: bytes)
  }

  /// The end of a tuple or a list that opens at `start` (a pair's value: `auth=('ada', '…')`
  /// in Python, `api_keys=["…", "…"]`), through its closing bracket on the same line, quotes
  /// and nested brackets skipped; `nil` when none opens there or it does not close. A pair's
  /// value stops at a quote, so it was the bracket alone, and the strings in it were kept.
  static func bracketedEnd(from start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard start < bytes.count,
      bytes[start] == UInt8(ascii: "(") || bytes[start] == UInt8(ascii: "[")
    else { return nil }
    let limit = min(bytes.count, start + maximumLength)
    var depth = 0
    var quote: UInt8?
    var index = start
    while index < limit, bytes[index] != 0x0A {
      let byte = bytes[index]
      if let open = quote {
        if byte == UInt8(ascii: "\\") {
          index += 1
        } else if byte == open {
          quote = nil
        }
      } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
        quote = byte
      } else if byte == UInt8(ascii: "(") || byte == UInt8(ascii: "[") {
        depth += 1
      } else if byte == UInt8(ascii: ")") || byte == UInt8(ascii: "]") {
        depth -= 1
        if depth == 0 { return index + 1 }
      }
      index += 1
    }
    return nil
  }

  /// Where a value that ends at `end` ends when a `\` there continues it over the lines after
  /// it (a `.properties` file's, a shell line's): at the end of the first line that does not
  /// end in one.
  static func continued(from end: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var end = end
    while end + 1 < bytes.count, bytes[end] == UInt8(ascii: "\\") {
      var lineStart = end + 1
      if bytes[lineStart] == 0x0D, lineStart + 1 < bytes.count { lineStart += 1 }
      guard bytes[lineStart] == 0x0A else { break }
      lineStart += 1
      var lineEnd = bytes.index(of: 0x0A, in: lineStart..<bytes.count) ?? bytes.count
      if lineEnd > lineStart, bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
      guard lineEnd > lineStart, bytes[lineEnd - 1] == UInt8(ascii: "\\") else {
        return lineEnd
      }
      end = lineEnd - 1
    }
    return end
  }

  private static func lineEnd(
    of value: Range<Int>, nameStart: Int, in bytes: UnsafeBufferPointer<UInt8>
  ) -> Int {
    var end = value.upperBound
    let count = bytes.count
    guard end + 1 < count, bytes[end] == 0x20 else { return end }
    let limit = min(count, value.lowerBound + maximumLength)
    // A value that is an authorization scheme alone (`Authorization=Bearer eyJ…` in a log
    // line) names how the secret is sent; the word after it is the secret, wherever the pair
    // stands.
    if isScheme(bytes, value) {
      var wordEnd = end + 1
      while wordEnd < limit, isWordByte(bytes[wordEnd]) { wordEnd += 1 }
      guard wordEnd > end + 1 else { return end }
      // Base64's padding.
      while wordEnd < limit, bytes[wordEnd] == UInt8(ascii: "=") { wordEnd += 1 }
      return lineEnd(of: value.lowerBound..<wordEnd, nameStart: nameStart, in: bytes)
    }
    while end + 1 < limit, bytes[end] == 0x20 {
      var wordEnd = end + 1
      while wordEnd < limit, isWordByte(bytes[wordEnd]) { wordEnd += 1 }
      guard wordEnd > end + 1 else { return value.upperBound }
      if wordEnd < count, bytes[wordEnd] == UInt8(ascii: "=") {
        // The next pair's name: the words before it are this value's.
        return end
      }
      // A word ends at a space, the line's end or the text's: anything else (a quote, `<`)
      // makes it something other than a word of the value.
      guard
        wordEnd == count || bytes[wordEnd] == 0x20 || bytes[wordEnd] == 0x0A
          || bytes[wordEnd] == 0x0D
      else { return value.upperBound }
      end = wordEnd
    }
    let endsLine = end == count || bytes[end] == 0x0A || bytes[end] == 0x0D
    let startsLine = nameStart == 0 || bytes[nameStart - 1] == 0x0A || bytes[nameStart - 1] == 0x0D
    return endsLine && startsLine ? end : value.upperBound
  }

  private static func isScheme(_ bytes: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) -> Bool {
    guard value.count <= 20 else { return false }
    let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[value]), as: UTF8.self)
    return LogRedaction.schemes.contains(word.lowercased())
  }

  private static func isWordByte(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "="), UInt8(ascii: "&"), UInt8(ascii: "#"),
      UInt8(ascii: ";"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"),
      UInt8(ascii: ">"), UInt8(ascii: "\\"), UInt8(ascii: ","), UInt8(ascii: ":"),
      UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "["), UInt8(ascii: "]"),
      UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "|"):
      false
    default: true
    }
  }
}
