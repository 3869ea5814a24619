import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A line that names a credential holds its value, whatever the syntax around the two: a
/// random-looking run of letters and digits with a credential's name beside it on its line, on
/// either side (`[request setValue:@"…" forHTTPHeaderField:@"X-Api-Key"]`, `INSERT INTO users
/// (name, password) VALUES ('ada', '…')`, `security add-generic-password … -w …`, `gh auth
/// login --with-token <<< …`), or on a line of its own under a line that opens a multi-line
/// string or continues a statement (a PowerShell here-string, a PHP or shell heredoc). This is
/// gitleaks' generic-api-key rule, with the names judged as every other rule judges them. With no
/// name beside it, a value a command line passes where programs take passwords is one too
/// (``CommandArguments``).
///
/// A value is a run of at least ``minimumLength`` letters, digits and `-_+/=.` that holds a
/// letter and a digit and reads as random: its characters' Shannon entropy is at least
/// ``minimumEntropy`` bits, and it switches between lower case, upper case and digits often
/// (words, paths, dates, version numbers and identifiers switch seldom: `App123.java`,
/// `1.2.3-beta.4`, `deploy_key_2024`). A name is a word of name characters (`X-Api-Key`,
/// `DB_PASSWORD`, `_authToken`) within ``reach`` bytes of the value, on its line.
///
/// Values are found from their digits, by `memchr`: prose has few, and the bytes between them
/// are never visited in Swift (a loop over every byte runs at about 15 MB/s in the debug build).
/// Names are looked for only around a value that reads as random.
enum CredentialLines {
  /// A value and the name beside it, as byte offsets.
  struct Found {
    var value: Range<Int>
    var name: Name
  }

  /// What tells a value is a credential's.
  enum Name {
    /// A credential's name beside it, as byte offsets.
    case word(Range<Int>)
    /// A command line that passes it where programs take passwords (``CommandArguments``),
    /// and the placeholder name that gives.
    case commandArgument(String)
  }

  static let minimumLength = 12
  /// Bits per character: a random run of 12 letters and digits has about 3.4; `2024-12-06T10`
  /// has 2.8.
  static let minimumEntropy = 3.0
  /// How far from a value, in bytes on its line, a name may stand.
  static let reach = 48

  /// The random-looking values in `bytes` with a name `isCredential` accepts beside them.
  static func values(
    in bytes: UnsafeBufferPointer<UInt8>, isCredential: (Substring) -> Bool
  ) -> [Found] {
    var found: [Found] = []
    let count = bytes.count
    var nextDigit = [Int](repeating: -1, count: 10)
    var line = 0..<0
    var index = 0
    while index < count {
      var hit = count
      for digit in 0..<10 {
        if nextDigit[digit] < index {
          nextDigit[digit] = bytes.index(of: 0x30 + UInt8(digit), in: index..<count) ?? count
        }
        hit = min(hit, nextDigit[digit])
      }
      guard hit < count else { break }
      var start = hit
      while start > 0, isValueByte(bytes[start - 1]) { start -= 1 }
      var end = hit + 1
      while end < count, isValueByte(bytes[end]) { end += 1 }
      index = end
      guard end - start >= minimumLength, !followsPlaceholder(start, in: bytes) else { continue }
      for run in pieces(of: start..<end, in: bytes) {
        // A value glued to a short option (`-pVALUE`) is the value without the option.
        let glued = CommandArguments.gluedValue(in: run, in: bytes)
        let piece = glued ?? run
        guard glued != nil || looksRandom(piece, in: bytes) else { continue }
        // A line that is a JSON document names its values by its members, which the JSON
        // rules read: a credential's name there is one member's (`{"name":"password"}`).
        if piece.lowerBound >= line.upperBound {
          line = self.line(around: piece.lowerBound, after: line.upperBound, in: bytes)
        }
        guard !isJSON(line, in: bytes) else { continue }
        if let name = name(near: piece, in: bytes, isCredential: isCredential) {
          found.append(Found(value: piece, name: .word(name)))
        } else if glued != nil {
          if CommandArguments.isCommand(line, holding: run, in: bytes) {
            found.append(Found(value: piece, name: .commandArgument("password")))
          }
        } else if let name = CommandArguments.name(of: piece, on: line, in: bytes) {
          found.append(Found(value: piece, name: .commandArgument(name)))
        }
      }
    }
    return found
  }

