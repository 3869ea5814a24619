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

  /// The value a YAML alias at `star` (`password: *dbpw`) stands for: the scalar anchored with
  /// its name (`defaults: &dbpw …`), the nearest such anchor before it (or, in a document
  /// that names it later, the first after), as any key's value is read there: plain or quoted
  /// on the anchor's line, a block scalar, or the lines under its key. `isQuoted` when it is
  /// inside quotes on its line. `nil` when the alias is not the whole value or no anchor holds
  /// a scalar. Anchors are found by `memmem`.
  static func anchoredValue(aliasAt star: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> (value: Range<Int>, isQuoted: Bool)?
  {
    let count = bytes.count
    var end = star + 1
    while end < count, !isBlank(bytes[end]), !",[]{}".utf8.contains(bytes[end]) { end += 1 }
    guard end > star + 1, end - star <= 128 else { return nil }
    var after = end
    while after < count, bytes[after] == 0x20 || bytes[after] == 0x09 { after += 1 }
    guard endsLine(at: after, in: bytes) else { return nil }
    let anchor = [UInt8(ascii: "&")] + bytes[(star + 1)..<end]
    // An anchor is a property: after a blank or at a line's start, a blank or the end after it.
    let anchors = ByteSearch.ranges(of: anchor, in: UnsafeRawBufferPointer(bytes)).filter {
      ($0.lowerBound == 0 || isBlank(bytes[$0.lowerBound - 1]))
        && ($0.upperBound == count || isBlank(bytes[$0.upperBound]))
    }
    guard let hit = anchors.last(where: { $0.lowerBound < star }) ?? anchors.first else {
      return nil
    }
    var start = hit.upperBound
    while start < count, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
    // The key's indentation, for the lines under it.
    var keyStart = hit.lowerBound
    while keyStart > 0, bytes[keyStart - 1] != 0x0A { keyStart -= 1 }
    while keyStart < hit.lowerBound, bytes[keyStart] == 0x20 { keyStart += 1 }
    if let block = value(from: start, nameStart: keyStart, in: bytes) {
      return block.isEmpty ? nil : (block, false)
    }
    guard start < count, !endsLine(at: start, in: bytes) else { return nil }
    let lineEnd = EmbeddedQueryPairs.next(0x0A, in: bytes, from: start) ?? count
    let quote = bytes[start]
    if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
      var close = start + 1
      while close < lineEnd, bytes[close] != quote {
        close += quote == UInt8(ascii: "\"") && bytes[close] == UInt8(ascii: "\\") ? 2 : 1
      }
      guard close < lineEnd, close > start + 1 else { return nil }
      return ((start + 1)..<close, true)
    }
    // A plain scalar: to a comment or the line's end, blanks after it left out.
    var stop = start + 1
    while stop < lineEnd, !endsLine(at: stop, in: bytes) { stop += 1 }
    while stop > start, isBlank(bytes[stop - 1]) { stop -= 1 }
    return (start..<stop, false)
  }

  /// A double-quoted YAML scalar's contents with its escapes undone (`p\x61ssword` is
  /// `password`): JSON's (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\uXXXX`) and YAML's
  /// own (`\xHH`, `\UXXXXXXXX`, `\0`, `\a`, `\v`, `\e`, `\ `, `\N`, `\_`, `\L`, `\P`, an escaped
  /// tab); `nil` when an escape is none of them. Read for a key's name, which is short.
  static func unescaped(doubleQuoted contents: some StringProtocol) -> String? {
    var scalars = Array(contents.unicodeScalars)[...]
    var result = String.UnicodeScalarView()
    func hex(_ digits: Int) -> Unicode.Scalar? {
      guard scalars.count >= digits else { return nil }
      let text = String(String.UnicodeScalarView(scalars.prefix(digits)))
      scalars = scalars.dropFirst(digits)
      return UInt32(text, radix: 16).flatMap(Unicode.Scalar.init)
    }
    while let scalar = scalars.popFirst() {
      guard scalar == "\\" else {
        result.append(scalar)
        continue
      }
      guard let escape = scalars.popFirst() else { return nil }
      let decoded: Unicode.Scalar?
      switch escape {
      case "0": decoded = "\u{0}"
      case "a": decoded = "\u{7}"
      case "b": decoded = "\u{8}"
      case "t", "\t": decoded = "\t"
      case "n": decoded = "\n"
      case "v": decoded = "\u{B}"
      case "f": decoded = "\u{C}"
      case "r": decoded = "\r"
      case "e": decoded = "\u{1B}"
      case " ", "\"", "/", "\\": decoded = escape
      case "N": decoded = "\u{85}"
      case "_": decoded = "\u{A0}"
      case "L": decoded = "\u{2028}"
      case "P": decoded = "\u{2029}"
      case "x": decoded = hex(2)
      case "u": decoded = hex(4)
      case "U": decoded = hex(8)
      default: decoded = nil
      }
      guard let decoded else { return nil }
      result.append(decoded)
    }
    return String(result)
  }

  /// The end of a plain scalar that ran to its line's end at `end` and goes on over the lines
  /// indented under its key (YAML folds them into one value), or `nil` when no line does or
  /// they hold pairs.
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
    guard let lines = linesUnder(lineEndFrom: lineEnd, under: nameStart, in: bytes),
      !startsMapping(at: lines.lowerBound, in: bytes)
    else { return nil }
    // A plain scalar holds no `: `: lines that do are pairs (an object dump's `config: {`,
    // `auth: {…}` under `AxiosError: Request failed`), read one by one.
    let inside = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[lines]))
    guard !ByteSearch.contains(Array(": ".utf8), in: inside) else { return nil }
    return lines.upperBound
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
        guard Self.column(of: nameStart, in: bytes, isBelow: content - lineStart) else { break }
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
    while index < count {
      let byte = bytes[index]
      if byte == 0x0A {
        lines += 1
        lineStart = index + 1
        index += 1
        continue
      }
      if lineStart >= 0, byte != 0x20, byte != 0x0D {
        // The first non-space byte of a continuation line: indented under the key, or the
        // quote was never closed where YAML would close it.
        guard Self.column(of: nameStart, in: bytes, isBelow: index - lineStart) else {
          return nil
        }
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
  /// Whether the column of `offset` (its distance from its line's start) is below `indent`.
  ///
  /// Reads back at most `indent` bytes: read back to the line's start, every assignment on a
  /// 100 KB line of them (`token:[x]token:[x]…`) read the whole line again, and masking it took
  /// seconds of the debug build's CPU.
  private static func column(
    of offset: Int, in bytes: UnsafeBufferPointer<UInt8>, isBelow indent: Int
  ) -> Bool {
    var start = offset
    while start > 0, offset - start < indent, bytes[start - 1] != 0x0A { start -= 1 }
    return offset - start < indent
  }

  /// A space, a tab or a line break.
  private static func isBlank(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }
}
