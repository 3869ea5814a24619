/// The cells of a table body (`text/csv`, `text/tab-separated-values`) under a header that
/// names a credential: an export of users or API keys has a header row (`id,email,api_key`) and
/// the secrets in its rows, where no name stands beside them.
///
/// Read as RFC 4180 reads it: a cell in double quotes may hold the delimiter, a line break and a
/// doubled quote; a row ends at a line feed, a carriage return before it left out.
enum CSVColumns {
  /// One cell under a selected column: its bytes (inside its quotes, when quoted), its text
  /// (a doubled quote read as one) and what its column's header was mapped to.
  struct Cell {
    var range: Range<Int>
    var text: String
    var key: String
  }

  /// A table's header row, read cell by cell: each column whose header the rules map to a key
  /// (a placeholder's name). CSV and HTML tables (``HTMLTableColumns``) read theirs alike.
  struct HeaderRow {
    private var keys: [Int: String] = [:]

    /// Reads the header cell of `column`, white space around its text left out.
    mutating func name(column: Int, _ text: String, key: (String) -> String?) {
      keys[column] = key(text.trimmingCharacters(in: .whitespaces))
    }

    /// Whether no column is named: no row can hold a cell to replace.
    var selectsNothing: Bool { keys.isEmpty }

    func key(ofColumn column: Int) -> String? { keys[column] }
  }

  /// The delimiter of a table body of type `mimeType`, or `nil` for any other type.
  static func delimiter(mimeType: String) -> UInt8? {
    let type = mimeType.lowercased().split(separator: ";").first?.trimmingCharacters(
      in: .whitespaces)
    switch type {
    case "text/csv", "application/csv", "text/comma-separated-values": return UInt8(ascii: ",")
    case "text/tab-separated-values": return 0x09
    default: return nil
    }
  }

  /// How many rows that name no column may stand before the header row.
  static let maximumRowsBeforeHeader = 5

  /// The non-empty cells of the rows after the header, in order, in the columns whose header
  /// `key` maps to a key (a placeholder's name). The header is the first row that names a
  /// column, within the first ``maximumRowsBeforeHeader`` rows and one.
  static func cells(
    in bytes: UnsafeBufferPointer<UInt8>, delimiter: UInt8, key: (String) -> String?
  ) -> [Cell] {
    var header = HeaderRow()
    var cells: [Cell] = []
    var column = 0
    var isHeader = true
    var rowsBeforeHeader = 0
    var index = 0
    while index <= bytes.count {
      let field = self.field(at: index, in: bytes, delimiter: delimiter)
      func text() -> String {
        let raw = String(decoding: UnsafeBufferPointer(rebasing: bytes[field.value]), as: UTF8.self)
        return field.isQuoted ? raw.replacingOccurrences(of: "\"\"", with: "\"") : raw
      }
      if isHeader {
        header.name(column: column, text(), key: key)
      } else if let key = header.key(ofColumn: column), !field.value.isEmpty {
        cells.append(Cell(range: field.value, text: text(), key: key))
      }
      index = field.next
      if field.endsRow {
        // A row that names nothing may stand before the header: a comment (`# exported …`),
        // Excel's `sep=,`, a title, a blank line. After the first few, no row can hold a cell
        // to replace.
        if isHeader, header.selectsNothing {
          guard rowsBeforeHeader < maximumRowsBeforeHeader else { return [] }
          rowsBeforeHeader += 1
          header = HeaderRow()
          column = 0
          continue
        }
        isHeader = false
        column = 0
      } else {
        column += 1
      }
    }
    return cells
  }

  /// The field that starts at `start`: its value, whether it was quoted, where the next one
  /// starts, and whether a row ends after it (a line feed or the text's end).
  private static func field(
    at start: Int, in bytes: UnsafeBufferPointer<UInt8>, delimiter: UInt8
  ) -> (value: Range<Int>, isQuoted: Bool, next: Int, endsRow: Bool) {
    let count = bytes.count
    var index = start
    var value = start..<start
    var isQuoted = false
    if index < count, bytes[index] == UInt8(ascii: "\"") {
      isQuoted = true
      index += 1
      let opened = index
      while index < count {
        if bytes[index] == UInt8(ascii: "\"") {
          if index + 1 < count, bytes[index + 1] == UInt8(ascii: "\"") {
            index += 2
            continue
          }
          break
        }
        index += 1
      }
      value = opened..<min(index, count)
      index = min(index + 1, count)
    }
    // An unquoted value, or text after a closing quote, which readers take as the cell's too
    // (`"Ab1"Cd2` is `Ab1Cd2`): then the cell is the whole field, quotes and all.
    let bare = index
    while index < count, bytes[index] != delimiter, bytes[index] != 0x0A { index += 1 }
    var end = index
    if end > bare, bytes[end - 1] == 0x0D { end -= 1 }
    if !isQuoted || end > bare {
      value = (isQuoted ? start : bare)..<end
      isQuoted = false
    }
    guard index < count else { return (value, isQuoted, count + 1, true) }
    return (value, isQuoted, index + 1, bytes[index] == 0x0A)
  }
}

extension CompiledRedaction {
  /// The byte ranges of the cells under a credential's header in a table body, each with its
  /// placeholder.
  func tableReplacements(in text: String, mimeType: String, echoes: inout RedactionEchoes)
    -> [(Range<Int>, String)]
  {
    guard !memberNames.isEmpty, let delimiter = CSVColumns.delimiter(mimeType: mimeType) else {
      return []
    }
    var text = text
    let cells = text.withUTF8 { bytes in
      CSVColumns.cells(in: bytes, delimiter: delimiter) { placeholderName(forMember: $0) }
    }
    var replacements: [(Range<Int>, String)] = []
    for cell in cells where !RedactionPlaceholder.isPresent(in: cell.text) {
      echoes.remember(memberValue: cell.text, as: cell.key)
      replacements.append((cell.range, RedactionPlaceholder.text(cell.key)))
    }
    return replacements
  }
}
