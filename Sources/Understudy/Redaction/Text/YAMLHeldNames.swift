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
    for hit in ByteSearch.ranges(of: Array("alue:".utf8), in: UnsafeRawBufferPointer(bytes)) {
      let colon = hit.upperBound - 1
      var lineStart = hit.lowerBound
      while lineStart > 0, bytes[lineStart - 1] != 0x0A, hit.lowerBound - lineStart < 64 {
        lineStart -= 1
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
