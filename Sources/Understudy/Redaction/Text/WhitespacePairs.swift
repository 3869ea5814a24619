/// Names and values separated by white space alone, which no `=` or `:` marks: a `.netrc`
/// line (`machine api.test login ada password …`, a name and a value after each other) and a
/// Java `.properties` line (`id_token …`, which the format lets a space separate).
enum WhitespacePairs {
  /// Each name and value of the `.netrc` entries in `bytes`: a line whose first word is
  /// `machine` or `default`, and the words after it in twos, on that line and on the lines
  /// after it that start with a word only `.netrc` starts one with (`login`, `password`,
  /// `account`), as a `.netrc` written over lines has its entry. Found from each
  /// `machine`/`default` by `memmem`.
  static func netrc(in bytes: UnsafeBufferPointer<UInt8>) -> [(name: Range<Int>, value: Range<Int>)]
  {
    var found: [(name: Range<Int>, value: Range<Int>)] = []
    let raw = UnsafeRawBufferPointer(bytes)
    var starts = ByteSearch.ranges(of: Array("machine ".utf8), in: raw).map(\.lowerBound)
    // `default` may end its line, its words on the lines under it.
    starts += ByteSearch.ranges(of: Array("default".utf8), in: raw).map(\.lowerBound).filter {
      $0 + 7 < bytes.count && (isSpace(bytes[$0 + 7]) || ASCIIByte.isLineBreak(bytes[$0 + 7]))
    }
    for start in starts.sorted()
    where start == 0 || ASCIIByte.isLineBreak(bytes[start - 1])
      || isSpace(bytes[start - 1]) && lineIsBlank(bytes, before: start)
    {
      var words = self.words(in: bytes, from: start)
      // `machine NAME` opens the line; `default` takes no value.
      words.removeFirst(bytes[start] == UInt8(ascii: "m") ? min(2, words.count) : 1)
      var index = 0
      while index + 1 < words.count {
        found.append((words[index], words[index + 1]))
        index += 2
      }
    }
    return found
  }

  /// Each name and value of a `.properties` body's lines whose name a space or tab alone
  /// separates from the value (`key value`; `key=value` and `key: value` are read as
  /// assignments and pairs). The value runs to the line's end.
  static func properties(in bytes: UnsafeBufferPointer<UInt8>) -> [Pair] {
    eachLine(in: bytes) { lineStart, lineEnd in
      var nameStart = lineStart
      while nameStart < lineEnd, isSpace(bytes[nameStart]) { nameStart += 1 }
      var nameEnd = nameStart
      while nameEnd < lineEnd, nameEnd - nameStart <= TextAssignments.maximumNameLength,
        !isSpace(bytes[nameEnd]), !isSeparator(bytes[nameEnd])
      {
        nameEnd += 1
      }
      var valueStart = nameEnd
      while valueStart < lineEnd, isSpace(bytes[valueStart]) { valueStart += 1 }
      var valueEnd = lineEnd
      while valueEnd > valueStart, isSpace(bytes[valueEnd - 1]) || bytes[valueEnd - 1] == 0x0D {
        valueEnd -= 1
      }
      guard nameEnd > nameStart, valueStart > nameEnd, valueStart < valueEnd,
        bytes[nameStart] != UInt8(ascii: "#"), bytes[nameStart] != UInt8(ascii: "!"),
        !isSeparator(bytes[valueStart])
      else { return [] }
      return [(nameStart..<nameEnd, valueStart..<valueEnd)]
    }
  }

  /// The ``properties(in:)`` lines any text may hold: a value of one word, as long as an echo
  /// searched for (`requirepass …` in redis.conf, `password …` on a line of its own). A line
  /// of prose is longer, and a table's `password  3` counts. Cassettes and logs read these
  /// alike, whatever the body's type.
  static func twoWordLines(in bytes: UnsafeBufferPointer<UInt8>) -> [Pair] {
    guard
      bytes.index(of: 0x20, in: 0..<bytes.count) != nil
        || bytes.index(of: 0x09, in: 0..<bytes.count) != nil
    else { return [] }
    return properties(in: bytes).filter { pair in
      pair.value.count >= Redaction.minimumEchoLength
        && !pair.value.contains { bytes[$0] == 0x20 || bytes[$0] == 0x09 }
        // A name (Rails' `user[password]` too), not a CSV row's cells or a sentence's
        // punctuation (`1,token,"password,`).
        && TextAssignments.isLetterOrUnderscore(bytes[pair.name.lowerBound])
        && pair.name.allSatisfy {
          TextAssignments.isNameByte(bytes[$0]) || bytes[$0] == UInt8(ascii: "[")
            || bytes[$0] == UInt8(ascii: "]")
        }
    }
  }

