import Foundation

/// The byte-level JSON primitives every reader in the library shares: white space, strings (a
/// word-at-a-time fast path over runs without `\` or `"`, escapes, surrogate pairs, UTF-8
/// validation), numbers, literals, and byte offsets turned into lines and columns.
///
/// Each `scan` method either consumes one well-formed token and returns what it found, or
/// returns `nil` with ``index`` left at the byte that is wrong, so a caller that reports errors
/// can name the position and a caller that only wants the common case can give up cheaply.
/// Strings are checked strictly (RFC 8259 in UTF-8: no raw control characters, no unpaired
/// surrogate escapes), so a string the scanner accepts decodes without failing, whenever the
/// caller chooses to decode it.
struct JSONScanner {
  /// The document's bytes; they must outlive the scanner.
  let bytes: UnsafeRawBufferPointer
  /// The offset of the next byte to read.
  var index: Int

  init(_ bytes: UnsafeRawBufferPointer, index: Int = 0) {
    self.bytes = bytes
    self.index = index
  }

  /// A string token: where its contents lie (without the quotes) and what decoding them needs.
  struct StringSpan: Hashable, Sendable {
    /// The bytes between the quotes, escapes still written out.
    var range: Range<Int>
    /// Whether the contents hold a `\` escape, so they are not the string's UTF-8 as they are.
    var hasEscapes: Bool
    /// Whether every escape is the one a cassette writes for its character (`\"`, `\\`, `\b`,
    /// `\f`, `\n`, `\r`, `\t`; no `\/`, no `\u`), so the contents are already written as
    /// `HARWriter` would write the decoded text, and can be copied as they are. Set by
    /// ``JSONScanner/scanString()`` only; `false` means "rewrite the escapes".
    var escapesAsWritten = false
    /// Whether the contents are plain ASCII, without escapes, so they are the string's bytes as
    /// they are. Set by ``JSONScanner/scanString()`` only, from the bytes it read anyway.
    var isPlainASCII = false
  }

  var isAtEnd: Bool { index >= bytes.count }

