/// Passwords SQL gives in its own words rather than after a name: `IDENTIFIED BY '…'` (MySQL,
/// MariaDB, Oracle: `CREATE USER`, `ALTER USER`, `GRANT`), `IDENTIFIED WITH plugin BY '…'`,
/// and `SET PASSWORD [FOR user] = '…'` (or `= PASSWORD('…')`). The other spellings (`PASSWORD
/// '…'`, `WITH PASSWORD '…'`, `ENCRYPTED PASSWORD '…'`, `PASSWORD = '…'` in PostgreSQL's and
/// SQL Server's `CREATE`/`ALTER USER`, `ROLE` and `LOGIN`) put the word `PASSWORD` right before
/// the value, which the assignments' reader takes as a name (``TextAssignments``).
///
/// Found from each `IDENTIFIED` and each `SET PASSWORD` by `memmem`, in upper or lower case;
/// a statement is read only from there. `IDENTIFIED BY` counts only in a statement that
/// creates, alters or grants, and a bare value (Oracle's `IDENTIFIED BY tiger`) only where the
/// statement ends after it or an Oracle clause follows, so prose that says users are
/// "identified by their e-mail" is kept; `SET PASSWORD`'s value must end its statement.
enum SQLPasswords {
  /// `IDENTIFIED` and `PASSWORD` without their first letter, in either case, as searched for.
  private static let identified = ["DENTIFIED", "dentified"].map { Array($0.utf8) }
  private static let password = ["ASSWORD", "assword"].map { Array($0.utf8) }

  /// The byte ranges of the passwords in `bytes`.
  static func ranges(in bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
    let raw = UnsafeRawBufferPointer(bytes)
    var found: [Range<Int>] = []
    for anchor in identified {
      for hit in ByteSearch.rangesIfAny(of: anchor, in: raw) {
        guard hit.lowerBound >= 1, ASCIIByte.lowercased(bytes[hit.lowerBound - 1]) == 0x69,  // i
          isBoundary(before: hit.lowerBound - 1, in: bytes),
          isBoundary(at: hit.upperBound, in: bytes),
          let value = identifiedValue(
            after: hit.upperBound, statementFrom: hit.lowerBound - 1,
            in: bytes)
        else { continue }
        found.append(value)
      }
    }
    for anchor in password {
      for hit in ByteSearch.rangesIfAny(of: anchor, in: raw) {
        let word = hit.lowerBound - 1
        guard word >= 4, ASCIIByte.lowercased(bytes[word]) == UInt8(ascii: "p"),
          isBoundary(at: hit.upperBound, in: bytes),
          let set = keyword(endingBefore: word, in: bytes), set.lowercased() == "set",
          let value = setPasswordValue(after: hit.upperBound, in: bytes)
        else { continue }
        found.append(value)
      }
    }
    return found
  }

  /// The value after `IDENTIFIED` (ending at `from`): `BY [PASSWORD] value`, or `WITH plugin
  /// BY|AS value`.
  private static func identifiedValue(
    after from: Int, statementFrom start: Int, in bytes: UnsafeBufferPointer<UInt8>
  ) -> Range<Int>? {
    guard var (word, index) = nextWord(from: from, in: bytes) else { return nil }
    if word == "with" {
      guard let plugin = nextWord(from: index, in: bytes),
        let by = nextWord(from: plugin.end, in: bytes), by.word == "by" || by.word == "as"
      else { return nil }
      (word, index) = by
    }
    guard word == "by" else { return nil }
    if let next = nextWord(from: index, in: bytes), next.word == "password" {
      index = next.end
    }
    return value(at: index, in: bytes) {
      statementCreatesOrAlters(before: start, in: bytes)
    }
  }

