#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Query pairs of URLs written inside other text: a link in an HTML page, a `next` URL or an
/// OAuth callback in a JSON string, a `Link` header. `?access_token=…` is as secret there as in
/// the request URL.
extension CompiledRedaction {
  /// The byte ranges of credential values in URL query pairs inside `text`, and of the user
  /// information of URLs in it, each with its percent-encoded placeholder. The value of a pair
  /// no rule selects may be a URL whose own pairs hold a credential behind escapes
  /// (`next=https%3A%2F%2Fapi%2Fcb%3Fcode%3D…`), as in the request URL; with `nesting`, those
  /// are replaced too, up to ``nestedURLLevels`` levels down.
  func embeddedQueryReplacements(
    in text: String, nesting: Bool = true, commaSeparated: Bool = false,
    echoes: inout RedactionEchoes
  ) -> [(Range<Int>, String)] {
    guard !queryNames.isEmpty || redactsUserinfo else { return [] }
    var text = text
    return text.withUTF8 { bytes in
      var replacements = userinfoReplacements(in: bytes, echoes: &echoes)
      guard !queryNames.isEmpty else { return replacements }
      // A large body repeats a few names (`page`, `ref`) millions of times; each is decoded
      // and matched once.
      var verdicts: [String: Bool] = [:]
      EmbeddedQueryPairs.forEachNested(in: bytes, commaSeparated: commaSeparated) {
        nameRange, valueRange in
        let rawName = String(decoding: bytes[nameRange], as: UTF8.self)
        let isSelected: Bool
        if let known = verdicts[rawName] {
          isSelected = known
        } else {
          isSelected = queryNames.matches(FormBody.decode(Substring(rawName)))
          verdicts[rawName] = isSelected
        }
        guard isSelected else {
          guard nesting, bytes.index(of: UInt8(ascii: "%"), in: valueRange) != nil else { return }
          let value = String(decoding: bytes[valueRange], as: UTF8.self)
          if let redacted = nestedReplacement(of: value, echoes: &echoes)
            ?? openedValue(value[...], echoes: &echoes)
          {
            replacements.append((valueRange, redacted))
          }
          return
        }
        // A bare value with spaces (a passphrase in a `.env` or log line) runs on over the
        // words after it; in a URL a space ends the value, and none follows there.
        let valueRange = EmbeddedQueryPairs.closersDropped(
          from: valueRange
            .lowerBound..<SpacedPairValue.end(
              of: valueRange, nameStart: nameRange.lowerBound, in: bytes), in: bytes)
        let value = String(decoding: bytes[valueRange], as: UTF8.self)
        guard !RedactionPlaceholder.isPresent(in: value) else { return }
        let key = RedactionPlaceholder.name(from: FormBody.decode(Substring(rawName)).lowercased())
        echoes.remember(value, as: key)
        echoes.remember(FormBody.decode(Substring(value)), as: key)
        replacements.append((valueRange, RedactionPlaceholder.percentEncoded(key)))
      }
      return replacements
    }
  }

  /// The byte ranges of the user information of URLs written in `text` (`postgres://ada:…@db`),
  /// each with its percent-encoded placeholder; none unless the rules redact `Authorization`.
  /// A form's values are read here too: a single `DATABASE_URL=postgres://…` line is taken for
  /// one.
  func userinfoReplacements(in text: String, echoes: inout RedactionEchoes)
    -> [(Range<Int>, String)]
  {
    guard redactsUserinfo else { return [] }
    var text = text
    return text.withUTF8 { userinfoReplacements(in: $0, echoes: &echoes) }
  }

  private func userinfoReplacements(
    in bytes: UnsafeBufferPointer<UInt8>, echoes: inout RedactionEchoes
  ) -> [(Range<Int>, String)] {
    guard redactsUserinfo else { return [] }
    var replacements: [(Range<Int>, String)] = []
    EmbeddedUserinfo.forEach(in: bytes) { range in
      let userinfo = String(decoding: bytes[range], as: UTF8.self)
      guard !RedactionPlaceholder.isPresent(in: userinfo) else { return }
      echoes.remember(userinfo: userinfo)
      replacements.append((range, RedactionPlaceholder.percentEncoded("userinfo")))
    }
    return replacements
  }

