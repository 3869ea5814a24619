/// The spellings of a YAML scalar that are no one-line value after its key's `:`, which
/// ``TextAssignments`` reads: YAML can carry a secret in each, and the value must go whatever the
/// spelling.
///
/// - Properties before it: a tag (`!vault`, `!!str`, `!<tag:…>`) or an anchor (`&creds`), then
///   a block scalar or a value under the key.
/// - A block scalar: `|` or `>`, with chomping and indentation indicators (`|-`, `>+2`), then the
///   lines indented under the key.
/// - A value on the lines under the key (`password:` then an indented line): a scalar, or a
///   list of scalars. A mapping there (`credentials:` then `username: …`) is not taken whole; its
///   own keys are read one by one.
/// - A quoted scalar over lines (`password: "ab` then `  cd"`), each line after the first
///   indented under the key.
/// - A plain scalar folded over lines (`password: ab` then `  cd`), see ``continuation(after:deeperThan:in:)``.
///
/// Only bytes near a key's `:` are read, and the lines under it once: a body costs what the
/// lines that make up its values cost.
enum YAMLScalar {
  /// The bytes to replace for the value that starts at `start`, just past a key's `:` and the
  /// blanks after it, when it is one of the spellings above (an empty range when it holds
  /// nothing), or `nil` when it is a one-line value, which the caller reads as any assignment's.
  /// `nameStart` is where the key starts; how deep its line is indented is found only when a
  /// line follows, so a long line of `name: value` pairs is not read back to its start for each.
  static func value(from start: Int, nameStart: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> Range<Int>?
  {
    let count = bytes.count
    var index = start
    var hasProperties = false
    while index < count, bytes[index] == UInt8(ascii: "!") || bytes[index] == UInt8(ascii: "&") {
      var end = index + 1
      while end < count, !isBlank(bytes[end]) { end += 1 }
      guard end > index + 1 || bytes[index] == UInt8(ascii: "!") else { return nil }
      hasProperties = true
      index = end
      while index < count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
    }
    if endsLine(at: index, in: bytes) {
      // The value is on the lines under the key; the properties, if any, go with it.
      guard let lines = linesUnder(lineEndFrom: index, under: nameStart, in: bytes),
        !startsMapping(at: lines.lowerBound, in: bytes)
      else { return hasProperties ? start..<index : nil }
      return (hasProperties ? start : lines.lowerBound)..<lines.upperBound
    }
    if let indicatorEnd = blockIndicatorEnd(at: index, in: bytes) {
      guard let lines = linesUnder(lineEndFrom: indicatorEnd, under: nameStart, in: bytes)
      else { return start..<indicatorEnd }
      return start..<lines.upperBound
    }
    let quote = bytes[index]
    if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'"),
      let close = closingQuote(of: index, under: nameStart, in: bytes)
    {
      return start..<(close + 1)
    }
    return nil
  }

  /// The end of a plain scalar that ran to its line's end at `end` and goes on over the lines
  /// indented under its key (YAML folds them into one value), or `nil` when no line does.
  static func continuation(
    after end: Int, under nameStart: Int, in bytes: UnsafeBufferPointer<UInt8>
  ) -> Int? {
    var lineEnd = end
    while lineEnd < bytes.count, bytes[lineEnd] == 0x20 || bytes[lineEnd] == 0x09 {
      lineEnd += 1
    }
    guard lineEnd == bytes.count || bytes[lineEnd] == 0x0A || bytes[lineEnd] == 0x0D else {
      return nil
    }
    return linesUnder(lineEndFrom: lineEnd, under: nameStart, in: bytes)?.upperBound
  }

  /// Whether the line ends at `index`, a comment (`# …` after a blank) included.
  private static func endsLine(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard index < bytes.count else { return true }
    let byte = bytes[index]
    return byte == 0x0A || byte == 0x0D
      || (byte == UInt8(ascii: "#") && index > 0 && isBlank(bytes[index - 1]))
  }

  /// Where a block scalar's indicator at `index` ends (`|`, `>-`, `|2+`), when only blanks or a
  /// comment follow it on its line.
  private static func blockIndicatorEnd(at index: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> Int?
  {
    guard index < bytes.count,
      bytes[index] == UInt8(ascii: "|") || bytes[index] == UInt8(ascii: ">")
    else { return nil }
    var end = index + 1
    var modifiers = 0
    while end < bytes.count, modifiers < 2,
      bytes[end] == UInt8(ascii: "-") || bytes[end] == UInt8(ascii: "+")
        || (0x31...0x39).contains(bytes[end])
    {
      end += 1
      modifiers += 1
    }
    var after = end
    while after < bytes.count, bytes[after] == 0x20 || bytes[after] == 0x09 { after += 1 }
    return endsLine(at: after, in: bytes) ? end : nil
  }

  /// The content of the lines after the line that holds `index` that are indented more than
  /// the key (blank lines among them), from the first one's first non-blank byte to the
  /// last one's end; `nil` when the next non-blank line is not.
  private static func linesUnder(
    lineEndFrom index: Int, under nameStart: Int, in bytes: UnsafeBufferPointer<UInt8>
  ) -> Range<Int>? {
    let count = bytes.count
    var lineStart = EmbeddedQueryPairs.next(0x0A, in: bytes, from: index) ?? count
    guard lineStart < count else { return nil }
    let column = Self.column(of: nameStart, in: bytes)
    lineStart += 1
    var first: Int?
    var end: Int?
    while lineStart < count {
      var content = lineStart
      while content < count, bytes[content] == 0x20 { content += 1 }
      let lineStop = EmbeddedQueryPairs.next(0x0A, in: bytes, from: content) ?? count
      var contentEnd = lineStop
      while contentEnd > content, isBlank(bytes[contentEnd - 1]) { contentEnd -= 1 }
      if content < contentEnd {
        guard content - lineStart > column else { break }
        if first == nil { first = content }
        end = contentEnd
      }
      lineStart = lineStop + 1
    }
    guard let first, let end else { return nil }
    return first..<end
  }

  /// Whether the line content at `start` opens a mapping (`username: …`, `- name: …`), whose
  /// keys are read one by one rather than taken as one value: as YAML reads it, a `:` before a
  /// blank or the line's end, before any comment (a plain key may hold spaces, `=` and quotes).
  /// A flow collection (`{…}`, `[…]`) is a value.
  private static func startsMapping(at start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = start
    let count = bytes.count
    if index + 1 < count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "?"),
      isBlank(bytes[index + 1])
    {
      index += 2
      while index < count, bytes[index] == 0x20 { index += 1 }
    }
    guard index < count, bytes[index] != UInt8(ascii: "{"), bytes[index] != UInt8(ascii: "[")
    else { return false }
    if bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
      let quote = bytes[index]
      index += 1
      while index < count, bytes[index] != quote, bytes[index] != 0x0A { index += 1 }
    }
    while index < count, bytes[index] != 0x0A {
      let byte = bytes[index]
      if byte == UInt8(ascii: ":") {
        if index + 1 == count || isBlank(bytes[index + 1]) { return true }
      } else if byte == UInt8(ascii: "#"), index > start, isBlank(bytes[index - 1]) {
        return false
      }
      index += 1
    }
    return false
  }