  typealias Pair = (name: Range<Int>, value: Range<Int>)

  /// What `read` finds on each line of `bytes` (given its start and its end before `\n`), in
  /// order. Lines are found by `memchr`.
  private static func eachLine(
    in bytes: UnsafeBufferPointer<UInt8>, _ read: (Int, Int) -> [Pair]
  ) -> [Pair] {
    var found: [Pair] = []
    var lineStart = 0
    while lineStart < bytes.count {
      let lineEnd = bytes.index(of: 0x0A, in: lineStart..<bytes.count) ?? bytes.count
      found += read(lineStart, lineEnd)
      lineStart = lineEnd + 1
    }
    return found
  }

  /// The last two words of each line when the first of them is a compound name (words joined
  /// by `_`, `-` or `.`, or camelCase), which prose does not write: a command or a directive
  /// that sets a name to a value with no `=` (Dockerfile's `ENV API_TOKEN …`, `aws configure
  /// set aws_secret_access_key …`, `heroku config:set` output). Whether the name is a
  /// credential's is the caller's question. Lines are found by `memchr`, and each is read
  /// backwards from its end over two words at most.
  static func lastWords(in bytes: UnsafeBufferPointer<UInt8>) -> [Pair] {
    eachLine(in: bytes) { lineStart, lineEnd in
      var valueEnd = lineEnd
      while valueEnd > lineStart, isSpace(bytes[valueEnd - 1]) || bytes[valueEnd - 1] == 0x0D {
        valueEnd -= 1
      }
      var valueStart = valueEnd
      while valueStart > lineStart, valueEnd - valueStart <= 512, !isSpace(bytes[valueStart - 1]) {
        valueStart -= 1
      }
      var nameEnd = valueStart
      while nameEnd > lineStart, isSpace(bytes[nameEnd - 1]) { nameEnd -= 1 }
      guard nameEnd < valueStart, valueStart < valueEnd else { return [] }
      var nameStart = nameEnd
      while nameStart > lineStart, nameEnd - nameStart <= TextAssignments.maximumNameLength,
        isNameByte(bytes[nameStart - 1])
      {
        nameStart -= 1
      }
      // A name starts with a letter or `_` (`--api-key -` is an option, read by the command
      // line rules), and a value holds a letter or a digit (a lone `"` or `-` is syntax).
      guard nameStart < nameEnd, nameStart == lineStart || isSpace(bytes[nameStart - 1]),
        ASCIIByte.isLetter(bytes[nameStart]) || bytes[nameStart] == UInt8(ascii: "_"),
        isCompound(UnsafeBufferPointer(rebasing: bytes[nameStart..<nameEnd])),
        bytes[valueStart..<valueEnd].contains(where: {
          ASCIIByte.isLetter($0) || ASCIIByte.isDigit($0)
        })
      else { return [] }
      return [(nameStart..<nameEnd, valueStart..<valueEnd)]
    }
  }

  /// The cell after a credential's name in a Markdown table row (`| token | … |`): the
  /// caller judges each cell as a name, and the one after it is its value.
  static func tableRows(in bytes: UnsafeBufferPointer<UInt8>) -> [Pair] {
    eachLine(in: bytes) { lineStart, lineEnd in
      var first = lineStart
      while first < lineEnd, isSpace(bytes[first]) { first += 1 }
      guard first < lineEnd, bytes[first] == UInt8(ascii: "|") else { return [] }
      var cells: [Range<Int>] = []
      var cellStart = first + 1
      while let bar = bytes.index(of: UInt8(ascii: "|"), in: cellStart..<lineEnd) {
        var start = cellStart
        var end = bar
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        cells.append(start..<end)
        cellStart = bar + 1
      }
      return zip(cells, cells.dropFirst()).filter { !$0.0.isEmpty && !$0.1.isEmpty }
    }
  }