  /// The line that holds `offset`, found by `memchr` from `from`, a line's start at or before it.
  private static func line(
    around offset: Int, after from: Int, in bytes: UnsafeBufferPointer<UInt8>
  ) -> Range<Int> {
    var start = from
    while let lineBreak = bytes.index(of: 0x0A, in: start..<bytes.count) {
      if lineBreak >= offset { return start..<lineBreak }
      start = lineBreak + 1
    }
    return start..<bytes.count
  }

  /// Whether `line` starts with `{` or `[` and ends with `}` or `]`, blanks aside.
  private static func isJSON(_ line: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = line.first(where: { !TextAssignments.isBlank(bytes[$0]) }),
      let last = line.last(where: { !TextAssignments.isBlank(bytes[$0]) })
    else { return false }
    return (bytes[first] == UInt8(ascii: "{") || bytes[first] == UInt8(ascii: "["))
      && (bytes[last] == UInt8(ascii: "}") || bytes[last] == UInt8(ascii: "]"))
  }

  /// Whether the same quote stands on either side of `range`.
  static func isQuoted(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard range.lowerBound > 0, range.upperBound < bytes.count else { return false }
    let before = bytes[range.lowerBound - 1]
    return before == bytes[range.upperBound]
      && (before == UInt8(ascii: "\"") || before == UInt8(ascii: "'")
        || before == UInt8(ascii: "`"))
  }

  /// A letter, a digit or one of `-_+/=.`: what a token, a key or base64 is written with.
  static func isValueByte(_ byte: UInt8) -> Bool {
    ASCIIByte.isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
      || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=")
      || byte == UInt8(ascii: ".")
  }