  /// The closing quote of a quoted scalar that opens at `open` and is not closed on its line,
  /// each line after the first indented more than the key; `nil` when it closes on its own
  /// line (a one-line value) or is never closed there.
  private static func closingQuote(
    of open: Int, under nameStart: Int, in bytes: UnsafeBufferPointer<UInt8>
  ) -> Int? {
    let quote = bytes[open]
    let count = bytes.count
    var index = open + 1
    var lines = 0
    var lineStart = -1
    var column = 0
    while index < count {
      let byte = bytes[index]
      if byte == 0x0A {
        if lines == 0 { column = Self.column(of: nameStart, in: bytes) }
        lines += 1
        lineStart = index + 1
        index += 1
        continue
      }
      if lineStart >= 0, byte != 0x20, byte != 0x0D {
        // The first non-space byte of a continuation line: indented under the key, or the
        // quote was never closed where YAML would close it.
        guard index - lineStart > column || byte == 0x0A else { return nil }
        lineStart = -1
      }
      if quote == UInt8(ascii: "\"") && byte == UInt8(ascii: "\\") {
        index += 2
        continue
      }
      if byte == quote {
        if quote == UInt8(ascii: "'"), index + 1 < count, bytes[index + 1] == quote {
          index += 2
          continue
        }
        return lines > 0 ? index : nil
      }
      index += 1
    }
    return nil
  }

  /// How many bytes the line holding `offset` has before it.
  private static func column(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var start = offset
    while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
    return offset - start
  }

  /// A space, a tab or a line break.
  private static func isBlank(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }
}
