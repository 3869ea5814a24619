import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The cells of an HTML table under a header cell that names a credential: a settings page or
/// an admin export shows `<tr><th>User</th><th>Password</th></tr>` once and the secrets in the
/// rows below, where no name stands beside them. Read as a CSV table is read
/// (``CSVColumns/HeaderRow``): the first row of a table that holds a `<th>` or stands in its
/// `<thead>` names the columns,
/// and each later row's cell is its column's.
///
/// Tags are found by `memchr` from each `<`, and only in a text that holds `<th`.
enum HTMLTableColumns {
  /// The non-empty cells (their content, white space around it left out) under a column whose
  /// header `key` maps to a key, in order.
  static func cells(
    in bytes: UnsafeBufferPointer<UInt8>, key: (String) -> String?
  ) -> [CSVColumns.Cell] {
    guard mayHoldTable(bytes) else { return [] }
    var cells: [CSVColumns.Cell] = []
    var header: CSVColumns.HeaderRow?
    var row: [(content: Range<Int>, isHeader: Bool)] = []
    var open: (start: Int, isHeader: Bool)?
    // A row of `<thead>` is a header row in `<td>`s too, as a spreadsheet's export writes one.
    var inHead = false
    func closeCell(at end: Int) {
      guard let cell = open else { return }
      row.append((cell.start..<end, cell.isHeader))
      open = nil
    }
    func closeRow() {
      defer { row = [] }
      guard !row.isEmpty else { return }
      guard let named = header else {
        guard row.contains(where: \.isHeader) else { return }
        var reading = CSVColumns.HeaderRow()
        for (column, cell) in row.enumerated() {
          reading.name(column: column, text(of: cell.content, in: bytes), key: key)
        }
        header = reading
        return
      }
      for (column, cell) in row.enumerated() {
        guard let key = named.key(ofColumn: column) else { continue }
        let content = trimmed(cell.content, in: bytes)
        guard !content.isEmpty else { continue }
        cells.append(CSVColumns.Cell(range: content, text: text(of: content, in: bytes), key: key))
      }
    }
    var index = 0
    while let angle = bytes.index(of: UInt8(ascii: "<"), in: index..<bytes.count) {
      index = angle + 1
      let (name, isClosing) = tagName(at: angle, in: bytes)
      guard ["table", "tr", "td", "th", "thead", "tbody", "tfoot"].contains(name) else {
        continue
      }
      closeCell(at: angle)
      guard let end = bytes.index(of: UInt8(ascii: ">"), in: index..<bytes.count) else { break }
      index = end + 1
      switch (name, isClosing) {
      case ("table", _):
        closeRow()
        header = nil
      case ("tr", _):
        closeRow()
      case ("thead", let isClosing):
        closeRow()
        inHead = !isClosing
      case ("td", false), ("th", false):
        open = (end + 1, name == "th" || inHead)
      default:
        continue
      }
    }
    closeCell(at: bytes.count)
    closeRow()
    return cells
  }

  /// Whether `bytes` holds `<th` in any case (`<th>` or `<thead>`): no table without a header
  /// names a column.
  private static func mayHoldTable(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    while let angle = bytes.index(of: UInt8(ascii: "<"), in: index..<bytes.count) {
      index = angle + 1
      if angle + 3 < bytes.count, bytes[angle + 1] | 0x20 == UInt8(ascii: "t"),
        bytes[angle + 2] | 0x20 == UInt8(ascii: "h"),
        !ASCIIByte.isAlphanumeric(bytes[angle + 3])
          || (angle + 6 < bytes.count && bytes[angle + 3] | 0x20 == UInt8(ascii: "e")
            && bytes[angle + 4] | 0x20 == UInt8(ascii: "a")
            && bytes[angle + 5] | 0x20 == UInt8(ascii: "d"))
      {
        return true
      }
    }
    return false
  }

  /// The lower-cased name of the tag at `angle` and whether it closes (`</td>`).
  private static func tagName(at angle: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (
    String, Bool
  ) {
    var index = angle + 1
    let isClosing = index < bytes.count && bytes[index] == UInt8(ascii: "/")
    if isClosing { index += 1 }
    let start = index
    while index < bytes.count, index - start < 6, ASCIIByte.isLetter(bytes[index]) { index += 1 }
    guard index < bytes.count, !ASCIIByte.isAlphanumeric(bytes[index]) else { return ("", false) }
    return (
      String(decoding: bytes[start..<index].map(ASCIIByte.lowercased), as: UTF8.self), isClosing
    )
  }

  private static func trimmed(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>)
    -> Range<Int>
  {
    var lower = range.lowerBound
    var upper = range.upperBound
    while lower < upper, TextAssignments.isBlank(bytes[lower]) { lower += 1 }
    while upper > lower, TextAssignments.isBlank(bytes[upper - 1]) { upper -= 1 }
    return lower..<upper
  }

  /// A cell's text: its content without the tags inside it (`<b>Password</b>`).
  private static func text(of range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> String {
    var kept: [UInt8] = []
    var inTag = false
    for index in range {
      let byte = bytes[index]
      if byte == UInt8(ascii: "<") {
        inTag = true
      } else if byte == UInt8(ascii: ">") {
        inTag = false
      } else if !inTag {
        kept.append(byte)
      }
    }
    return String(decoding: kept, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}

extension CompiledRedaction {
  /// The byte ranges of the cells under a credential's header cell in an HTML table, each with
  /// its placeholder, percent-encoded as an element's content is (it needs no escaping).
  func htmlTableReplacements(in text: String, echoes: inout RedactionEchoes) -> [(
    Range<Int>, String
  )] {
    guard !memberNames.isEmpty else { return [] }
    var text = text
    let cells = text.withUTF8 { bytes in
      HTMLTableColumns.cells(in: bytes) { placeholderName(forMember: $0) }
    }
    guard !cells.isEmpty else { return [] }
    var replacements: [(Range<Int>, String)] = []
    let utf8 = Array(text.utf8)
    // A cell's text leaves tags out, and a placeholder read back decoded (`<redacted:…>`, from
    // a one-line page read as percent-encoded text) is one: its content as written says.
    for cell in cells
    where !RedactionPlaceholder.isPresent(in: cell.text)
      && !RedactionPlaceholder.isPresent(in: String(decoding: utf8[cell.range], as: UTF8.self))
    {
      echoes.remember(memberValue: cell.text, as: cell.key)
      replacements.append((cell.range, RedactionPlaceholder.percentEncoded(cell.key)))
    }
    return replacements
  }
}