  /// `value`, a pair's value no rule selects, with the credentials of the URL it holds behind
  /// escapes replaced by percent-encoded placeholders, which the URL still parses with; `nil`
  /// when it holds none. They are remembered as echoes too, for their other spellings.
  private func nestedReplacement(of value: String, echoes: inout RedactionEchoes) -> String? {
    var nested = RedactionEchoes()
    rememberNestedPairs(in: value[...], echoes: &nested)
    guard !nested.isEmpty else { return nil }
    echoes.formUnion(nested)
    let redacted = nested.replace(inPlain: value, encoded: true)
    return redacted == value ? nil : redacted
  }

  /// `range` as UTF-8 offsets, for ``splice(_:_:)``.
  static func byteRange(of range: Range<String.Index>, in text: String) -> Range<Int> {
    let start = text.utf8.distance(from: text.startIndex, to: range.lowerBound)
    return start..<(start + text.utf8.distance(from: range.lowerBound, to: range.upperBound))
  }
}

/// Finds `name=value` pairs in UTF-8 text, byte by byte: the name is the whole run of name
/// characters before an `=`, whatever stands before it. A query in a page, a JSON string or a
/// header has a `?`, `&` or `;` there, a log line white space; an object's printed form has `(`,
/// `{` or `,` (`Creds(user=ada,apiKey=…)`), a signed token's fields `~` or `*`
/// (`exp=…~acl=/*~hmac=…`), a setting's path `/`, `:` or `@` (`//registry.npmjs.org/:_authToken=…`).
/// Which pairs hold credentials is the name's judgement, never where it stands, so a name the
/// log mask reads is read here too.
///
/// It finds exactly what the regular expression
/// `(?<![A-Za-z0-9_.%+\-\[\]])([A-Za-z0-9_.%+\-\[\]]{1,100})=([^&#;\s"'<>\\]+)` finds (the
/// tests compare the two): a name of 1 to 100 URL characters but `~`, which joins a signed
/// token's fields (`exp=…~hmac=…`), and a value that stops where a URL, a
/// JSON string or an HTML attribute would end, so JSON stays JSON. ICU ran the expression it
/// grew from over a 50 MB body at under 10 MB/s, most of a credential scan's time.
enum EmbeddedQueryPairs {
  /// The longest name the expression accepts.
  static let maximumNameLength = 100

  /// How many URLs deep ``forEachNested(in:commaSeparated:offset:level:_:)`` looks for pairs.
  static let maximumNestedLevels = 4

  /// `value` without the `)`, `}` or `]` that ends it when it opens none: the close of the
  /// object's printed form the pair stands in (`Creds(token=…)`), which the placeholder must not
  /// swallow, nor the echo search look for.
  static func closersDropped(from value: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>)
    -> Range<Int>
  {
    var end = value.upperBound
    while end > value.lowerBound + 1, isCloser(bytes[end - 1]) { end -= 1 }
    guard end < value.upperBound else { return value }
    let inside = UnsafeBufferPointer(rebasing: bytes[value])
    for opener in [UInt8(ascii: "("), UInt8(ascii: "{"), UInt8(ascii: "[")]
    where next(opener, in: inside, from: 0) != nil {
      return value
    }
    return value.lowerBound..<end
  }

