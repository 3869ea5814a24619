import Foundation

/// A credential whose name a YAML mapping holds in a sibling key, as ``HeldCredentialName``
/// reads JSON's `{"name": "DB_PASSWORD", "value": "…"}`: Kubernetes' env list, in either order.
///
///     env:
///     - name: DB_PASSWORD
///       value: "…"
///     - value: …
///       name: API_TOKEN
///
/// Each `value:` key (found by `memmem`) is read with the other keys of its mapping: the lines
/// at its key's column, up to the item's `- ` and down to the next item or a shallower line
/// (deeper lines belong to the values). A name key among them (``HeldCredentialName/nameKeys``)
/// holding a one-line scalar says what the value holds, judged as JSON's is.
enum YAMLHeldNames {
  /// A name key's scalar and the value it names.
  struct Pair {
    let held: String
    let namesAKey: Bool
    /// The value's bytes: a one-line scalar without its quotes, or the lines under the key.
    let value: Range<Int>
  }

  /// How many lines above and below a value key its mapping's keys are looked for.
  private static let reach = 64

  /// Every value key's value with each name key of its mapping, in order.
  static func pairs(in bytes: UnsafeBufferPointer<UInt8>) -> [Pair] {
    var found: [Pair] = []
    // The flow mapping read last: its other value keys are read from it, not again.
    var lastMapping: [FlowMember] = []
    for hit in ByteSearch.ranges(of: Array("alue:".utf8), in: UnsafeRawBufferPointer(bytes)) {
      let colon = hit.upperBound - 1
      var lineStart = hit.lowerBound
      while lineStart > 0, bytes[lineStart - 1] != 0x0A, hit.lowerBound - lineStart < 64 {
        lineStart -= 1
      }
      // A key inside a flow mapping (after its `{` or a `,`) is read with the mapping's members.
      if let flow = flowPairs(colon: colon, in: bytes, lastMapping: &lastMapping) {
        found += flow
        continue
      }
      guard lineStart == 0 || bytes[lineStart - 1] == 0x0A,
        let line = Line(at: lineStart, in: bytes), line.colon == colon,
        HeldCredentialName.isValueKey(line.key), let value = value(of: line, in: bytes)
      else { continue }
      for sibling in siblings(of: line, in: bytes)
      where HeldCredentialName.isNameKey(sibling.key) {
        guard let held = scalar(of: sibling, in: bytes), !held.isEmpty else { continue }
        let text = String(decoding: bytes[held], as: UTF8.self)
        found.append(
          Pair(held: text, namesAKey: HeldCredentialName.namesAKey(sibling.key), value: value))
      }
    }
    return found
  }

  // MARK: Flow mappings

  /// How far back from a value key the `{` of its flow mapping is looked for, and how far on
  /// its members are read.
  private static let flowReach = 4_096

  /// The pairs of the flow mapping whose value key's `:` is at `colon` (`{name: DB_PASSWORD,
  /// value: …}`, as `env: [{…}]` or a block list's `- {…}` writes an item): the mapping's
  /// members are read from its `{` to its `}`, scalars plain, single- or double-quoted, and
  /// each name key's scalar names the value key's, as a block mapping's does. `nil` when the
  /// key stands in no flow mapping.
  private static func flowPairs(
    colon: Int, in bytes: UnsafeBufferPointer<UInt8>, lastMapping: inout [FlowMember]
  ) -> [Pair]? {
    guard colon + 1 < bytes.count, " \t\r\n\"'".utf8.contains(bytes[colon + 1]) else { return nil }
    var keyStart = colon
    while keyStart > 0, colon - keyStart < 64, isPlainKeyByte(bytes[keyStart - 1]) {
      keyStart -= 1
    }
    guard
      HeldCredentialName.isValueKey(String(decoding: bytes[keyStart..<colon], as: UTF8.self))
    else { return nil }
    var before = keyStart
    while before > 0, isFlowSpace(bytes[before - 1]) { before -= 1 }
    guard before > 0,
      bytes[before - 1] == UInt8(ascii: "{") || bytes[before - 1] == UInt8(ascii: ",")
    else { return nil }
    if !lastMapping.contains(where: { $0.key == keyStart..<colon }) {
      guard let open = flowOpening(before: before - 1, in: bytes),
        let members = flowMembers(from: open, in: bytes)
      else { return nil }
      lastMapping = members
    }
    let members = lastMapping
    guard let value = members.first(where: { $0.key == keyStart..<colon })?.value,
      !value.isEmpty
    else { return nil }
    return members.compactMap { member in
      let key = String(decoding: bytes[member.key], as: UTF8.self)
      guard member.key != keyStart..<colon, HeldCredentialName.isNameKey(key),
        let held = member.value, !held.isEmpty
      else { return nil }
      return Pair(
        held: String(decoding: bytes[held], as: UTF8.self),
        namesAKey: HeldCredentialName.namesAKey(key), value: value)
    }
  }

