/// Where the bare values of ``TextAssignments`` end in one text.
///
/// A line's end or a backslash (an escape in a JSON string) always ends one; `<` ends it before
/// a tag (a letter, `/`, `!` or `?`); a quote, `,`, `;`, `>` or a closing bracket ends it where
/// it closes something: before white space, the text's end or another such byte. So
/// `password: Ab1,Cd2;Ef3!` is one value, as YAML and INI read it, while a script's
/// `{ apiKey: key, other: 2 }` and markup's `<td>password: …</td>` end where they close. A closing
/// bracket whose opening one is in the value belongs to it (`password = Ab1[Cd2]`), up to four
/// times a value.
///
/// Whether a byte ends a value depends on that byte and the next, not on where the value began,
/// so the end found for one value serves every later value that starts before it, and what a
/// bracket's opening one is, and where a value runs on past it, is found once a bracket: a
/// minified stylesheet's megabyte line of `name:value` pairs, read to its end once a name, took
/// 45 s.
struct BareValueEnds {
  private let bytes: UnsafeBufferPointer<UInt8>
  private var searchedFrom = Int.max
  private var ending = Int.max
  /// For a closing bracket that ends a value: its opening bracket, if one is on its line within
  /// `bracketReach` bytes, and the end a value that holds both runs to.
  private var pastBracket: [Int: (opening: Int?, ending: Int)] = [:]
  private static let bracketReach = 4096
  private static let bracketsPerValue = 4

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  /// The end of the bare value that starts at `start`, trailing spaces and tabs left out.
  mutating func end(from start: Int) -> Int {
    if start < searchedFrom || start > ending {
      searchedFrom = start
      ending = firstEnding(from: start)
    }
    var end = ending
    for _ in 0..<Self.bracketsPerValue where end < bytes.count && isClosingBracket(bytes[end]) {
      let past = pastBracket(at: end)
      guard let opening = past.opening, opening >= start else { break }
      end = past.ending
    }
    while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
    return end
  }

  private mutating func pastBracket(at closing: Int) -> (opening: Int?, ending: Int) {
    if let known = pastBracket[closing] { return known }
    let found = (opening: openingBracket(of: closing), ending: firstEnding(from: closing + 1))
    pastBracket[closing] = found
    return found
  }

  /// The bracket that `closing` closes, on its line and within `bracketReach` bytes.
  private func openingBracket(of closing: Int) -> Int? {
    let close = bytes[closing]
    let open: UInt8 =
      close == UInt8(ascii: ")")
      ? UInt8(ascii: "(") : close == UInt8(ascii: "]") ? UInt8(ascii: "[") : UInt8(ascii: "{")
    var depth = 0
    var index = closing
    while index > 0, closing - index < Self.bracketReach {
      index -= 1
      let byte = bytes[index]
      if byte == 0x0A || byte == 0x0D { return nil }
      if byte == close {
        depth += 1
      } else if byte == open {
        if depth == 0 { return index }
        depth -= 1
      }
    }
    return nil
  }

  /// The first byte at or after `start` that ends a value. Only 13 bytes can, and a value is
  /// mostly other bytes: they are passed over in this loop, with no call per byte (a call at
  /// `-Onone`, which `swift test` compiles, costs more than the test), and ``endsValue(at:)``
  /// judges the rest.
  private func firstEnding(from start: Int) -> Int {
    var index = start
    let count = bytes.count
    while index < count {
      switch bytes[index] {
      // \n \r " ' ) , ; < > \ ] ` }
      case 0x0A, 0x0D, 0x22, 0x27, 0x29, 0x2C, 0x3B, 0x3C, 0x3E, 0x5C, 0x5D, 0x60, 0x7D:
        if endsValue(at: index) { return index }
      default:
        break
      }
      index += 1
    }
    return index
  }

  private func endsValue(at index: Int) -> Bool {
    let byte = bytes[index]
    if byte == 0x0A || byte == 0x0D || byte == 0x5C { return true }  // \
    let next = index + 1 < bytes.count ? bytes[index + 1] : nil
    if byte == 0x3C {  // <
      guard let next else { return false }
      return TextAssignments.isLetterOrUnderscore(next) || next == UInt8(ascii: "/")
        || next == UInt8(ascii: "!") || next == UInt8(ascii: "?")
    }
    guard Self.isCloser(byte) else { return false }
    guard let next else { return true }
    return next == 0x20 || next == 0x09 || next == 0x0A || next == 0x0D
      || next == UInt8(ascii: "\\") || next == UInt8(ascii: "<") || Self.isCloser(next)
  }

  private func isClosingBracket(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: ")") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}")
  }

  /// `"`, `'`, `` ` ``, `,`, `;`, `>`, `}`, `]` or `)`, written as numbers: `UInt8(ascii:)` is a
  /// call at `-Onone`, nine of them each time.
  private static func isCloser(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x22, 0x27, 0x60, 0x2C, 0x3B, 0x3E, 0x7D, 0x5D, 0x29: true
    default: false
    }
  }
}