  /// The value after `SET PASSWORD`: past `FOR user@host` to `=` on the same line, then a
  /// quoted string, or one inside `PASSWORD(…)`.
  private static func setPasswordValue(after from: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> Range<Int>?
  {
    let limit = min(bytes.count, from + 256)
    guard let equals = bytes.index(of: UInt8(ascii: "="), in: from..<limit),
      bytes.index(of: 0x0A, in: from..<equals) == nil,
      bytes.index(of: UInt8(ascii: ";"), in: from..<equals) == nil
    else { return nil }
    var index = equals + 1
    while index < limit, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
    // `PASSWORD('…')`, `OLD_PASSWORD('…')`.
    if index < limit, ASCIIByte.isLetter(bytes[index]),
      let open = bytes.index(of: UInt8(ascii: "("), in: index..<min(limit, index + 16))
    {
      index = open + 1
    }
    guard let quoted = quoted(at: index, in: bytes) else { return nil }
    // The statement ends after it (`;`, the line's or the string's end), so a sentence that
    // says "set password = 'strong' in the form" is kept.
    var after = quoted.upperBound + 1
    if after < bytes.count, bytes[after - 1] == UInt8(ascii: "\\") { after += 1 }
    if after < bytes.count, bytes[after] == UInt8(ascii: ")") { after += 1 }
    while after < bytes.count, bytes[after] == 0x20 || bytes[after] == 0x09 { after += 1 }
    guard
      after >= bytes.count || bytes[after] == UInt8(ascii: ";") || bytes[after] == 0x0A
        || bytes[after] == 0x0D || bytes[after] == UInt8(ascii: "\"")
        || bytes[after] == UInt8(ascii: "\\")
    else { return nil }
    return quoted
  }

  /// A value at `index` (after blanks), when `statementAllows`: a quoted string (`'…'` with
  /// `''` inside, `"…"`, or `\"…\"` inside a JSON string), or a bare word that ends its
  /// statement.
  private static func value(
    at index: Int, in bytes: UnsafeBufferPointer<UInt8>, statementAllows: () -> Bool
  ) -> Range<Int>? {
    var index = index
    while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
    if let quoted = quoted(at: index, in: bytes) { return statementAllows() ? quoted : nil }
    guard index < bytes.count else { return nil }
    let first = bytes[index]
    // A bind variable (`:pw`, `?`, `@pw`, `$1`) is no password.
    guard ASCIIByte.isAlphanumeric(first) || first == UInt8(ascii: "_") else { return nil }
    var end = index
    while end < bytes.count, end - index < 128, !isBlank(bytes[end]),
      bytes[end] != UInt8(ascii: ";"), bytes[end] != UInt8(ascii: "\""),
      bytes[end] != UInt8(ascii: "'"), bytes[end] != UInt8(ascii: ")"),
      bytes[end] != UInt8(ascii: ","), bytes[end] != UInt8(ascii: "\\")
    {
      end += 1
    }
    // The statement ends after it, or an Oracle clause follows.
    var after = end
    while after < bytes.count, bytes[after] == 0x20 || bytes[after] == 0x09 { after += 1 }
    let ends =
      after == bytes.count || bytes[after] == UInt8(ascii: ";") || bytes[after] == 0x0A
      || bytes[after] == 0x0D || bytes[after] == UInt8(ascii: "\"")
      || bytes[after] == UInt8(ascii: "\\")
      || nextWord(from: end, in: bytes).map { oracleClauses.contains($0.word) } == true
    guard ends, statementAllows() else { return nil }
    return index..<end
  }

  /// The words that may follow an Oracle password in `CREATE USER … IDENTIFIED BY …`.
  private static let oracleClauses: Set<String> = [
    "default", "temporary", "quota", "profile", "password", "account", "replace", "container",
  ]

  /// A string in quotes at `index`, inside them.
  private static func quoted(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
    guard index < bytes.count else { return nil }
    let escaped = bytes[index] == UInt8(ascii: "\\") && index + 1 < bytes.count
    let opening = escaped ? index + 1 : index
    let quote = bytes[opening]
    guard quote == UInt8(ascii: "'") || quote == UInt8(ascii: "\"") else { return nil }
    var close = opening + 1
    let limit = min(bytes.count, opening + 256)
    while close < limit, bytes[close] != 0x0A {
      if bytes[close] == quote {
        // `''` inside a SQL string is one quote.
        if !escaped, close + 1 < limit, bytes[close + 1] == quote {
          close += 2
          continue
        }
        break
      }
      close += 1
    }
    guard close < limit, bytes[close] == quote else { return nil }
    let end = escaped ? close - 1 : close
    guard end > opening + 1 else { return nil }
    return (opening + 1)..<end
  }

  /// The next word after blanks from `index`, lower-cased, and where it ends.
  private static func nextWord(from index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (
    word: String, end: Int
  )? {
    var start = index
    while start < bytes.count, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
    var end = start
    while end < bytes.count, end - start < 64,
      ASCIIByte.isAlphanumeric(bytes[end]) || bytes[end] == UInt8(ascii: "_")
    {
      end += 1
    }
    guard end > start else { return nil }
    return (
      String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        .lowercased(), end
    )
  }

  /// The word of letters right before `index` (blanks between), when it starts a word.
  private static func keyword(endingBefore index: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> String?
  {
    var end = index
    while end > 0, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
    guard end < index else { return nil }
    var start = end
    while start > 0, end - start < 8, ASCIIByte.isLetter(bytes[start - 1]) { start -= 1 }
    guard start < end, isBoundary(before: start, in: bytes) else { return nil }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
  }

  /// Whether the statement holding `index` (back to a `;` or a line's start) says `CREATE`,
  /// `ALTER` or `GRANT` before it.
  private static func statementCreatesOrAlters(
    before index: Int, in bytes: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    var start = index
    while start > 0, index - start < 512, bytes[start - 1] != UInt8(ascii: ";"),
      bytes[start - 1] != 0x0A
    {
      start -= 1
    }
    let statement = String(
      decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self
    ).lowercased()
    let words = statement.split { !$0.isLetter }
    return words.contains { $0 == "create" || $0 == "alter" || $0 == "grant" }
  }

  private static func isBlank(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  /// Whether no letter, digit or `_` stands right before `index`.
  private static func isBoundary(before index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    index == 0 || !(ASCIIByte.isAlphanumeric(bytes[index - 1]) || bytes[index - 1] == 0x5F)
  }

  /// Whether no letter, digit or `_` stands at `index`.
  private static func isBoundary(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    index >= bytes.count || !(ASCIIByte.isAlphanumeric(bytes[index]) || bytes[index] == 0x5F)
  }
}
