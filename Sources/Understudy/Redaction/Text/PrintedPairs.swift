/// A name, a separator and a value as a language prints a map or an object, read as one
/// grammar: the name bare, in quotes, in backticks, in brackets or in quotes in brackets, and
/// in quotes after a string prefix (Python's `b'api_key'`); the separator `:`, `=` or `=>`; the
/// value bare, in quotes after a string prefix (`b'…'`), or typed (PHP's `string(14) "…"`),
/// after `=>` on the next line too, as `var_dump` prints it.
///
///     [password] => …                       print_r
///     ["password"]=>                        var_dump
///       string(14) "…"
///     {b'api_key': b'…'}                    a Python bytes dict
///     - `password`: `…`                     Markdown code spans
extension TextAssignments {
  /// The name before the separator at `separator` in one of the printed spellings above that
  /// ``name(endingBefore:in:from:)`` and the quoted readers do not take: in backticks, in
  /// quotes after a one-letter string prefix, or bare in brackets. `nil` for anything else.
  static func printedName(
    endingBefore separator: Int, in bytes: UnsafeBufferPointer<UInt8>, from floor: Int
  ) -> Range<Int>? {
    var close = separator
    while close > floor, bytes[close - 1] == 0x20 || bytes[close - 1] == 0x09 { close -= 1 }
    guard close - 1 > floor else { return nil }
    let closer = bytes[close - 1]
    let opener: UInt8
    switch closer {
    case UInt8(ascii: "`"): opener = closer
    // Single quotes only: a `"name":` is a JSON member's, and JSON's millions of members must
    // not be read back here.
    case UInt8(ascii: "'"): opener = closer
    case UInt8(ascii: "]"): opener = UInt8(ascii: "[")
    default: return nil
    }
    let end = close - 1
    var start = end
    while start > floor, end - start < maximumNameLength, isNameByte(bytes[start - 1]) {
      start -= 1
    }
    guard start < end, start - 1 >= floor, bytes[start - 1] == opener,
      isLetterOrUnderscore(bytes[start])
    else { return nil }
    let before = start - 2
    switch closer {
    case UInt8(ascii: "'"):
      // Only after a string prefix (`b'…'`, `u"…"`): a name in bare quotes is the quoted
      // readers', and a `"name":` a JSON member's.
      guard before >= floor, isStringPrefix(bytes[before]),
        before == 0 || mayPrecedeName(bytes[before - 1])
      else { return nil }
    default:
      guard before < floor || mayPrecedeName(bytes[before]) else { return nil }
    }
    return start..<end
  }

  /// Where a value starts when printed as a dump prints it, from `start` (just past the
  /// separator and the blanks after it): after `=>` and a line break, on the next line; a
  /// type and a length before it (`string(14) "…"`, `bytes(3) …`); a one-letter string prefix
  /// before its quote (`b'…'`). `start` when none of these stands there.
  static func printedValueStart(
    from start: Int, afterArrow: Bool, in bytes: UnsafeBufferPointer<UInt8>
  ) -> Int {
    let count = bytes.count
    var index = start
    if afterArrow, index < count, bytes[index] == 0x0A || bytes[index] == 0x0D {
      if bytes[index] == 0x0D { index += 1 }
      if index < count, bytes[index] == 0x0A { index += 1 }
      while index < count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
    }
    // A type and its length: `string(14) `.
    var word = index
    while word < count, word - index < 16, ASCIIByte.isLetter(bytes[word]) { word += 1 }
    if word > index, word < count, bytes[word] == UInt8(ascii: "(") {
      var digits = word + 1
      while digits < count, ASCIIByte.isDigit(bytes[digits]) { digits += 1 }
      if digits > word + 1, digits + 1 < count, bytes[digits] == UInt8(ascii: ")"),
        bytes[digits + 1] == 0x20
      {
        index = digits + 2
      }
    }
    if index + 1 < count, isStringPrefix(bytes[index]),
      bytes[index + 1] == UInt8(ascii: "'") || bytes[index + 1] == UInt8(ascii: "\"")
    {
      index += 1
    }
    // Each of these spellings holds its value in quotes; without them, the value is read as
    // it stands.
    guard index < count, bytes[index] == UInt8(ascii: "'") || bytes[index] == UInt8(ascii: "\"")
    else { return start }
    return index
  }

  /// A string literal's one-letter prefix: Python's bytes, unicode and raw strings.
  private static func isStringPrefix(_ byte: UInt8) -> Bool {
    "bBuUrR".utf8.contains(byte)
  }
}
