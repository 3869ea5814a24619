/// Values assigned to a name in text that is no form: YAML (`password: …`), TOML and INI
/// files (`password = "…"`), `.env` files (`API_SECRET="…"`), scripts (`const apiKey = '…'`,
/// `{ apiKey: '…' }`), and a GraphQL query's arguments in a JSON string. Cassettes redact, and logs mask, those whose name
/// a JSON member rule selects: the names a configuration file or a script gives its secrets are
/// the names a JSON body gives them.
enum TextAssignments {
  /// The longest name read.
  static let maximumNameLength = 100

  /// One assignment: the name, and the range of its value (inside its quotes, when quoted).
  struct Assignment {
    var name: Substring
    var value: Range<String.Index>
    var isQuoted: Bool
    /// `:` or `=` (also for `=>`), a space after a command line's option, or `(` for a call.
    var separator: UInt8
    /// A YAML block scalar (the indicator and the lines under it), or the value an alias
    /// stands for where it is anchored: no header rule reads either.
    var isBlock = false
  }

  /// The assignments in `text` whose value is not empty, in order.
  ///
  /// A name is a bare word (`[A-Za-z_][\w.-]*`, up to 100 characters) at a word's start, then
  /// `:` or `=`, with spaces or tabs around it. Its value is in quotes on the same line (`"…"`,
  /// `'…'`, or `\"…\"` inside a JSON string, as a GraphQL query sends `password: \"…\"`), or
  /// bare after `:`: to the end of its line (`Authorization: Bearer …` whole, a YAML scalar),
  /// or to where a value ends in a script, a JSON string or markup (see ``BareValueEnds``). A
  /// bare value after `=` is read only with a space or tab before the `=` (`password =
  /// hunter2`); without, it is a pair's, which ``EmbeddedQueryPairs`` reads. A bare value may
  /// hold the next name on its line (`user: ada password: …`); that one is found too.
  ///
  /// A name may also be in single quotes (`{'password': …}`, `['password' => …]`), or in double
  /// quotes before `=>`; `=>` separates as `=` does. A YAML block scalar's value is its
  /// indicator and the lines indented under its name (`password: |`). A command line's long
  /// option takes the word after it (`--password …`, separator a space), unless that starts
  /// with `-` or redirects. A builder's call names its string argument (`.password("…")`,
  /// see ``calls(in:)``).
  ///
  /// It reads bytes from each `:` and `=` backwards, so a large JSON body, whose member names
  /// are quoted, costs a byte comparison per member.
  static func assignments(in text: String, readingNamedStrings: Bool = true) -> [Assignment] {
    var text = text
    let found = text.withUTF8 { bytes in
      withCalls(ranges(in: bytes), in: bytes, readingNamedStrings: readingNamedStrings)
    }
    let utf8 = text.utf8
    func index(_ offset: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
    return found.map { match in
      Assignment(
        name: text[index(match.name.lowerBound)..<index(match.name.upperBound)],
        value: index(match.value.lowerBound)..<index(match.value.upperBound),
        isQuoted: match.isQuoted, separator: match.separator, isBlock: match.isBlock)
    }
  }

  /// An ``Assignment`` as byte offsets.
  typealias Found = (
    name: Range<Int>, value: Range<Int>, isQuoted: Bool, separator: UInt8, isBlock: Bool
  )

  /// `found` with the builder calls in `bytes` (``calls(in:)``) and the strings a name stands
  /// before (``namedStrings(in:)``), in order. A call may be
  /// inside an assignment's bare value (`c = Client.builder().password("…")`): whether that
  /// one covers it is for its reader to say, who knows whether its name is a credential's.
  private static func withCalls(
    _ found: [Found], in bytes: UnsafeBufferPointer<UInt8>, readingNamedStrings: Bool
  ) -> [Found] {
    let calls = self.calls(in: bytes) + (readingNamedStrings ? namedStrings(in: bytes) : [])
    guard !calls.isEmpty else { return found }
    // A value's assignments keep their order: a key's last word before the key of words.
    return (found + calls).sorted {
      ($0.value.lowerBound, -$0.name.lowerBound) < ($1.value.lowerBound, -$1.name.lowerBound)
    }
  }

  private static func ranges(in bytes: UnsafeBufferPointer<UInt8>) -> [Found] {
    var found: [Found] = []
    // The values YAML aliases stand for, found where they are anchored (out of order).
    var aliased: [Found] = []
    let count = bytes.count
    // No match starts before the end of the previous one, as a regular expression's next.
    var consumed = 0
    var index = 0
    var bareValueEnds = BareValueEnds(bytes)
    // Only `-`, `:` and `=` can start an assignment: `memchr` finds the next of each, so the
    // bytes between are never visited here. A loop over every byte runs at about 15 MB/s in the
    // debug build `swift test` compiles, and this one read every byte of every body a cassette
    // wrote (48% of a 10 MB recording's finish(), issue 41); memchr runs at full speed there.
    var next: (dash: Int, colon: Int, equals: Int) = (-1, -1, -1)
    func position(of byte: UInt8, from start: Int, found: inout Int) -> Int {
      guard found < start else { return found }
      found = EmbeddedQueryPairs.next(byte, in: bytes, from: start) ?? count
      return found
    }
    while index < count {
      // Compared here: the generic `min` is a call at `-Onone`, once a separator.
      let dash = position(of: 0x2D, from: index, found: &next.dash)
      let colon = position(of: 0x3A, from: index, found: &next.colon)
      let equals = position(of: 0x3D, from: index, found: &next.equals)
      index = dash < colon ? (dash < equals ? dash : equals) : (colon < equals ? colon : equals)
      guard index < count else { break }
      let separator = bytes[index]
      index += 1
      if separator == UInt8(ascii: "-"), index - 1 >= consumed,
        let option = optionValue(at: index - 1, in: bytes)
      {
        found.append((option.name, option.value, option.isQuoted, 0x20, false))
        consumed = option.value.upperBound + (option.isQuoted ? 1 : 0)
        index = consumed
        continue
      }
      guard separator == UInt8(ascii: ":") || separator == UInt8(ascii: "=") else { continue }
      let at = index - 1
      // `:=` is read at its `=`, as the other compound assignments are.
      if separator == UInt8(ascii: ":"), at + 1 < count, bytes[at + 1] == UInt8(ascii: "=") {
        continue
      }
      // `=>` assigns in PHP and Ruby (`'password' => '…'`).
      let isArrow =
        separator == UInt8(ascii: "=") && at + 1 < count
        && bytes[at + 1] == UInt8(ascii: ">")
      // A compound assignment (`||=`, `?=`, `:=`, `+=`) assigns as `=` does; its operator
      // stands between the name and the `=`.
      let operatorStart =
        separator == UInt8(ascii: "=") && !isArrow
        ? compoundOperatorStart(before: at, in: bytes, from: consumed) : at
      let isCompound = operatorStart < at
      guard
        let name = name(endingBefore: operatorStart, in: bytes, from: consumed)
          ?? quotedName(
            endingBefore: operatorStart, in: bytes, from: consumed, doubleQuoted: isArrow)
          ?? bracketedQuotedName(endingBefore: operatorStart, in: bytes, from: consumed)
          ?? printedName(endingBefore: operatorStart, in: bytes, from: consumed)
      else { continue }
      // A key of words (`mot de passe: …`) is read twice: its last word, then the whole, for
      // the reader to judge in turn (``spacedKey(endingWith:in:from:)``).
      let spaced = spacedKey(endingWith: name, in: bytes, from: consumed)
      func add(_ value: Range<Int>, isQuoted: Bool, isBlock: Bool) {
        found.append((name, value, isQuoted, separator, isBlock))
        if let spaced { found.append((spaced, value, isQuoted, separator, isBlock)) }
      }
      // PowerShell's `$env:API_TOKEN` (and `$global:`, `$script:`) is one variable's name: it
      // is assigned at its `=`.
      if separator == UInt8(ascii: ":"), name.lowerBound > 0,
        bytes[name.lowerBound - 1] == UInt8(ascii: "$"), at + 1 < count,
        isLetterOrUnderscore(bytes[at + 1])
      {
        continue
      }
      var start = at + (isArrow ? 2 : 1)
      while start < count, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
      // A dump's spellings: `=>` then the next line, `string(14) "…"`, `b'…'`.
      start = printedValueStart(from: start, afterArrow: isArrow, in: bytes)
      if separator == UInt8(ascii: ":"), !isArrow,
        let annotated = annotatedValueStart(from: start, in: bytes),
        let quoted = quotedValue(at: annotated, in: bytes)
      {
        // `API_KEY: str = """…"""`, `val password: String = "…"`: a type between the name and
        // the `=`, then a value in quotes, over lines too. The type goes with it, as a bare
        // value's whole line does, so no part of a value that only looks like a type is kept.
        // The closing quotes are as long as the opening ones: `"`, `\"` or `"""`.
        let close = quoted.upperBound + (quoted.lowerBound - annotated)
        consumed = close
        index = close
        if !quoted.isEmpty { add(start..<close, isQuoted: false, isBlock: true) }
        continue
      } else if separator == UInt8(ascii: ":"), !isArrow,
        let yaml = YAMLScalar.value(
          from: start, nameStart: name.lowerBound, in: bytes)
      {
        // A YAML scalar that is no one-line value: tagged or anchored before a block, on the
        // lines under its name, in quotes over lines, or plain over lines. Replaced whole.
        if !yaml.isEmpty { add(yaml, isQuoted: false, isBlock: true) }
        consumed = max(yaml.upperBound, start)
        index = consumed
        continue
      }
      if separator == UInt8(ascii: "="), !isArrow, let heredoc = heredoc(at: start, in: bytes) {
        // HCL's and a shell's heredoc (`password = <<EOT`): its lines are the value, quoted by
        // its words, so the placeholder is written as it is in quotes.
        if !heredoc.body.isEmpty { add(heredoc.body, isQuoted: true, isBlock: true) }
        consumed = heredoc.end
        index = consumed
        continue
      }
      if let quoted = quotedValue(at: start, in: bytes) {
        consumed = quoted.upperBound + (bytes[start] == UInt8(ascii: "\\") ? 2 : 1)
        index = consumed
        if !quoted.isEmpty { add(quoted, isQuoted: true, isBlock: false) }
        continue
      }
      consumed = start
      if separator == UInt8(ascii: "=") {
        // A pair has no white space before its `=`, so `EmbeddedQueryPairs` reads it; an INI or
        // .properties line (`password = hunter2`) has, and nothing else reads it. `==` compares.
        // Space after it only is a log's empty value (`token= done`).
        // A compound operator says it assigns, as the space does.
        let spaced = isCompound || bytes[at - 1] == 0x20 || bytes[at - 1] == 0x09
        guard spaced, start == count || bytes[start] != UInt8(ascii: "=") else { continue }
      }
      if separator == UInt8(ascii: ":"), !isArrow, start < count,
        bytes[start] == UInt8(ascii: "*"),
        let anchored = YAMLScalar.anchoredValue(aliasAt: start, in: bytes)
      {
        // A YAML alias (`password: *dbpw`) stands for the value anchored `&dbpw`, wherever
        // that stands (`defaults: &dbpw …`): it is this key's value too.
        aliased.append((name, anchored.value, anchored.isQuoted, separator, true))
      }
      var end = bareValueEnds.end(from: start)
      var isBlock = false
      // A block scalar (`password: |`) was read above, with YAML's other spellings.
      // A flow collection (`config: {` then its pairs on the lines under it, as an object
      // dump prints it) closes with its bracket: its pairs are read one by one.
      if separator == UInt8(ascii: ":"), start < end,
        bytes[start] != UInt8(ascii: "{"), bytes[start] != UInt8(ascii: "["),
        let folded = YAMLScalar.continuation(after: end, under: name.lowerBound, in: bytes)
      {
        // A plain scalar YAML folds over the lines indented under its key.
        end = folded
        consumed = end
        index = end
        isBlock = true
      }
      if start < end { add(start..<end, isQuoted: false, isBlock: isBlock) }
    }
    guard !aliased.isEmpty else { return found }
    return (found + aliased).sorted {
      ($0.value.lowerBound, -$0.name.lowerBound) < ($1.value.lowerBound, -$1.name.lowerBound)
    }
  }

  /// Where the value of an annotated assignment starts (`API_KEY: str = "…"`, TypeScript's
  /// `apiKey: string = '…'`, Kotlin's `val password: String = "…"`): `start` is just after the
  /// name's `:`, and a type (a word, with `.`, `[…]`, `<…>`, `|`, `?` and spaces inside) runs to
  /// an `=` that is not `==` or `=>` on the same line. `nil` for anything else.
  private static func annotatedValueStart(from start: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> Int?
  {
    let count = bytes.count
    guard start < count, isLetterOrUnderscore(bytes[start]) else { return nil }
    var index = start
    while index < count, index - start < maximumNameLength {
      let byte = bytes[index]
      let isTypeByte =
        isNameByte(byte) || byte == 0x20 || byte == 0x09 || byte == UInt8(ascii: "[")
        || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
        || byte == UInt8(ascii: "|") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: ",")
      guard isTypeByte else { break }
      index += 1
    }
    guard index < count, index > start, bytes[index] == UInt8(ascii: "="),
      bytes[index - 1] == 0x20 || bytes[index - 1] == 0x09,
      index + 1 == count
        || (bytes[index + 1] != UInt8(ascii: "=") && bytes[index + 1] != UInt8(ascii: ">"))
    else { return nil }
    var value = index + 1
    while value < count, bytes[value] == 0x20 || bytes[value] == 0x09 { value += 1 }
    guard value < count, bytes[value] != 0x0A, bytes[value] != 0x0D else { return nil }
    return value
  }

  /// A command line's long option at `dash` and the word after it (`--password hunter2`,
  /// `--token "…"`), or `nil`: `--` at a word's start, a name, spaces or tabs, then a quoted
  /// value on the line or a bare word that does not start with `-` (another option) or a
  /// redirection. With `=` after the name it is a pair's or an assignment's, read as those.
  private static func optionValue(at dash: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> (name: Range<Int>, value: Range<Int>, isQuoted: Bool)?
  {
    let count = bytes.count
    // PowerShell's parameters take one dash (`-Password 'x'`, `-Token x`); a name of two
    // letters at least, so `-p 22` and `-u ada` are left to the short options' readers.
    let isLong = dash + 1 < count && bytes[dash + 1] == UInt8(ascii: "-")
    let nameStart = dash + (isLong ? 2 : 1)
    guard nameStart < count, dash == 0 || isBlank(bytes[dash - 1]),
      isLetterOrUnderscore(bytes[nameStart])
    else { return nil }
    var nameEnd = nameStart
    while nameEnd < count, nameEnd - nameStart < maximumNameLength, isNameByte(bytes[nameEnd]) {
      nameEnd += 1
    }
    guard isLong || nameEnd - nameStart >= 2, !isSwitch(bytes[nameStart..<nameEnd]) else {
      return nil
    }
    var start = nameEnd
    while start < count, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
    guard start > nameEnd, start < count else { return nil }
    if let quoted = quotedValue(at: start, in: bytes), bytes[start] != UInt8(ascii: "\\") {
      guard !quoted.isEmpty else { return nil }
      return (nameStart..<nameEnd, quoted, true)
    }
    let first = bytes[start]
    guard !isBlank(first), !"-<>|&;\"'`$(".utf8.contains(first) else { return nil }
    var end = start
    while end < count, !isBlank(bytes[end]) { end += 1 }
    // After one dash, a word that assigns (`-la password: …`, `-v token=…`) is no value: the
    // dash was a switch's.
    if !isLong,
      bytes[end - 1] == UInt8(ascii: ":")
        || bytes.index(of: UInt8(ascii: "="), in: start..<end) != nil
    {
      return nil
    }
    return (nameStart..<nameEnd, start..<end, false)
  }

  /// Whether an option's name says it is a switch, which takes no value (`--allow-credentials
  /// to skip the scan`, `--no-password`): the word after it belongs to the sentence or is the
  /// next argument.
  private static func isSwitch(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
    let lowered = String(decoding: name, as: UTF8.self).lowercased()
    return switchPrefixes.contains { lowered.hasPrefix($0) }
  }

  private static let switchPrefixes = [
    "allow-", "no-", "skip-", "enable-", "disable-", "with-", "without-", "use-", "ignore-",
    "require-", "show-", "print-",
  ]

  /// A space, a tab or a line break.
  static func isBlank(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  /// The name in quotes before the separator at `separator` (spaces or tabs between), as a
  /// Python dict or a PHP array writes it (`'password': …`, `'password' => …`), or `nil`.
  /// Double quotes only before `=>`: a `"name":` is a JSON member's, which the JSON rules read.
  private static func quotedName(
    endingBefore separator: Int, in bytes: UnsafeBufferPointer<UInt8>, from floor: Int,
    doubleQuoted: Bool
  ) -> Range<Int>? {
    var close = separator
    while close > floor, bytes[close - 1] == 0x20 || bytes[close - 1] == 0x09 { close -= 1 }
    guard close > floor else { return nil }
    close -= 1
    let quote = bytes[close]
    guard quote == UInt8(ascii: "'") || (doubleQuoted && quote == UInt8(ascii: "\"")) else {
      return nil
    }
    var start = close
    // A quoted name may hold a nested field's brackets (`'user[password]' => …`).
    while start > floor, close - start <= maximumNameLength,
      isNameByte(bytes[start - 1]) || bytes[start - 1] == UInt8(ascii: "[")
        || bytes[start - 1] == UInt8(ascii: "]")
    {
      start -= 1
    }
    guard start < close, close - start <= maximumNameLength, start - 1 >= floor,
      bytes[start - 1] == quote, isLetterOrUnderscore(bytes[start]),
      start - 1 == 0 || mayPrecedeName(bytes[start - 2]), bracketsPair(bytes[start..<close])
    else { return nil }
    return start..<close
  }

  /// Where the operator of a compound assignment ends at the `=` at `sign` starts (`||=`,
  /// `&&=`, `??=`, `?=`, `:=`, `+=`, `|=`, PHP's `.=`), or `sign` when none does: a
  /// comparison (`!=`, `<=`, `>=`, `==`) is none.
  private static func compoundOperatorStart(
    before sign: Int, in bytes: UnsafeBufferPointer<UInt8>, from floor: Int
  ) -> Int {
    guard sign - 1 >= floor else { return sign }
    let last = bytes[sign - 1]
    switch last {
    case UInt8(ascii: "|"), UInt8(ascii: "&"), UInt8(ascii: "?"):
      // Doubled or single: `||=`, `&&=`, `??=`, `?=`, `|=`, `&=`.
      return sign - 2 >= floor && bytes[sign - 2] == last ? sign - 2 : sign - 1
    case UInt8(ascii: ":"), UInt8(ascii: "+"):
      return sign - 1
    case UInt8(ascii: "."):
      // `.=` with a space before it; `a.=` would be a name's dot.
      return sign - 2 >= floor && (bytes[sign - 2] == 0x20 || bytes[sign - 2] == 0x09)
        ? sign - 1 : sign
    default:
      return sign
    }
  }

  /// The quoted word in brackets before the separator at `separator` (spaces or tabs between),
  /// as a script writes a key of a map it assigns to (`$config['db_pass'] = …`,
  /// `ENV["SECRET_KEY_BASE"] ||= …`, `os.environ["API_KEY"] = …`), or `nil`: its last word
  /// names the value, as a bracketed name's does.
  private static func bracketedQuotedName(
    endingBefore separator: Int, in bytes: UnsafeBufferPointer<UInt8>, from floor: Int
  ) -> Range<Int>? {
    var close = separator
    while close > floor, bytes[close - 1] == 0x20 || bytes[close - 1] == 0x09 { close -= 1 }
    guard close - 2 >= floor, bytes[close - 1] == UInt8(ascii: "]") else { return nil }
    let quote = bytes[close - 2]
    guard quote == UInt8(ascii: "'") || quote == UInt8(ascii: "\"") else { return nil }
    let end = close - 2
    var start = end
    while start > floor, end - start < maximumNameLength, isNameByte(bytes[start - 1]) {
      start -= 1
    }
    guard start < end, start - 2 >= floor, bytes[start - 1] == quote,
      bytes[start - 2] == UInt8(ascii: "["), isLetterOrUnderscore(bytes[start])
    else { return nil }
    return start..<end
  }

  /// The name before the separator at `separator` (spaces or tabs between), starting at
  /// `floor` or later, or `nil`: the leftmost start in the run of name characters there that
  /// begins with a letter or `_` and follows no word character or `.`.
  private static func name(
    endingBefore separator: Int, in bytes: UnsafeBufferPointer<UInt8>, from floor: Int
  ) -> Range<Int>? {
    var end = separator
    while end > floor, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
    var run = end
    // A name may end in bracketed words, as Rails and PHP write a nested field
    // (`user[password_confirmation]: …`); its brackets must pair.
    let isBracketed = end > floor && bytes[end - 1] == 0x5D  // ]
    let maximumNameLength = Self.maximumNameLength
    while run > floor, end - run <= maximumNameLength,
      isNameByte(bytes[run - 1])
        || isBracketed && (bytes[run - 1] == 0x5B || bytes[run - 1] == 0x5D)  // [ ]
    {
      run -= 1
    }
    for start in run..<end where end - start <= maximumNameLength {
      if isLetterOrUnderscore(bytes[start]), start == 0 || mayPrecedeName(bytes[start - 1]),
        !isBracketed || bracketsPair(bytes[start..<end])
      {
        return start..<end
      }
    }
    return nil
  }

  /// A key of words with single spaces between that starts its line (`mot de passe: …`, `API
  /// key = …`, `- client pass: …`), whose last word is `last`, or `nil`: two to four words,
  /// those before the last of letters only, after the line's indentation and a YAML list's `- `.
  /// The words together may name the value where the last alone (`passe`) does not; a longer
  /// run is a sentence's. Its reader judges the last word first, so a name it judges keeps its
  /// placeholder (`export API_SECRET=…` is `API_SECRET`'s).
  private static func spacedKey(
    endingWith last: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>, from floor: Int
  ) -> Range<Int>? {
    var start = last.lowerBound
    var words = 1
    while words < 4, start - 2 >= floor, bytes[start - 1] == 0x20,
      isLetterOrUnderscore(bytes[start - 2])
    {
      start -= 1
      while start > floor, isLetterOrUnderscore(bytes[start - 1]) { start -= 1 }
      words += 1
    }
    guard words > 1 else { return nil }
    var lineStart = start
    if lineStart - 2 >= floor, bytes[lineStart - 1] == 0x20,
      bytes[lineStart - 2] == UInt8(ascii: "-")
    {
      lineStart -= 2
    }
    while lineStart > floor, bytes[lineStart - 1] == 0x20 || bytes[lineStart - 1] == 0x09 {
      lineStart -= 1
    }
    guard lineStart == 0 || bytes[lineStart - 1] == 0x0A || bytes[lineStart - 1] == 0x0D else {
      return nil
    }
    return start..<last.upperBound
  }

  /// What is inside the quotes that start at `start`, on one line, or `nil` when no quote
  /// starts there or it is not closed: `"…"` and `'…'` with `\` escaping the next character,
  /// and `\"…\"` as a JSON string holds a quoted value.
  private static func quotedValue(at start: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> Range<Int>?
  {
    let count = bytes.count
    guard start < count else { return nil }
    let opening = bytes[start]
    if opening == UInt8(ascii: "\\") {
      guard start + 1 < count, bytes[start + 1] == UInt8(ascii: "\"") else { return nil }
      var index = start + 2
      while index < count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") || byte == 0x0A { return nil }
        if byte == UInt8(ascii: "\\") {
          guard index + 1 < count else { return nil }
          if bytes[index + 1] == UInt8(ascii: "\"") { return (start + 2)..<index }
          index += 2
        } else {
          index += 1
        }
      }
      return nil
    }
    guard opening == UInt8(ascii: "\"") || opening == UInt8(ascii: "'") else { return nil }
    if let triple = tripleQuotedValue(at: start, in: bytes) { return triple }
    if let indented = indentedStringValue(at: start, in: bytes) { return indented }
    var index = start + 1
    while index < count {
      let byte = bytes[index]
      if byte == opening { return (start + 1)..<index }
      if byte == 0x0A { return nil }
      if byte == UInt8(ascii: "\\") {
        guard index + 1 < count, bytes[index + 1] != 0x0A else { return nil }
        index += 2
      } else {
        index += 1
      }
    }
    return nil
  }

  /// What is inside TOML's or Python's triple quotes (`'''…'''`, `"""…"""`) starting at
  /// `start`, over line breaks, or `nil`: read as `"…"`, an empty pair of quotes came first and
  /// the value after it was taken for bare text, or not read at all.
  private static func tripleQuotedValue(at start: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> Range<Int>?
  {
    let quote = bytes[start]
    let count = bytes.count
    guard start + 2 < count, bytes[start + 1] == quote, bytes[start + 2] == quote else {
      return nil
    }
    var index = start + 3
    while let close = EmbeddedQueryPairs.next(quote, in: bytes, from: index) {
      if close + 2 < count, bytes[close + 1] == quote, bytes[close + 2] == quote,
        bytes[close - 1] != UInt8(ascii: "\\")
      {
        return (start + 3)..<close
      }
      index = close + 1
    }
    return nil
  }

  /// What is inside Nix's indented string (`password = ''…'';`) starting at `start`, or `nil`:
  /// read as `'…'`, an empty pair of quotes came first and the value after it was never read.
  /// An empty string (`''` then `;`, a blank, a comma or a bracket) is none.
  private static func indentedStringValue(at start: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> Range<Int>?
  {
    let quote = UInt8(ascii: "'")
    let count = bytes.count
    guard bytes[start] == quote, start + 2 < count, bytes[start + 1] == quote,
      !"';,)]} \t\r\n".utf8.contains(bytes[start + 2])
    else { return nil }
    var index = start + 2
    while let close = EmbeddedQueryPairs.next(quote, in: bytes, from: index) {
      if close + 1 < count, bytes[close + 1] == quote { return (start + 2)..<close }
      index = close + 1
    }
    return nil
  }

  /// Whether `name`'s brackets pair, none inside another, and it ends in one closed.
  private static func bracketsPair(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
    var open = false
    for byte in name {
      switch byte {
      case UInt8(ascii: "["):
        if open { return false }
        open = true
      case UInt8(ascii: "]"):
        if !open { return false }
        open = false
      default: continue
      }
    }
    return !open
  }

  /// A letter, digit, `_`, `.` or `-`.
  ///
  /// Bounds and literals compared, not `ClosedRange.contains` and `UInt8(ascii:)`: each is a
  /// call at `-Onone` (what `swift test` compiles), and this is asked of every byte of a name.
  static func isNameByte(_ byte: UInt8) -> Bool {
    (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F
      || byte >= 0x80 || (byte >= 0x30 && byte <= 0x39) || byte == 0x2E || byte == 0x2D
  }

  /// A letter, `_`, or any byte of a character beyond ASCII, so a name in another script
  /// (`пароль: …`, `パスワード: …`) is read as one; its words decide.
  static func isLetterOrUnderscore(_ byte: UInt8) -> Bool {
    (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F
      || byte >= 0x80
  }

  /// Whether a name may start after `byte`: not after a word character (any byte of a
  /// non-ASCII character counts, as a Unicode letter is one) or `.`, which would make it part
  /// of something longer. A quote may come before it: a JSON string or a script's string can
  /// hold `password: …` (a JSON member's own name ends in a quote before its `:`, so it is
  /// never read as one).
  static func mayPrecedeName(_ byte: UInt8) -> Bool {
    !(isNameByte(byte) && byte != 0x2D) && byte < 0x80
  }

}

extension CompiledRedaction {
  /// The byte ranges of credential values assigned by name in `text`, each with its
  /// placeholder: as it is inside quotes, percent-encoded bare (so markup and URLs around it
  /// stay as they were).
  ///
  /// A JSON body's strings are its members' (read as members) or text with its quotes escaped,
  /// so `readingNamedStrings` is off for one: asking each of its strings whether a name stands
  /// before it cost a tenth of a recording's `finish()` in the debug build.
  func assignmentReplacements(
    in text: String, readingNamedStrings: Bool = true, echoes: inout RedactionEchoes
  ) -> [(Range<Int>, String)] {
    guard !memberNames.isEmpty else { return [] }
    var replacements: [(Range<Int>, String)] = []
    var covered = text.startIndex
    // A JSON body is one assignment per member, and repeats its names: each is judged once.
    var judged: [Substring: String?] = [:]
    for assignment in TextAssignments.assignments(
      in: text, readingNamedStrings: readingNamedStrings)
    where assignment.value.lowerBound >= covered {
      let key: String?
      if let known = judged[assignment.name] {
        key = known
      } else {
        key = placeholderName(forMember: String(assignment.name))
        judged[assignment.name] = key
      }
      guard let key else { continue }
      let range =
        assignment.isQuoted
        ? assignment.value : Self.callRunOn(Self.continued(assignment.value, in: text), in: text)
      let value = String(text[range])
      guard !RedactionPlaceholder.isPresent(in: value) else { continue }
      // A bare value runs over the names after it on its line; it covers theirs.
      covered = range.upperBound
      // `Authorization: Bearer …` written as text holds the token as the header does; the
      // token alone is an echo too, or a later bare copy of it would stay.
      for secret in RedactionEchoes.secrets(inHeaderValue: value, named: String(assignment.name)) {
        echoes.remember(memberValue: secret, as: key)
      }
      let bytes = Self.byteRange(of: range, in: text)
      replacements.append(
        (
          bytes,
          assignment.isQuoted
            ? RedactionPlaceholder.text(key) : RedactionPlaceholder.percentEncoded(key)
        ))
      if assignment.isQuoted {
        for literal in Self.concatenatedLiterals(after: bytes.upperBound, in: text) {
          replacements.append((literal, RedactionPlaceholder.text(key)))
          // A report masks what a cassette took out: it must know each part.
          let utf8 = text.utf8
          let start = utf8.index(utf8.startIndex, offsetBy: literal.lowerBound)
          let end = utf8.index(start, offsetBy: literal.count)
          echoes.remember(memberValue: String(text[start..<end]), as: key)
        }
      }
    }
    return replacements
  }

  /// A quoted value that `+` continues (`Authorization: 'Basic ' + btoa('ada:…')`, `password
  /// = "Walnut" + "1997!"`) is the whole expression: the contents of each string literal in it,
  /// to its end (a `,`, `;` or closing bracket outside brackets it opened, or its line's end,
  /// within 512 bytes). A literal that is a subscript's key (`os.environ["API_TOKEN"]`) names
  /// where the value comes from and stays. `closingQuote` is the byte offset of the value's
  /// closing quote.
  static func concatenatedLiterals(after closingQuote: Int, in text: String) -> [Range<Int>] {
    var text = text
    return text.withUTF8 { bytes in
      var index = closingQuote + 1
      while index < bytes.count, TextAssignments.isBlank(bytes[index]) { index += 1 }
      guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "+"),
        bytes[index + 1] != UInt8(ascii: "+"), bytes[index + 1] != UInt8(ascii: "=")
      else { return [] }
      var found: [Range<Int>] = []
      var depth = 0
      index += 1
      while index < bytes.count, index - closingQuote < 512 {
        switch bytes[index] {
        case 0x0A, 0x0D, UInt8(ascii: ";"): return found
        case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
        case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
          guard depth > 0 else { return found }
          depth -= 1
        case UInt8(ascii: ","):
          guard depth > 0 else { return found }
        case 0x22, 0x27:
          guard let literal = TextAssignments.quotedString(openingAt: index, in: bytes) else {
            return found
          }
          if !literal.isEmpty, bytes[index - 1] != UInt8(ascii: "[") { found.append(literal) }
          index = literal.upperBound
        default: break
        }
        index += 1
      }
      return found
    }
  }

  /// A bare value that is a call with a string argument (`key = std::env::var("API_KEY")
  /// .unwrap_or("…")`, `key = os.environ.get("API_KEY") or "…"`) runs to the end of its
  /// statement, its line's last `;` or its end: the reading stops at the argument's closing
  /// quote, and the default a program falls back on stands after it.
  static func callRunOn(_ value: Range<String.Index>, in text: String) -> Range<String.Index> {
    guard value.lowerBound < value.upperBound, value.upperBound < text.endIndex,
      text[value.upperBound] == "\"" || text[value.upperBound] == "'",
      text[value].contains("(" + String(text[value.upperBound]))
    else { return value }
    let line = text[value.upperBound...].prefix { $0 != "\n" }
    guard let semicolon = line.lastIndex(of: ";") else { return value.lowerBound..<line.endIndex }
    return value.lowerBound..<semicolon
  }

  /// A bare value that a `\` at its line's end continues (a `.properties` file's, a shell
  /// line's) runs on over the lines after it, to the first that does not end in one.
  static func continued(_ value: Range<String.Index>, in text: String) -> Range<String.Index> {
    var end = value.upperBound
    // Asked of every bare value (a JSON body's every member): one byte decides nearly all.
    while end < text.endIndex, text.utf8[end] == UInt8(ascii: "\\") {
      let lineBreak = text.index(after: end)
      guard lineBreak < text.endIndex, text[lineBreak].isNewline else { break }
      let lineStart = text.index(after: lineBreak)
      let lineEnd = text[lineStart...].firstIndex(where: \.isNewline) ?? text.endIndex
      guard lineEnd > lineStart, text[text.index(before: lineEnd)] == "\\" else {
        end = lineEnd
        break
      }
      end = text.index(before: lineEnd)
    }
    return value.lowerBound..<end
  }
}
