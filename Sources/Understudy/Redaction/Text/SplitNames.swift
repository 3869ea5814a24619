/// A name a structure holds apart from its value, or splits over lines, where no reader of
/// `name: value` or `name=value` finds it: YAML's explicit key (`? password` then `: …` on
/// the next line at the same column), a `.properties` key continued over a backslash and a
/// line break (`db.pass\` then `word=…`, which Java reads as `db.password`), and a Python
/// pickle of protocol 0 (`S'password'` then a memo `p3` then `S'…'`, a dictionary's key and
/// value as the text format writes them).
///
/// Each is found by `memmem` of what starts it (`? `, a backslash before a line feed, `S'` or
/// a line's `V`) and read from there only; the name is judged as every other name is.
enum SplitNames {
  private static let explicitKeyMark = Array("? ".utf8)
  private static let continuation = Array("\\\n".utf8)
  private static let pickleDictionary = Array("(dp".utf8)
  private static let pickleString = Array("S'".utf8)
  private static let pickleUnicode = Array("\nV".utf8)

  /// The values in `bytes` whose names `isCredential` accepts, each with its name.
  static func ranges(in bytes: UnsafeBufferPointer<UInt8>, isCredential: (String) -> Bool)
    -> [(value: Range<Int>, name: String)]
  {
    let raw = UnsafeRawBufferPointer(bytes)
    var found: [(value: Range<Int>, name: String)] = []
    func add(_ pair: (name: Range<Int>, value: Range<Int>)?, named: String? = nil) {
      guard let pair, !pair.value.isEmpty else { return }
      let name =
        named ?? String(decoding: UnsafeBufferPointer(rebasing: bytes[pair.name]), as: UTF8.self)
      guard isCredential(name) else { return }
      found.append((pair.value, name))
    }
    for hit in ByteSearch.ranges(of: explicitKeyMark, in: raw) {
      add(explicitKey(at: hit.lowerBound, in: bytes))
    }
    for hit in ByteSearch.ranges(of: continuation, in: raw) {
      if let continued = continuedKey(at: hit.lowerBound, in: bytes) {
        add((continued.value, continued.value), named: continued.name)
      }
    }
    // A protocol 0 pickle's dictionary opens with `(dp`: a text without one holds none.
    guard ByteSearch.contains(pickleDictionary, in: raw) else { return found }
    for hit in ByteSearch.rangesIfAny(of: pickleString, in: raw) {
      add(pickledPair(at: hit.lowerBound, in: bytes))
    }
    for hit in ByteSearch.rangesIfAny(of: pickleUnicode, in: raw) {
      add(pickledPair(at: hit.lowerBound + 1, in: bytes))
    }
    return found
  }

  // MARK: YAML