  /// Whether `name` is several words joined as code joins them.
  private static func isCompound(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
    var previousLower = false
    for byte in name {
      if byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") {
        return true
      }
      if previousLower, ASCIIByte.isUpper(byte) { return true }
      previousLower = ASCIIByte.isLower(byte)
    }
    return false
  }

  private static func isNameByte(_ byte: UInt8) -> Bool {
    ASCIIByte.isLetter(byte) || ASCIIByte.isDigit(byte) || byte == UInt8(ascii: "_")
      || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
  }

  /// The words of the line from `start`, and of each line after it that goes on with the
  /// entry (see ``continuesEntry(_:at:)``), as byte ranges.
  private static func words(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> [Range<Int>] {
    var words: [Range<Int>] = []
    var index = start
    while index < bytes.count {
      while index < bytes.count, !ASCIIByte.isLineBreak(bytes[index]) {
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
        let wordStart = index
        while index < bytes.count, !isSpace(bytes[index]), !ASCIIByte.isLineBreak(bytes[index]) {
          index += 1
        }
        if index > wordStart { words.append(wordStart..<index) }
      }
      // An entry's words are in twos: a line that left a name without its value ends it too.
      // (`machine NAME` opens one with two, `default` with one.)
      guard words.count % 2 == (bytes[start] == UInt8(ascii: "m") ? 0 : 1) else { break }
      var next = index
      if next < bytes.count, bytes[next] == 0x0D { next += 1 }
      if next < bytes.count, bytes[next] == 0x0A { next += 1 }
      let lineStart = next
      while next < bytes.count, isSpace(bytes[next]) { next += 1 }
      guard next > index, continuesEntry(bytes, at: next, indented: next > lineStart)
      else { break }
      index = next
    }
    return words
  }

  /// The words a `.netrc` entry's line may start with after its `machine` line.
  private static let entryWords = ["login", "password", "account"].map { Array($0.utf8) }

  /// Whether the line whose first word starts at `start` goes on with a `.netrc` entry: that
  /// word is `login`, `password` or `account`, followed by a space or tab and a value; or the
  /// line is indented under the entry and holds words in twos, as an entry's lines are.
  private static func continuesEntry(
    _ bytes: UnsafeBufferPointer<UInt8>, at start: Int, indented: Bool
  ) -> Bool {
    let isEntryWord = entryWords.contains { word in
      let end = start + word.count
      guard end < bytes.count, isSpace(bytes[end]) else { return false }
      return zip(bytes[start..<end], word).allSatisfy { $0 == $1 }
    }
    guard !isEntryWord else { return true }
    guard indented, start < bytes.count, !ASCIIByte.isLineBreak(bytes[start]) else { return false }
    var count = 0
    var index = start
    while index < bytes.count, !ASCIIByte.isLineBreak(bytes[index]) {
      while index < bytes.count, isSpace(bytes[index]) { index += 1 }
      let wordStart = index
      while index < bytes.count, !isSpace(bytes[index]), !ASCIIByte.isLineBreak(bytes[index]) {
        index += 1
      }
      if index > wordStart { count += 1 }
    }
    return count > 0 && count % 2 == 0
  }

  private static func lineIsBlank(_ bytes: UnsafeBufferPointer<UInt8>, before offset: Int) -> Bool {
    var index = offset
    while index > 0, isSpace(bytes[index - 1]) { index -= 1 }
    return index == 0 || ASCIIByte.isLineBreak(bytes[index - 1])
  }

  private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
  private static func isSeparator(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "=") || byte == UInt8(ascii: ":")
  }
}

extension CompiledRedaction {
  /// The byte ranges of credential values in `.netrc` lines, in a `.properties` body's `key
  /// value` lines (in any other text, those of one long word: ``WhitespacePairs/twoWordLines(in:)``,
  /// as logs read them), each with its placeholder: the names judged as a JSON member's.
  func whitespacePairReplacements(
    in text: String, mimeType: String, echoes: inout RedactionEchoes
  ) -> [(Range<Int>, String)] {
    guard !memberNames.isEmpty else { return [] }
    let isProperties = mimeType.lowercased().contains("properties")
    let hasNetrc = text.contains(bytes: "machine ") || text.contains(bytes: "default")
    let hasTable = text.contains(bytes: "| ")
    var text = text
    return text.withUTF8 { bytes in
      var pairs = WhitespacePairs.lastWords(in: bytes)
      if hasNetrc { pairs += WhitespacePairs.netrc(in: bytes) }
      pairs +=
        isProperties
        ? WhitespacePairs.properties(in: bytes) : WhitespacePairs.twoWordLines(in: bytes)
      if hasTable { pairs += WhitespacePairs.tableRows(in: bytes) }
      pairs.sort { $0.value.lowerBound < $1.value.lowerBound }
      var replacements: [(Range<Int>, String)] = []
      var covered = 0
      for pair in pairs where pair.value.lowerBound >= covered {
        let name = String(decoding: bytes[pair.name], as: UTF8.self)
        guard let key = placeholderName(forMember: name) else { continue }
        let value = String(decoding: bytes[pair.value], as: UTF8.self)
        guard !RedactionPlaceholder.isPresent(in: value) else { continue }
        echoes.remember(memberValue: value, as: key)
        replacements.append((pair.value, RedactionPlaceholder.text(key)))
        covered = pair.value.upperBound
      }
      return replacements
    }
  }
}