  /// A flow mapping's member: its key (without quotes) and its scalar (without quotes; `nil`
  /// for a collection).
  typealias FlowMember = (key: Range<Int>, value: Range<Int>?)

  private static func isPlainKeyByte(_ byte: UInt8) -> Bool {
    ASCIIByte.isLetter(byte) || ASCIIByte.isDigit(byte) || byte == UInt8(ascii: "_")
      || byte == UInt8(ascii: "-")
  }

  private static func isFlowSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  /// The `{` that opens the flow mapping holding `index` (a `{` or a `,` of it): the first
  /// bracket back that no closing one matches, when it is a `{`.
  private static func flowOpening(before index: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> Int?
  {
    var depth = 0
    var scan = index
    while scan >= 0, index - scan < flowReach {
      switch bytes[scan] {
      case UInt8(ascii: "}"), UInt8(ascii: "]"): depth += 1
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        if depth == 0 { return bytes[scan] == UInt8(ascii: "{") ? scan : nil }
        depth -= 1
      default: break
      }
      scan -= 1
    }
    return nil
  }

  /// The members of the flow mapping opened at `open`: each key (without quotes) and its
  /// scalar (without quotes; `nil` for a collection), or `nil` when it is no flow mapping.
  private static func flowMembers(from open: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> [FlowMember]?
  {
    let end = min(bytes.count, open + flowReach)
    var members: [FlowMember] = []
    var index = open + 1
    func skipSpace() { while index < end, isFlowSpace(bytes[index]) { index += 1 } }
    while true {
      skipSpace()
      guard index < end else { return nil }
      if bytes[index] == UInt8(ascii: "}") { return members }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard let key = flowScalar(at: &index, end: end, in: bytes, isKey: true) else { return nil }
      skipSpace()
      guard index < end, bytes[index] == UInt8(ascii: ":") else { return nil }
      index += 1
      skipSpace()
      guard index < end else { return nil }
      var value: Range<Int>?
      if bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "[") {
        guard let close = flowClosing(of: index, end: end, in: bytes) else { return nil }
        index = close + 1
      } else {
        value = flowScalar(at: &index, end: end, in: bytes, isKey: false)
      }
      members.append((key, value))
      skipSpace()
      guard index < end, bytes[index] == UInt8(ascii: ",") || bytes[index] == UInt8(ascii: "}")
      else { return nil }
    }
  }

  /// The scalar at `index`, moving `index` past it: quoted (its inside), or plain up to a `,`,
  /// a bracket, a line break, a ` #` comment, or (a key's) a `:` before a space.
  private static func flowScalar(
    at index: inout Int, end: Int, in bytes: UnsafeBufferPointer<UInt8>, isKey: Bool
  ) -> Range<Int>? {
    let quote = bytes[index]
    if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
      let start = index + 1
      var close = start
      while close < end {
        if bytes[close] == quote {
          // `''` in single quotes is one `'`.
          guard quote == UInt8(ascii: "'"), close + 1 < end, bytes[close + 1] == quote else {
            break
          }
          close += 2
          continue
        }
        if quote == UInt8(ascii: "\""), bytes[close] == UInt8(ascii: "\\") { close += 1 }
        close += 1
      }
      guard close < end else { return nil }
      index = close + 1
      return start..<close
    }
    let start = index
    while index < end {
      let byte = bytes[index]
      if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
        || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") || byte == 0x0A || byte == 0x0D
      {
        break
      }
      if byte == UInt8(ascii: "#"), index > start, bytes[index - 1] == 0x20 { break }
      if isKey, byte == UInt8(ascii: ":"), index + 1 < end, isFlowSpace(bytes[index + 1]) {
        break
      }
      index += 1
    }
    var last = index
    while last > start, bytes[last - 1] == 0x20 || bytes[last - 1] == 0x09 { last -= 1 }
    // A comment runs to the line's end.
    if index < end, bytes[index] == UInt8(ascii: "#") {
      while index < end, bytes[index] != 0x0A { index += 1 }
    }
    return start..<last
  }