  private static func isCloser(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: ")") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
  }

  /// The offset of the first `byte` at or after `start`, found by `memchr`, called here and not
  /// through a helper: each level of calls costs the debug build `swift test` compiles more
  /// than `memchr` spends on a short string.
  static func next(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    guard start < bytes.count, let base = bytes.baseAddress,
      let found = memchr(base + start, Int32(byte), bytes.count - start)
    else { return nil }
    return UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base
  }

  /// ``forEach(in:commaSeparated:_:)``, and then the pairs inside each value that holds an `=`:
  /// a value may be a pair itself (`--from-literal=password=…`), or a URL with a query of its
  /// own (`Refresh: 0; url=/cb?session_token=…`, an HTML `<meta http-equiv="refresh">`,
  /// `next=https://…?code=…`), whose pairs the pair around them hides from a search that
  /// resumes after it. Levels are bounded: each one searches the rest of the text again, and
  /// `a=?b=?c=…` would make that quadratic.
  static func forEachNested(
    in bytes: UnsafeBufferPointer<UInt8>, commaSeparated: Bool = false, offset: Int = 0,
    level: Int = 0, _ body: (Range<Int>, Range<Int>) -> Void
  ) {
    forEach(in: bytes, commaSeparated: commaSeparated) { nameRange, valueRange in
      body(
        (nameRange.lowerBound + offset)..<(nameRange.upperBound + offset),
        (valueRange.lowerBound + offset)..<(valueRange.upperBound + offset))
      guard level < maximumNestedLevels, bytes.index(of: UInt8(ascii: "="), in: valueRange) != nil
      else { return }
      // The whole value: a pair inside it starts after a delimiter there, or at its start, as
      // an option whose value is a pair has it (`--from-literal=password=…`).
      let inner = valueRange
      forEachNested(
        in: UnsafeBufferPointer(rebasing: bytes[inner]), commaSeparated: commaSeparated,
        offset: offset + inner.lowerBound, level: level + 1, body)
    }
  }

  /// Calls `body` with the byte ranges of each pair's name and value, in order.
  ///
  /// It looks for each `=` and reads the name backwards from it: `=` is rarer than what may come
  /// before a name (every space of a text), and the name before an `=` is the whole run of name
  /// characters there. With `commaSeparated`, a `,` also ends a value, as in a header's list
  /// (`Baggage: userId=ada,sessionToken=…`).
  static func forEach(
    in bytes: UnsafeBufferPointer<UInt8>, commaSeparated: Bool = false,
    _ body: (Range<Int>, Range<Int>) -> Void
  ) {
    let count = bytes.count
    // A local copy: the loop then reads the table without the global's lazy-initialisation
    // check.
    let classes = commaSeparated ? Self.listClasses : Self.classes
    var index = 0
    while index < count {
      // memchr passes the bytes without an `=` at full speed, in the debug build `swift test`
      // compiles as well, where eight bytes at a time in Swift ran at 30 MB/s (issue 41).
      guard let sign = Self.next(UInt8(ascii: "="), in: bytes, from: index) else { return }
      index = sign
      guard bytes[index] == UInt8(ascii: "=") else {
        index += 1
        continue
      }
      let nameEnd = index
      index += 1
      var nameStart = nameEnd
      while nameStart > 0, nameEnd - nameStart <= maximumNameLength {
        if classes[Int(bytes[nameStart - 1])] & nameCharacter != 0 {
          nameStart -= 1
        } else if bytes[nameStart - 1] >= 0x80,
          let length = letterLength(before: nameStart, in: bytes)
        {
          // A letter of another script: `пароль=…` is named as `password=…` is.
          nameStart -= length
        } else {
          break
        }
      }
      // The run is whole: what stands before it is no name character, unless the run is too
      // long to be a name.
      let nameLength = nameEnd - nameStart
      guard nameLength >= 1, nameLength <= maximumNameLength else { continue }
      let valueEnd = self.valueEnd(in: bytes, from: index, classes)
      guard valueEnd > index else { continue }
      body(nameStart..<nameEnd, index..<valueEnd)
      // The search goes on after the value, as a regular expression's next match does.
      index = valueEnd
    }
  }

  /// The length of the UTF-8 letter that ends at `end`, or `nil` when the character there is
  /// no letter (white space, a symbol) or no whole character.
  private static func letterLength(before end: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var start = end - 1
    while start > 0, end - start < 4, bytes[start] & 0xC0 == 0x80 { start -= 1 }
    var decoder = UTF8()
    var iterator = UnsafeBufferPointer(rebasing: bytes[start..<end]).makeIterator()
    guard case .scalarValue(let scalar) = decoder.decode(&iterator),
      scalar.utf8.count == end - start, scalar.properties.isAlphabetic
    else { return nil }
    return end - start
  }

  /// Where the value starting at `start` ends: at `&`, `#`, `;`, `"`, `'`, `<`, `>`, `\` or
  /// white space (Unicode's, as ICU's `\s` has it), except that a value runs on over a `&`,
  /// `#` or `;` that starts no pair (see ``continuesValue(after:in:_:)``).
  private static func valueEnd(
    in bytes: UnsafeBufferPointer<UInt8>, from start: Int, _ classes: [UInt8]
  ) -> Int {
    var stop = runEnd(in: bytes, from: start, classes)
    // A value never starts with a delimiter: `token=#x` has none.
    guard stop > start else { return stop }
    while continuesValue(after: stop, in: bytes, classes) {
      stop = runEnd(in: bytes, from: stop + 1, classes)
    }
    return stop
  }

  /// Where the run of value characters from `start` ends (at a byte that ends a value, or at
  /// white space), or, with `stoppingAtSign`, at an `=` first.
  private static func runEnd(
    in bytes: UnsafeBufferPointer<UInt8>, from start: Int, _ classes: [UInt8],
    stoppingAtSign: Bool = false
  ) -> Int {
    var index = start
    let count = bytes.count
    while index < count {
      let byte = bytes[index]
      if byte < 0x80 {
        if classes[Int(byte)] & valueStop != 0 { return index }
        if stoppingAtSign, byte == UInt8(ascii: "=") { return index }
        index += 1
      } else if isWhiteSpace(in: bytes, at: index) {
        return index
      } else {
        index += 1
      }
    }
    return index
  }

  /// Whether the value goes on over the `&`, `#` or `;` at `stop`: a password written in a text
  /// (`password=P@ss#word;1&2`) holds them, and a query's next pair starts after them. It goes
  /// on when value characters follow up to the next end of a value without an `=`, so no pair
  /// is passed over; it stops before white space, another delimiter or the text's end, and
  /// before an HTML character reference (`&amp;`), which a link in a page spells its `&` with.
  private static func continuesValue(
    after stop: Int, in bytes: UnsafeBufferPointer<UInt8>, _ classes: [UInt8]
  ) -> Bool {
    guard stop < bytes.count else { return false }
    let delimiter = bytes[stop]
    guard
      delimiter == UInt8(ascii: "&") || delimiter == UInt8(ascii: "#")
        || delimiter == UInt8(ascii: ";")
    else { return false }
    let next = stop + 1
    let end = runEnd(in: bytes, from: next, classes, stoppingAtSign: true)
    guard end > next, end == bytes.count || bytes[end] != UInt8(ascii: "=") else { return false }
    let isCharacterReference =
      delimiter == UInt8(ascii: "&") && end < bytes.count && bytes[end] == UInt8(ascii: ";")
      && bytes[next..<end].allSatisfy { ASCIIByte.isLetter($0) }
    return !isCharacterReference
  }

  /// Whether a non-ASCII Unicode white space character starts at `index`: U+0085, U+00A0,
  /// U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F or U+3000.
  private static func isWhiteSpace(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
    let first = bytes[index]
    let count = bytes.count
    switch first {
    case 0xC2:
      guard index + 1 < count else { return false }
      return bytes[index + 1] == 0x85 || bytes[index + 1] == 0xA0
    case 0xE1:
      guard index + 2 < count else { return false }
      return bytes[index + 1] == 0x9A && bytes[index + 2] == 0x80
    case 0xE2:
      guard index + 2 < count else { return false }
      let second = bytes[index + 1]
      let third = bytes[index + 2]
      if second == 0x80 {
        return (0x80...0x8A).contains(third) || third == 0xA8 || third == 0xA9 || third == 0xAF
      }
      return second == 0x81 && third == 0x9F
    case 0xE3:
      guard index + 2 < count else { return false }
      return bytes[index + 1] == 0x80 && bytes[index + 2] == 0x80
    default:
      return false
    }
  }

  private static let nameCharacter: UInt8 = 2
  private static let valueStop: UInt8 = 4

  /// What each ASCII byte can be; bytes from 0x80 are value characters unless white space,
  /// and name characters when they spell a letter (``letterLength(before:in:)``).
  private static let classes: [UInt8] = {
    var classes = [UInt8](repeating: 0, count: 256)
    for byte in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.%+-[]".utf8 {
      classes[Int(byte)] |= nameCharacter
    }
    for byte in "&#;\"'<>\\".utf8 { classes[Int(byte)] |= valueStop }
    for byte: UInt8 in [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20] {
      classes[Int(byte)] |= valueStop
    }
    return classes
  }()

  /// ``classes`` with `,` the end of a value, for a header's list.
  private static let listClasses: [UInt8] = {
    var classes = Self.classes
    classes[Int(UInt8(ascii: ","))] |= valueStop
    return classes
  }()
}