  /// `? key` at `mark` (only blanks before it on its line), and the value of the `: value`
  /// line right under it at the same column.
  private static func explicitKey(at mark: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (
    name: Range<Int>, value: Range<Int>
  )? {
    var lineStart = mark
    while lineStart > 0, bytes[lineStart - 1] == 0x20 { lineStart -= 1 }
    guard lineStart == 0 || bytes[lineStart - 1] == 0x0A else { return nil }
    let column = mark - lineStart
    guard let keyEnd = lineEnd(from: mark + 2, in: bytes) else { return nil }
    let key = trimmedScalar((mark + 2)..<keyEnd, in: bytes)
    guard !key.isEmpty, keyEnd < bytes.count else { return nil }
    var next = keyEnd + 1
    if bytes[keyEnd] == 0x0D, next < bytes.count, bytes[next] == 0x0A { next += 1 }
    let colon = next + column
    guard colon + 1 < bytes.count,
      (next..<colon).allSatisfy({ bytes[$0] == 0x20 }), bytes[colon] == UInt8(ascii: ":"),
      bytes[colon + 1] == 0x20,
      let valueEnd = lineEnd(from: colon + 2, in: bytes)
    else { return nil }
    return (key, trimmedScalar((colon + 2)..<valueEnd, in: bytes))
  }

  /// Where the line holding `start` ends (its line feed or carriage return, or the text's end).
  private static func lineEnd(from start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard start <= bytes.count else { return nil }
    var end = start
    while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
    return end
  }

  /// `range` without blanks around it, a YAML comment after it, or the quotes around it.
  private static func trimmedScalar(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>)
    -> Range<Int>
  {
    var start = range.lowerBound
    var end = range.upperBound
    while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
    if start < end, bytes[start] == UInt8(ascii: "\"") || bytes[start] == UInt8(ascii: "'") {
      let quote = bytes[start]
      if let close = bytes.index(of: quote, in: (start + 1)..<end) { return (start + 1)..<close }
    }
    var hash = start
    while let at = bytes.index(of: UInt8(ascii: "#"), in: hash..<end) {
      if at > start, bytes[at - 1] == 0x20 || bytes[at - 1] == 0x09 {
        end = at
        break
      }
      hash = at + 1
    }
    while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
    return start..<end
  }

  // MARK: .properties

  /// A `.properties` key continued over the backslash at `backslash` (the line before it all
  /// key: no separator, no blank inside), joined as Java joins it, and its value to its
  /// line's end (over further continuations).
  private static func continuedKey(at backslash: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> (name: String, value: Range<Int>)?
  {
    var lineStart = backslash
    while lineStart > 0, bytes[lineStart - 1] != 0x0A, backslash - lineStart < 256 {
      lineStart -= 1
    }
    while lineStart < backslash, bytes[lineStart] == 0x20 || bytes[lineStart] == 0x09 {
      lineStart += 1
    }
    // An escaped backslash continues nothing.
    guard lineStart < backslash, bytes[backslash - 1] != 0x5C,
      (lineStart..<backslash).allSatisfy({ isKeyByte(bytes[$0]) })
    else { return nil }
    var name = String(
      decoding: UnsafeBufferPointer(rebasing: bytes[lineStart..<backslash]), as: UTF8.self)
    var index = backslash + 2
    for _ in 0..<4 {
      while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
      let start = index
      while index < bytes.count, isKeyByte(bytes[index]) { index += 1 }
      name += String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
      guard index + 1 < bytes.count, bytes[index] == 0x5C, bytes[index + 1] == 0x0A else { break }
      index += 2
    }
    while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
    guard index < bytes.count,
      bytes[index] == UInt8(ascii: "=") || bytes[index] == UInt8(ascii: ":")
    else { return nil }
    index += 1
    while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
    var end = index
    while end < bytes.count {
      if bytes[end] == 0x0A || bytes[end] == 0x0D {
        // A value continued over its own backslash runs on.
        guard end > index, bytes[end - 1] == 0x5C else { break }
      }
      end += 1
    }
    while end > index, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
    return (name, index..<end)
  }

  /// A byte a `.properties` key holds unescaped: letters, digits, `.`, `_`, `-`.
  private static func isKeyByte(_ byte: UInt8) -> Bool {
    ASCIIByte.isAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
      || byte == UInt8(ascii: "-")
  }

  // MARK: Pickle

  /// A protocol 0 pickle's string at `opcode` (`S'…'` on its line, after a line break or an
  /// opcode that ends an item), an optional memo (`p3` or `g3` on the next line), and the
  /// string right after it (`S'…'` or `V…`): a dictionary's key and value.
  private static func pickledPair(at opcode: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (
    name: Range<Int>, value: Range<Int>
  )? {
    guard opcode == 0 || "\n(sdau".utf8.contains(bytes[opcode - 1]),
      let key = pickledString(at: opcode, in: bytes)
    else { return nil }
    var index = key.end
    // A memo: `p3`, `g3`.
    if index < bytes.count, bytes[index] == UInt8(ascii: "p") || bytes[index] == UInt8(ascii: "g") {
      var digits = index + 1
      while digits < bytes.count, ASCIIByte.isDigit(bytes[digits]) { digits += 1 }
      guard digits > index + 1, digits < bytes.count, bytes[digits] == 0x0A else { return nil }
      index = digits + 1
    }
    guard let value = pickledString(at: index, in: bytes) else { return nil }
    return (key.inner, value.inner)
  }

  /// The string opcode at `index`: `S'…'` or `S"…"` then a line feed, or `V…` to its line's
  /// end; its contents and where the next opcode starts.
  private static func pickledString(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (
    inner: Range<Int>, end: Int
  )? {
    guard index + 1 < bytes.count else { return nil }
    switch bytes[index] {
    case UInt8(ascii: "S"):
      let quote = bytes[index + 1]
      guard quote == UInt8(ascii: "'") || quote == UInt8(ascii: "\""),
        let end = lineEnd(from: index + 2, in: bytes), end > index + 2,
        bytes[end - 1] == quote, end < bytes.count, bytes[end] == 0x0A
      else { return nil }
      return ((index + 2)..<(end - 1), end + 1)
    case UInt8(ascii: "V"):
      guard let end = lineEnd(from: index + 1, in: bytes), end < bytes.count, bytes[end] == 0x0A
      else { return nil }
      return ((index + 1)..<end, end + 1)
    default:
      return nil
    }
  }
}