  /// The bracket that closes the one at `open`, past quoted scalars.
  private static func flowClosing(of open: Int, end: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> Int?
  {
    var depth = 0
    var index = open
    while index < end {
      switch bytes[index] {
      case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
        if depth == 0 { return index }
      case UInt8(ascii: "\""), UInt8(ascii: "'"):
        guard flowScalar(at: &index, end: end, in: bytes, isKey: false) != nil else { return nil }
        continue
      default: break
      }
      index += 1
    }
    return nil
  }

  /// One line of a mapping: its indentation, whether it starts a list item (`- `), and its key.
  private struct Line {
    let start: Int
    let end: Int
    let indent: Int
    let isItem: Bool
    /// The key's column (after `- ` on an item's line).
    let column: Int
    let key: String
    /// The `:` after the key, or -1 when the line holds no key.
    let colon: Int

    /// The line starting at `start`, or `nil` when it is blank or a comment.
    init?(at start: Int, in bytes: UnsafeBufferPointer<UInt8>) {
      let count = bytes.count
      var end = start
      while end < count, bytes[end] != 0x0A { end += 1 }
      var index = start
      while index < end, bytes[index] == 0x20 { index += 1 }
      guard index < end, bytes[index] != UInt8(ascii: "#"), bytes[index] != 0x0D else {
        return nil
      }
      self.start = start
      self.end = end
      indent = index - start
      isItem =
        bytes[index] == UInt8(ascii: "-")
        && (index + 1 == end || bytes[index + 1] == 0x20 || bytes[index + 1] == 0x0D)
      if isItem {
        index += 1
        while index < end, bytes[index] == 0x20 { index += 1 }
      }
      column = index - start
      var keyStart = index
      var keyEnd = index
      var colon = -1
      if index < end, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
        let quote = bytes[index]
        var close = index + 1
        while close < end, bytes[close] != quote { close += 1 }
        if close + 1 < end, bytes[close + 1] == UInt8(ascii: ":") {
          keyStart = index + 1
          keyEnd = close
          colon = close + 1
        }
      } else {
        var scan = index
        while scan < end, scan - index < 64 {
          if bytes[scan] == UInt8(ascii: ":"),
            scan + 1 == end || bytes[scan + 1] == 0x20 || bytes[scan + 1] == 0x09
              || bytes[scan + 1] == 0x0D
          {
            keyEnd = scan
            colon = scan
            break
          }
          scan += 1
        }
        while keyEnd > keyStart, bytes[keyEnd - 1] == 0x20 { keyEnd -= 1 }
      }
      self.colon = colon
      key = colon < 0 ? "" : String(decoding: bytes[keyStart..<keyEnd], as: UTF8.self)
    }
  }