/// Finds the user information of URLs in UTF-8 text (`https://user:pass@host` in a `Link`
/// header, an HTML link or a JSON string), byte by byte: the bytes after `://` (or `:\/\/`, as
/// JSON may escape it) up to an `@`, with no `/`, `?`, `#`, `"`, `<`, `>`, `\` or white space
/// among them, as ``LogRedaction`` reads it in a log.
enum EmbeddedUserinfo {
  /// Calls `body` with the byte range of each URL's user information, in order.
  static func forEach(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>) -> Void) {
    let count = bytes.count
    var index = 0
    while index < count {
      // A colon is rare in most bodies: memchr passes the bytes without one at full speed.
      guard let colon = EmbeddedQueryPairs.next(0x3A, in: bytes, from: index) else { return }
      index = colon
      // A JSON body has a colon after every name: the bytes around it turn most away before
      // `holds` is called (a call at `-Onone`, as `UInt8(ascii:)` is), a name's closing quote
      // before it included.
      let slashAfter = index + 1 < count && (bytes[index + 1] == 0x2F || bytes[index + 1] == 0x5C)
      let runBefore = index > 0 && bytes[index - 1] != 0x22 && !stops(bytes[index - 1])
      guard slashAfter || runBefore else {
        index += 1
        continue
      }
      let start: Int
      if slashAfter, bytes.holds("//", at: index + 1) {
        start = index + 3
      } else if slashAfter, bytes.holds(#"\/\/"#, at: index + 1) {
        start = index + 5
      } else if runBefore, let relative = schemeRelativeStart(before: index, in: bytes) {
        // `//ada:…@cdn/x.png`, a URL that takes its page's scheme: the colon found is the
        // user information's own.
        start = relative
      } else {
        index += 1
        continue
      }
      // The authority ends at the last `@` before its end: a password may hold a raw `@`
      // (`https://ada:p@ss@host/`), which no parser would split it at.
      var end = start
      var lastAt: Int?
      while end < count, !stops(bytes[end]) || bytes[end] == 0x40 {
        if bytes[end] == 0x40 { lastAt = end }
        end += 1
      }
      if let lastAt, lastAt > start { body(start..<lastAt) }
      index = max(lastAt ?? end, index + 1)
    }
  }

  /// Where the user information of a scheme-relative URL (`//user:password@host`) holding the
  /// colon at `colon` starts: right after a `//` that opens a value (after a quote, `=`, `(`, `<`,
  /// white space or the text's start), with no `/` between it and the colon.
  private static func schemeRelativeStart(before colon: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> Int?
  {
    var start = colon
    while start > 0, colon - start < 256, !stops(bytes[start - 1]) { start -= 1 }
    guard start >= 2, bytes[start - 1] == UInt8(ascii: "/"), bytes[start - 2] == UInt8(ascii: "/")
    else { return nil }
    guard start == 2 else {
      switch bytes[start - 3] {
      case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "="), UInt8(ascii: "("),
        UInt8(ascii: "<"), 0x09, 0x0A, 0x0D, 0x20:
        return start
      default:
        return nil
      }
    }
    return start
  }

  /// `/`, `?`, `#`, `@`, `"`, `<`, `>`, `\`, or white space.
  private static func stops(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x2F, 0x3F, 0x23, 0x40, 0x22, 0x3C, 0x3E, 0x5C, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20:
      return true
    default:
      return false
    }
  }
}