  /// Whether the run at `start` is a placeholder's name (`<redacted:…>`, `%3Credacted:…%3E`).
  private static func followsPlaceholder(_ start: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> Bool
  {
    let marker = "redacted:".utf8
    guard start >= marker.count else { return false }
    return zip(bytes[(start - marker.count)..<start], marker).allSatisfy {
      ASCIIByte.lowercased($0) == $1
    }
  }

  /// The values a run may hold: split at each `=` inside it (`password=…` is a name and a
  /// value; base64's padding ends a run), without the `.`, `-` and `_` at their ends (a
  /// sentence's full stop). A piece that starts with `/` or `~` is a path.
  private static func pieces(of run: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>)
    -> [Range<Int>]
  {
    var pieces: [Range<Int>] = []
    var start = run.lowerBound
    var index = run.lowerBound
    while index <= run.upperBound {
      let splits =
        index == run.upperBound
        || bytes[index] == UInt8(ascii: "=") && index + 1 < run.upperBound
          && bytes[index + 1] != UInt8(ascii: "=")
      if splits {
        var lower = start
        var upper = index
        while lower < upper, isEdge(bytes[lower]) { lower += 1 }
        while upper > lower, isEdge(bytes[upper - 1]) { upper -= 1 }
        if upper - lower >= minimumLength, bytes[lower] != UInt8(ascii: "/") {
          pieces.append(lower..<upper)
        }
        start = index + 1
      }
      index += 1
    }
    return pieces
  }

  private static func isEdge(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
  }

  /// Whether the bytes at `range` read as random (see the type's description).
  static func looksRandom(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var counts = [Int](repeating: 0, count: 128)
    var letters = 0
    var digits = 0
    var switches = 0
    var previous = 0
    for index in range {
      let byte = bytes[index]
      counts[Int(byte & 0x7F)] += 1
      let kind: Int
      if ASCIIByte.isDigit(byte) {
        digits += 1
        kind = 1
      } else if ASCIIByte.isUpper(byte) {
        letters += 1
        kind = 2
      } else if ASCIIByte.isLetter(byte) {
        letters += 1
        kind = 3
      } else {
        kind = 0
      }
      if kind != 0, previous != 0, kind != previous { switches += 1 }
      previous = kind
    }
    guard letters > 0, digits > 0, switches >= max(3, (letters + digits) / 6) else { return false }
    let total = Double(range.count)
    var entropy = 0.0
    for count in counts where count > 0 {
      let share = Double(count) / total
      entropy -= share * log2(share)
    }
    return entropy >= minimumEntropy
  }

  /// The credential's name nearest `value` on its line, within ``reach`` bytes; or, on a line
  /// that holds no such name, at the end of one of the two lines before it that leaves a
  /// string or a statement open (``opens(lineEndingAt:in:)``).
  private static func name(
    near value: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>,
    isCredential: (Substring) -> Bool
  ) -> Range<Int>? {
    var lower = value.lowerBound
    while lower > 0, value.lowerBound - lower < reach, !ASCIIByte.isLineBreak(bytes[lower - 1]) {
      lower -= 1
    }
    var upper = value.upperBound
    while upper < bytes.count, upper - value.upperBound < reach,
      !ASCIIByte.isLineBreak(bytes[upper])
    {
      upper += 1
    }
    let names = credentialNames(in: lower..<upper, excluding: value, of: bytes, isCredential)
    if let nearest = names.min(by: {
      distance($0, value) < distance($1, value)
    }) {
      return nearest
    }
    // Only the line's start can continue what a line above opened.
    guard lower == 0 || ASCIIByte.isLineBreak(bytes[lower - 1]) else { return nil }
    var lineEnd = lower
    for _ in 0..<2 {
      // Back over the line break (`\r\n` too) to the line above's last byte.
      var end = lineEnd
      while end > 0, ASCIIByte.isLineBreak(bytes[end - 1]), lineEnd - end < 2 { end -= 1 }
      guard end < lineEnd, end > 0 else { return nil }
      var start = end
      while start > 0, !ASCIIByte.isLineBreak(bytes[start - 1]) { start -= 1 }
      if opens(start..<end, in: bytes) {
        let tail = max(start, end - 2 * reach)..<end
        if let name = credentialNames(in: tail, excluding: value, of: bytes, isCredential).last {
          return name
        }
      }
      lineEnd = start
    }
    return nil
  }

  private static func distance(_ name: Range<Int>, _ value: Range<Int>) -> Int {
    name.upperBound <= value.lowerBound
      ? value.lowerBound - name.upperBound : name.lowerBound - value.upperBound
  }

  /// The words of name bytes in `range` that `isCredential` accepts, in order, leaving out
  /// any that overlaps `value` or names a placeholder.
  private static func credentialNames(
    in range: Range<Int>, excluding value: Range<Int>, of bytes: UnsafeBufferPointer<UInt8>,
    _ isCredential: (Substring) -> Bool
  ) -> [Range<Int>] {
    var names: [Range<Int>] = []
    // The words read so far, for phrases of several (``phrase(endingWith:after:in:_:)``).
    var words: [(range: Range<Int>, text: String)] = []
    var index = range.lowerBound
    while index < range.upperBound {
      guard TextAssignments.isNameByte(bytes[index]) else {
        index += 1
        continue
      }
      var next = index + 1
      while next < range.upperBound, TextAssignments.isNameByte(bytes[next]) { next += 1 }
      // An option's dashes and a sentence's full stop are no part of a name (`--token`).
      var start = index
      var end = next
      while start < end, bytes[start] == UInt8(ascii: "-") { start += 1 }
      while end > start, bytes[end - 1] == UInt8(ascii: ".") { end -= 1 }
      let word = start..<end
      index = next
      guard !word.isEmpty else { continue }
      // A tag's name is markup's (`</key>`), read by the XML rules.
      let isTag =
        start > 0
        && (bytes[start - 1] == UInt8(ascii: "<")
          || bytes[start - 1] == UInt8(ascii: "/") && start > 1
            && bytes[start - 2] == UInt8(ascii: "<"))
      guard !isTag, word.upperBound <= value.lowerBound || word.lowerBound >= value.upperBound,
        word.count <= TextAssignments.maximumNameLength,
        word.contains(where: { TextAssignments.isLetterOrUnderscore(bytes[$0]) }),
        !followsPlaceholder(word.lowerBound, in: bytes)
      else { continue }
      let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[word]), as: UTF8.self)
      if isCredential(text[...]) {
        names.append(word)
      } else if let phrase = phrase(endingWith: word, after: words, in: bytes, isCredential) {
        names.append(phrase)
      }
      words.append((word, text))
    }
    return names
  }

  /// The words before `word`, each one blank apart, that with it read as a credential's name
  /// when run together (`Mot de passe`, `Client Secret`, `API key`): a phrase of up to four
  /// words, which no one of them names alone.
  private static func phrase(
    endingWith word: Range<Int>, after words: [(range: Range<Int>, text: String)],
    in bytes: UnsafeBufferPointer<UInt8>, _ isCredential: (Substring) -> Bool
  ) -> Range<Int>? {
    var joined = String(decoding: UnsafeBufferPointer(rebasing: bytes[word]), as: UTF8.self)
    var start = word.lowerBound
    for earlier in words.reversed().prefix(3) {
      guard earlier.range.upperBound + 1 == start, bytes[earlier.range.upperBound] == 0x20
      else { return nil }
      joined = earlier.text + joined
      start = earlier.range.lowerBound
      if isCredential(joined[...]) { return start..<word.upperBound }
    }
    return nil
  }

  /// Whether the line at `line` leaves something open for the lines under it: a here-string
  /// (`@"`, `@'`), a heredoc (`<<EOT`, `<<<EOT`, `<<-'EOF'`), triple quotes, a template
  /// literal's backtick, an odd number of double quotes, or a line that ends in `\`, `=`, `:`,
  /// `(`, `[`, `{` or `,`.
  static func opens(_ line: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var end = line.upperBound
    while end > line.lowerBound, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
    guard end > line.lowerBound else { return false }
    let last = bytes[end - 1]
    if "\\=:([{,`".utf8.contains(last) { return true }
    if end - line.lowerBound >= 2, bytes[end - 2] == UInt8(ascii: "@"),
      last == UInt8(ascii: "\"") || last == UInt8(ascii: "'")
    {
      return true
    }
    let slice = UnsafeBufferPointer(rebasing: bytes[line.lowerBound..<end])
    if slice.holds("\"\"\"", at: slice.count - 3) || slice.holds("'''", at: slice.count - 3) {
      return true
    }
    var from = 0
    while let angle = slice.index(of: UInt8(ascii: "<"), in: from..<slice.count) {
      if opensHeredoc(at: angle, in: slice) { return true }
      from = angle + 1
    }
    var quotes = 0
    from = 0
    while let quote = slice.index(of: UInt8(ascii: "\""), in: from..<slice.count) {
      quotes += 1
      from = quote + 1
    }
    return quotes % 2 == 1
  }

  /// Whether a heredoc opens at `angle`: `<<` (or PHP's `<<<`), then `-` or `~`, a quote, and
  /// the word that will close it (`<<EOF`, `<<-'EOF'`, `<<<EOT`). Bash's here-string `<<< word`
  /// holds its value on its line, and `cout << x` shifts.
  private static func opensHeredoc(at angle: Int, in line: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = angle
    var angles = 0
    while index < line.count, line[index] == UInt8(ascii: "<"), angles < 3 {
      index += 1
      angles += 1
    }
    guard angles >= 2 else { return false }
    if index < line.count, line[index] == UInt8(ascii: "-") || line[index] == UInt8(ascii: "~") {
      index += 1
    }
    if index < line.count, line[index] == UInt8(ascii: "'") || line[index] == UInt8(ascii: "\"") {
      index += 1
    }
    return index < line.count && TextAssignments.isLetterOrUnderscore(line[index])
      && line[index] < 0x80
  }
}