  /// The keyed lines of `line`'s mapping other than itself.
  private static func siblings(of line: Line, in bytes: UnsafeBufferPointer<UInt8>) -> [Line] {
    var siblings: [Line] = []
    let column = line.column
    // Up to the item's `- `, or a shallower line.
    var start = line.start
    var steps = 0
    while !line.isItem, start > 0, steps < reach {
      steps += 1
      var previous = start - 1
      while previous > 0, bytes[previous - 1] != 0x0A { previous -= 1 }
      start = previous
      guard let above = Line(at: start, in: bytes) else { continue }
      if above.isItem {
        if above.column == column {
          siblings.append(above)
          break
        }
        if above.indent >= column { continue }
        break
      }
      if above.indent > column { continue }
      guard above.indent == column else { break }
      siblings.append(above)
    }
    // Down to the next item, or a shallower line.
    var next = line.end + 1
    steps = 0
    while next < bytes.count, steps < reach {
      steps += 1
      guard let below = Line(at: next, in: bytes) else {
        while next < bytes.count, bytes[next] != 0x0A { next += 1 }
        next += 1
        continue
      }
      next = below.end + 1
      if below.isItem {
        if below.indent >= column { continue }
        break
      }
      if below.indent > column { continue }
      guard below.indent == column else { break }
      siblings.append(below)
    }
    return siblings.filter { $0.colon >= 0 }
  }

  /// The one-line scalar after a key's `:`, without quotes and a trailing comment.
  private static func scalar(of line: Line, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
    var start = line.colon + 1
    while start < line.end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
    var end = line.end
    if end > start, bytes[end - 1] == 0x0D { end -= 1 }
    guard start < end else { return nil }
    let first = bytes[start]
    if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
      var close = start + 1
      while close < end, bytes[close] != first { close += 1 }
      return close < end ? (start + 1)..<close : nil
    }
    // Block indicators, flow collections, aliases and properties are no one-line scalar.
    guard !"|>[{*&!".utf8.contains(first) else { return nil }
    var scan = start
    while scan < end {
      if bytes[scan] == UInt8(ascii: "#"), scan > start,
        bytes[scan - 1] == 0x20 || bytes[scan - 1] == 0x09
      {
        end = scan
        break
      }
      scan += 1
    }
    while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
    return start < end ? start..<end : nil
  }

  /// A value key's value: its one-line scalar, or what ``YAMLScalar`` reads after the key (a
  /// block scalar, the lines under it).
  private static func value(of line: Line, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
    if let scalar = scalar(of: line, in: bytes) { return scalar }
    var start = line.colon + 1
    while start < line.end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
    guard let range = YAMLScalar.value(from: start, nameStart: line.start + line.column, in: bytes),
      !range.isEmpty
    else { return nil }
    return range
  }
}

extension CompiledRedaction {
  /// The byte ranges of YAML values whose mapping's name key holds a credential's name
  /// (``YAMLHeldNames``), each with its placeholder.
  func yamlHeldNameReplacements(in text: String, echoes: inout RedactionEchoes)
    -> [(Range<Int>, String)]
  {
    guard !memberNames.isEmpty, text.contains(bytes: "alue:") else { return [] }
    var text = text
    let pairs = text.withUTF8 { bytes in
      YAMLHeldNames.pairs(in: bytes).map { ($0, String(decoding: bytes[$0.value], as: UTF8.self)) }
    }
    var replacements: [(Range<Int>, String)] = []
    var taken = Set<Int>()
    for (pair, secret) in pairs where !taken.contains(pair.value.lowerBound) {
      guard !RedactionPlaceholder.isPresent(in: secret),
        let name = HeldCredentialName.placeholderName(
          held: pair.held, namingAKey: pair.namesAKey,
          isCredential: { placeholderName(forMember: $0) != nil })
      else { continue }
      taken.insert(pair.value.lowerBound)
      echoes.remember(memberValue: secret, as: name)
      replacements.append((pair.value, RedactionPlaceholder.text(name)))
    }
    return replacements
  }
}