  /// The byte at ``index``, or `nil` at the end.
  var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x0A, 0x0D, 0x09:
        index += 1
        // Pretty-printed files indent with runs of spaces after each line break: pass a run a
        // word at a time, stopping at its first other byte.
        while index + 8 <= bytes.count {
          let others =
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            ^ 0x2020_2020_2020_2020
          if others != 0 {
            index += others.trailingZeroBitCount / 8
            break
          }
          index += 8
        }
      default: return
      }
    }
  }

  /// Consumes `byte` when it is next.
  mutating func consume(_ byte: UInt8) -> Bool {
    guard index < bytes.count, bytes[index] == byte else { return false }
    index += 1
    return true
  }

  /// Consumes `text` (`true`, `false`, `null`) when it comes next.
  mutating func scanLiteral(_ text: StaticString) -> Bool {
    let count = text.utf8CodeUnitCount
    guard index + count <= bytes.count else { return false }
    for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] {
      return false
    }
    index += count
    return true
  }

  // MARK: Strings

  /// Scans the string whose opening quote is at ``index`` and checks it completely: escapes,
  /// surrogate pairs, UTF-8. On failure ``index`` is at the offending byte (or the end).
  mutating func scanString() -> StringSpan? {
    guard consume(UInt8(ascii: "\"")) else { return nil }
    let start = index
    var hasEscapes = false
    var escapesAsWritten = true
    var highBits: UInt8 = 0
    while true {
      skipPlainRun(highBits: &highBits)
      guard index < bytes.count else { return nil }
      switch bytes[index] {
      case UInt8(ascii: "\""):
        let range = start..<index
        if highBits >= 0x80 {
          if let bad = Self.firstInvalidUTF8(in: bytes, range) {
            index = bad
            return nil
          }
        }
        index += 1
        return StringSpan(
          range: range, hasEscapes: hasEscapes, escapesAsWritten: escapesAsWritten,
          isPlainASCII: !hasEscapes && highBits < 0x80)
      case UInt8(ascii: "\\"):
        hasEscapes = true
        // A JSON body stored as a string has an escaped quote every few bytes: those two
        // escapes are passed here, the rest checked by a call.
        if index + 1 < bytes.count,
          bytes[index + 1] == UInt8(ascii: "\"") || bytes[index + 1] == UInt8(ascii: "\\")
        {
          index += 2
          continue
        }
        guard scanEscape(asWritten: &escapesAsWritten) else { return nil }
      default:
        return nil  // a raw control character
      }
    }
  }

  /// Moves past bytes that are neither `"`, `\` nor control characters, eight at a time while
  /// it can; `highBits` collects bit 7 of every byte passed, so ASCII-only runs skip UTF-8
  /// validation.
  private mutating func skipPlainRun(highBits: inout UInt8) {
    let highs: UInt64 = 0x8080_8080_8080_8080
    // The words passed, or-ed together: one test of their high bits at the end, not one a word.
    var passedWords: UInt64 = 0
    let longRun = index + 32
    while index + 8 <= bytes.count {
      let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      let special = Self.specialByteFlags(word)
      if special != 0 {
        // Stop at that byte, keeping the high bits of the bytes before it: a short string
        // ends here without a byte-at-a-time loop.
        let before = special.trailingZeroBitCount
        passedWords |= word & ((1 << before) &- 1)
        highBits |= passedWords & highs != 0 ? 0x80 : 0
        index += before / 8
        return
      }
      passedWords |= word
      index += 8
      if index >= longRun {
        highBits |= passedWords & highs != 0 ? 0x80 : 0
        skipLongPlainRun(highBits: &highBits)
        return
      }
    }
    highBits |= passedWords & highs != 0 ? 0x80 : 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { return }
      highBits |= byte
      index += 1
    }
  }

  /// Moves past the rest of a long plain run (a body), stopping where ``skipPlainRun(highBits:)``
  /// would: the next `"` and `\` are found by `memchr`, which the C library runs on vector
  /// registers, and only the control-character test is left to a word at a time. A 1 KiB body
  /// cost 33 instructions a word through the general test.
  private mutating func skipLongPlainRun(highBits: inout UInt8) {
    guard let base = bytes.baseAddress, index < bytes.count else { return }
    // A string's run ends at its closing quote at the latest (an escaped quote is a quote byte
    // too), so the search for `\` is bounded by the string.
    var end = bytes.count
    if let quote = memchr(base + index, 0x22, end - index) {
      end = UnsafeRawPointer(quote) - base
    }
    if end > index, let backslash = memchr(base + index, 0x5C, end - index) {
      end = UnsafeRawPointer(backslash) - base
    }
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    var passedWords: UInt64 = 0
    while index + 8 <= end {
      let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      // Bit 7 of each byte below 0x20; borrows flag bytes after a true hit only.
      let controls = (word &- ones &* 0x20) & ~word & highs
      if controls != 0 {
        let before = controls.trailingZeroBitCount
        passedWords |= word & ((1 << before) &- 1)
        index += before / 8
        highBits |= passedWords & highs != 0 ? 0x80 : 0
        return
      }
      passedWords |= word
      index += 8
    }
    highBits |= passedWords & highs != 0 ? 0x80 : 0
    while index < end {
      let byte = bytes[index]
      if byte < 0x20 { return }
      highBits |= byte
      index += 1
    }
  }

  /// How many bytes of `word` (as loaded from memory) come before the first that a JSON string
  /// cannot hold as it is (`"`, `\` or a control character): 8 when there is none.
  @inline(__always)
  static func specialByteOffset(_ word: UInt64) -> Int {
    specialByteFlags(UInt64(littleEndian: word)).trailingZeroBitCount >> 3
  }

  /// Bit 7 of each byte of `word` that is a `"`, a `\` or a control character. Borrows can flag
  /// bytes after a true hit, never before one, so the lowest flag is the first special byte.
  @inline(__always)
  static func specialByteFlags(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let quote = word ^ (ones &* 0x22)
    let backslash = word ^ (ones &* 0x5C)
    // A byte is flagged when it is zero (quote, backslash) or below 0x20.
    let special =
      ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
      | ((word &- ones &* 0x20) & ~word)
    return special & (ones &* 0x80)
  }

  /// Checks the escape at ``index`` (the backslash) and moves past it; a `\u` high surrogate
  /// must be followed by a `\u` low surrogate. `asWritten` is cleared by a `\/` or `\u`
  /// escape, which decode to characters a cassette writes otherwise.
  private mutating func scanEscape(asWritten: inout Bool) -> Bool {
    guard index + 1 < bytes.count else {
      index = bytes.count
      return false
    }
    switch bytes[index + 1] {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "b"), UInt8(ascii: "f"),
      UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      index += 2
      return true
    case UInt8(ascii: "/"):
      asWritten = false
      index += 2
      return true
    case UInt8(ascii: "u"):
      asWritten = false
      guard let unit = Self.hex4(bytes, at: index + 2) else { return false }
      switch unit {
      case 0xD800..<0xDC00:
        guard index + 12 <= bytes.count, bytes[index + 6] == UInt8(ascii: "\\"),
          bytes[index + 7] == UInt8(ascii: "u"),
          let low = Self.hex4(bytes, at: index + 8), (0xDC00..<0xE000).contains(low)
        else { return false }
        index += 12
      case 0xDC00..<0xE000:
        return false
      default:
        index += 6
      }
      return true
    default:
      return false
    }
  }

  /// The string a span from ``scanString()`` holds; never fails, because the scan checked it.
  /// Bytes that are not UTF-8 and unpaired surrogate escapes, which only a lenient reader lets
  /// through, become U+FFFD.
  static func decode(_ span: StringSpan, in bytes: UnsafeRawBufferPointer) -> String {
    let raw = UnsafeRawBufferPointer(rebasing: bytes[span.range])
    guard span.hasEscapes else { return String(decoding: raw, as: UTF8.self) }
    // Unescaping only shortens, so the contents' length (and a word of slack) is room enough.
    return String(unsafeUninitializedCapacity: raw.count + 8) { buffer in
      var position = 0
      return unescape(raw, from: &position, into: buffer)
    }
  }

  /// The UTF-8 bytes of a checked string's contents with its escapes replaced.
  static func unescaped(_ raw: UnsafeRawBufferPointer) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: raw.count + 8) { buffer, count in
      var position = 0
      count = unescape(raw, from: &position, into: buffer)
    }
  }

  /// Whether a checked string's contents, escapes replaced, are `utf8`; unescaped a piece at a
  /// time into a small buffer, so comparing a 50 MB body allocates nothing.
  static func unescaped(_ raw: UnsafeRawBufferPointer, equals utf8: UnsafeRawBufferPointer) -> Bool
  {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 65_536) { piece in
      var position = 0
      var offset = 0
      while position < raw.count {
        let count = unescape(raw, from: &position, into: piece)
        guard offset + count <= utf8.count,
          memcmp(piece.baseAddress!, utf8.baseAddress! + offset, count) == 0
        else { return false }
        offset += count
      }
      return offset == utf8.count
    }
  }

  /// Writes the contents from `position` with their escapes replaced to `target`, until they
  /// end or `target` has less than a word of room left; returns how many bytes it wrote and
  /// moves `position` past what it read.
  ///
  /// A body stored as a JSON string is mostly escaped quotes, a few bytes apart: the bytes are
  /// copied a word at a time and the first backslash of a word found from its bits, since a
  /// call to `memchr` and `memcpy` per run cost more than the copying. Writing never passes
  /// reading, so a target with `raw.count + 8` bytes takes everything in one call.
  private static func unescape(
    _ raw: UnsafeRawBufferPointer, from position: inout Int,
    into target: UnsafeMutableBufferPointer<UInt8>
  ) -> Int {
    guard let output = target.baseAddress else { return 0 }
    var count = 0
    while position < raw.count, count + 8 <= target.count {
      if position + 8 <= raw.count {
        let word = raw.loadUnaligned(fromByteOffset: position, as: UInt64.self)
        UnsafeMutableRawPointer(output + count).storeBytes(of: word, as: UInt64.self)
        let plain = plainLength(word)
        position += plain
        count += plain
        if plain == 8 { continue }
      } else if raw[position] != 0x5C {
        output[count] = raw[position]
        position += 1
        count += 1
        continue
      }
      // At a backslash.
      let escape = raw[position + 1]
      position += 2
      switch escape {
      case UInt8(ascii: "b"): output[count] = 0x08
      case UInt8(ascii: "f"): output[count] = 0x0C
      case UInt8(ascii: "n"): output[count] = 0x0A
      case UInt8(ascii: "r"): output[count] = 0x0D
      case UInt8(ascii: "t"): output[count] = 0x09
      case UInt8(ascii: "u"):
        UTF8.encode(escapedScalar(raw, at: &position)) { byte in
          output[count] = byte
          count += 1
        }
        continue
      default: output[count] = escape  // " \ /
      }
      count += 1
    }
    return count
  }

  /// How many bytes of `word` (as loaded from memory) come before its first `\`: 8 when it
  /// holds none.
  @inline(__always)
  static func plainLength(_ word: UInt64) -> Int {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let difference = UInt64(littleEndian: word) ^ (ones &* 0x5C)
    // The lowest flagged byte is exactly the first zero byte of `difference`.
    let flags = (difference &- ones) & ~difference & (ones &* 0x80)
    return flags.trailingZeroBitCount >> 3
  }

  /// The character of the `\u` escape whose four digits start at `position`, which moves past
  /// it (and past the low half of a surrogate pair).
  static func escapedScalar(_ raw: UnsafeRawBufferPointer, at position: inout Int)
    -> Unicode.Scalar
  {
    var scalar = hex4(raw, at: position) ?? 0xFFFD
    position += 4
    // A lenient reader (JSONNode's) also passes unpaired surrogates: a high one followed by
    // another `\u` takes it along and both become U+FFFD; a lone one fails `Unicode.Scalar`.
    if (0xD800..<0xDC00).contains(scalar), let low = hex4(raw, at: position + 2),
      raw[position] == UInt8(ascii: "\\"), raw[position + 1] == UInt8(ascii: "u")
    {
      scalar =
        (0xDC00..<0xE000).contains(low)
        ? 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        : 0xFFFD
      position += 6
    }
    return Unicode.Scalar(scalar) ?? "\u{FFFD}"
  }

  /// The value of four hexadecimal digits at `position`, or `nil`.
  static func hex4(_ bytes: UnsafeRawBufferPointer, at position: Int) -> UInt32? {
    guard position >= 0, position + 4 <= bytes.count else { return nil }
    var value: UInt32 = 0
    for offset in 0..<4 {
      let byte = bytes[position + offset]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: return nil
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  /// The offset of the first byte in `range` that does not belong to well-formed UTF-8
  /// (overlong forms, surrogates and values past U+10FFFF included), or `nil`.
  static func firstInvalidUTF8(in bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int? {
    var position = range.lowerBound
    let end = range.upperBound
    func continuation(_ offset: Int) -> UInt8? {
      guard position + offset < end else { return nil }
      let byte = bytes[position + offset]
      return byte & 0xC0 == 0x80 ? byte : nil
    }
    while position < end {
      let lead = bytes[position]
      let width: Int
      switch lead {
      case ..<0x80:
        width = 1
      case 0xC2..<0xE0:
        guard continuation(1) != nil else { return position }
        width = 2
      case 0xE0..<0xF0:
        guard let second = continuation(1), continuation(2) != nil,
          lead != 0xE0 || second >= 0xA0, lead != 0xED || second < 0xA0
        else { return position }
        width = 3
      case 0xF0..<0xF5:
        guard let second = continuation(1), continuation(2) != nil, continuation(3) != nil,
          lead != 0xF0 || second >= 0x90, lead != 0xF4 || second < 0x90
        else { return position }
        width = 4
      default:
        return position
      }
      position += width
    }
    return nil
  }

  // MARK: Numbers

  /// Scans `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` and returns its bytes; on
  /// failure ``index`` is where the number started.
  mutating func scanNumber() -> Range<Int>? {
    let start = index
    _ = consume(UInt8(ascii: "-"))
    if !consume(UInt8(ascii: "0")) {
      guard skipDigits() > 0 else {
        index = start
        return nil
      }
    }
    if consume(UInt8(ascii: ".")) {
      guard skipDigits() > 0 else {
        index = start
        return nil
      }
    }
    if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
      if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
      guard skipDigits() > 0 else {
        index = start
        return nil
      }
    }
    return start..<index
  }

  private mutating func skipDigits() -> Int {
    let first = index
    while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
    return index - first
  }

  /// A scanned number as a `Double`, or `nil` when it is not finite.
  func double(_ range: Range<Int>) -> Double? {
    // Whole numbers below 2^53 convert exactly, without a string; -0 keeps its sign below.
    if range.count < 16, let whole = int(range), whole != 0 || bytes[range.lowerBound] != 0x2D {
      return Double(whole)
    }
    let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    guard let value = Double(text), value.isFinite else { return nil }
    return value
  }

  /// A scanned number as an `Int`, or `nil` when it has a fraction or an exponent or does not
  /// fit.
  func int(_ range: Range<Int>) -> Int? {
    var position = range.lowerBound
    let negative = bytes[position] == UInt8(ascii: "-")
    if negative { position += 1 }
    var value = 0
    while position < range.upperBound {
      let digit = bytes[position] &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
      let (next, overflow2) =
        negative
        ? shifted.subtractingReportingOverflow(Int(digit))
        : shifted.addingReportingOverflow(Int(digit))
      guard !overflow, !overflow2 else { return nil }
      value = next
      position += 1
    }
    return value
  }

  // MARK: Whole values

  /// Moves past one complete value, checking it as strictly as the other `scan` methods;
  /// `false` on anything malformed or nested deeper than `depthLimit`.
  mutating func skipValue(depthLimit: Int = 512) -> Bool {
    skipWhitespace()
    guard let byte = current else { return false }
    switch byte {
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      guard depthLimit > 0 else { return false }
      let isObject = byte == UInt8(ascii: "{")
      let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
      index += 1
      skipWhitespace()
      if consume(close) { return true }
      while true {
        if isObject { guard scanMemberName() else { return false } }
        guard skipValue(depthLimit: depthLimit - 1) else { return false }
        skipWhitespace()
        if consume(close) { return true }
        guard consume(UInt8(ascii: ",")) else { return false }
      }
    case UInt8(ascii: "\""): return scanString() != nil
    case UInt8(ascii: "t"): return scanLiteral("true")
    case UInt8(ascii: "f"): return scanLiteral("false")
    case UInt8(ascii: "n"): return scanLiteral("null")
    default: return scanNumber() != nil
    }
  }

  /// A member name and its colon.
  private mutating func scanMemberName() -> Bool {
    skipWhitespace()
    guard current == UInt8(ascii: "\""), scanString() != nil else { return false }
    skipWhitespace()
    return consume(UInt8(ascii: ":"))
  }

  // MARK: Positions

  /// The 1-based line and column of a byte offset, the column counted in characters (the first
  /// byte of each UTF-8 sequence), as editors count them.
  static func lineAndColumn(of offset: Int, in bytes: UnsafeRawBufferPointer) -> (
    line: Int, column: Int
  ) {
    let end = min(max(offset, 0), bytes.count)
    var line = 1
    var lineStart = 0
    for position in 0..<end where bytes[position] == UInt8(ascii: "\n") {
      line += 1
      lineStart = position + 1
    }
    var column = 1
    for position in lineStart..<end where bytes[position] & 0xC0 != 0x80 { column += 1 }
    return (line, column)
  }
}