extension CompiledRedaction {
  /// The values lines in `text` name (``CredentialLines``), each with the placeholder name of
  /// the name beside it. A name is a credential's when the member or the parameter rules say so
  /// (a bare `key` is one as a parameter's, as `$key = <<<EOT` names one).
  ///
  /// Read from the text before the other rules change it: a rule that takes a here-string's
  /// opener for a bare value (`$password = @"`) leaves a line that no longer says it goes on.
  func credentialLineValues(in text: String) -> [(value: String, key: String)] {
    guard !memberNames.isEmpty || !queryNames.isEmpty else { return [] }
    var text = text
    return text.withUTF8 { bytes in
      CredentialLines.values(in: bytes) {
        memberNames.matches(String($0)) || queryNames.matches(String($0))
      }.map { found in
        let key: String
        switch found.name {
        case .word(let range):
          key = RedactionPlaceholder.name(
            from: String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
              .lowercased())
        case .commandArgument(let name):
          key = name
        }
        return (
          String(decoding: UnsafeBufferPointer(rebasing: bytes[found.value]), as: UTF8.self), key
        )
      }
    }
  }

  /// The byte ranges where `values` (``credentialLineValues(in:)``) still stand in `text`, after
  /// the other rules, each with its placeholder: as it is inside quotes, percent-encoded bare.
  func credentialLineReplacements(
    _ values: [(value: String, key: String)], in text: String, echoes: inout RedactionEchoes
  ) -> [(Range<Int>, String)] {
    var replacements: [(Range<Int>, String)] = []
    var text = text
    text.withUTF8 { bytes in
      for (value, key) in values {
        echoes.remember(memberValue: value, as: key)
        for range in ByteSearch.ranges(of: Array(value.utf8), in: UnsafeRawBufferPointer(bytes)) {
          replacements.append(
            (
              range,
              CredentialLines.isQuoted(range, in: bytes)
                ? RedactionPlaceholder.text(key) : RedactionPlaceholder.percentEncoded(key)
            ))
        }
      }
    }
    return replacements
  }
}
