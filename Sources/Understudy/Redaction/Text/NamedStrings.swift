/// A string in quotes with a name just before it, nothing but blanks and at most one comma
/// between: the name names the string, as an assignment's name names its value. One reading for
/// the many languages that set a credential this way: a setter's two arguments
/// (`os.Setenv( "API_TOKEN" , "…" )`, `props.setProperty("password",⏎ "…")`, PHP's
/// `define('AUTH_KEY', '…')`), CMake's `set(API_TOKEN "…")`, an Erlang tuple
/// (`{password, "…"}`, a binary `{password, <<"…">>}` too), a Clojure map (`{:password "…"}`), SQL's `WITH PASSWORD '…'`.
extension TextAssignments {
  /// How far back from a string's opening quote its name may end.
  private static let gapLimit = 64

  /// Each string in quotes on one line in `bytes` that a name stands before, as its name and
  /// the range inside the quotes. A bare name ends in a letter, a digit or `_`, with a blank
  /// after it, and a comma or not (a line break only after a comma: a word that ends one line
  /// of prose names nothing on the next; a CSV row's `token,"…"` is two cells); a name in
  /// quotes is a call's first argument, a comma after it (`["password", "email"]` and
  /// `('token', 'expires_in')` are lists of names, not a name and its value). `memchr` finds each
  /// quote, so the bytes between are never visited here.
  static func namedStrings(in bytes: UnsafeBufferPointer<UInt8>) -> [Found] {
    var found: [Found] = []
    for quote in [UInt8(ascii: "\""), UInt8(ascii: "'")] {
      var from = 0
      while from < bytes.count, let open = bytes.index(of: quote, in: from..<bytes.count) {
        from = open + 1
        guard let value = quotedString(openingAt: open, in: bytes) else { continue }
        from = value.upperBound + 1
        // An Erlang binary's `<<` opens the literal with its quote (`{password, <<"…">>}`).
        let literal =
          open >= 2 && bytes[open - 1] == 0x3C && bytes[open - 2] == 0x3C ? open - 2 : open
        if !value.isEmpty,
          let name = fallbackName(before: literal, in: bytes) ?? name(before: literal, in: bytes)
        {
          found.append((name, value, true, UInt8(ascii: ","), false))
        }
      }
    }
    return found
  }

  /// The contents of the string whose opening quote is at `start`, closed on its line (`\`
  /// escapes the next character), or `nil`. `memchr` finds the closing quote and any line break
  /// before it: a JSON body's every string is asked about, and a loop over its bytes would run
  /// at about 15 MB/s in the debug build `swift test` compiles.
  static func quotedString(openingAt start: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> Range<Int>?
  {
    guard start < bytes.count, bytes[start] == 0x22 || bytes[start] == 0x27 else { return nil }
    let quote = bytes[start]
    var from = start + 1
    while let close = bytes.index(of: quote, in: from..<bytes.count) {
      guard bytes.index(of: 0x0A, in: from..<close) == nil else { return nil }
      var escapes = 0
      while close - escapes - 1 > start, bytes[close - escapes - 1] == UInt8(ascii: "\\") {
        escapes += 1
      }
      if escapes % 2 == 0 { return (start + 1)..<close }
      from = close + 1
    }
    return nil
  }

  /// The name that the blanks and comma before `open` follow, or `nil`.
  private static func name(before open: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
    var end = open
    var comma = false
    var blank = false
    var lineBreak = false
    scan: while end > 0, open - end < gapLimit {
      switch bytes[end - 1] {
      case 0x20, 0x09: blank = true
      case 0x0A, 0x0D: lineBreak = true
      case UInt8(ascii: ",") where !comma: comma = true
      default: break scan
      }
      end -= 1
    }
    guard end > 0, end < open, comma || !lineBreak else { return nil }
    let last = bytes[end - 1]
    if last == 0x22 || last == 0x27 {
      return calledName(closingAt: end - 1, in: bytes, afterComma: comma)
    }
    // A bare name has a blank after it: a CSV row's `token,"…"` is two cells.
    guard blank, isLetterOrUnderscore(last) || (0x30...0x39).contains(last) else { return nil }
    var start = end - 1
    while start > 0, end - start < maximumNameLength, isNameByte(bytes[start - 1]) { start -= 1 }
    while start < end, !isLetterOrUnderscore(bytes[start]) { start += 1 }
    guard start < end, start == 0 || mayPrecedeName(bytes[start - 1]) else { return nil }
    return start..<end
  }

  /// What stands between a lookup and the string a program falls back on when the lookup
  /// finds nothing, blanks taken out: `||`, `??`, PHP's `?:`, Python's `or`, Rust's
  /// `.unwrap_or(` and `.unwrap_or_else(||`, Java's `.orElse(`, Kotlin's and Scala's
  /// `.getOrElse(`, C++'s `.value_or(`, Ruby's `{` block.
  /// Longest first: `||` ends `.unwrap_or_else(||`.
  private static let fallbacks: [StaticString] = [
    ".unwrap_or_else(||", ".or_else(||", ".getOrElse(", ".unwrap_or(", ".value_or(", ".unwrapOr(",
    ".orElse(", "||", "??", "?:", "or", "{",
  ]

  /// The name a lookup reads, when a fallback string follows it (``fallbacks``): the one
  /// quoted argument of a call (`env::var("DB_PASSWORD").unwrap_or("…")`,
  /// `getenv('API_KEY') ?: '…'`, `ENV.fetch("API_TOKEN") { "…" }`), or the member of an
  /// environment (`process.env.API_TOKEN || "…"`). The name names the fallback, as it names
  /// the value a setter's second argument gives (``namedStrings(in:)``), whatever the
  /// variable it is assigned to is called.
  private static func fallbackName(before open: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> Range<Int>?
  {
    var end = open
    while end > 0, isBlank(bytes[end - 1]) { end -= 1 }
    // The connector: asked of every string in quotes, so its last byte decides most.
    guard end > 0, [0x7C, 0x3F, 0x3A, 0x72, 0x7B, 0x28].contains(bytes[end - 1]),
      let connector = fallbacks.first(where: {
        bytes.holds($0, at: end - $0.utf8CodeUnitCount)
      })
    else { return nil }
    end -= connector.utf8CodeUnitCount
    // `or` is a word: `color "…"` names nothing.
    if connector.utf8CodeUnitCount == 2, bytes[end] == UInt8(ascii: "o") {
      guard end > 0, isBlank(bytes[end - 1]) else { return nil }
    }
    while end > 0, isBlank(bytes[end - 1]) { end -= 1 }
    guard end >= 4 else { return nil }
    if bytes[end - 1] == UInt8(ascii: ")") {
      // `("NAME")`: the call's one argument, in quotes, the call perhaps inside another's
      // (`Optional.ofNullable(System.getenv("…")).orElse(…)`).
      if bytes[end - 2] == UInt8(ascii: ")") { end -= 1 }
      let close = end - 2
      guard bytes[close] == 0x22 || bytes[close] == 0x27 else { return nil }
      var start = close
      while start > 0, close - start < maximumNameLength, isNameByte(bytes[start - 1]) {
        start -= 1
      }
      guard start < close, start >= 2, bytes[start - 1] == bytes[close],
        bytes[start - 2] == UInt8(ascii: "("), isLetterOrUnderscore(bytes[start])
      else { return nil }
      return start..<close
    }
    // `env.NAME`: an environment's member.
    var start = end
    while start > 0, end - start < maximumNameLength,
      isLetterOrUnderscore(bytes[start - 1]) || (0x30...0x39).contains(bytes[start - 1])
    {
      start -= 1
    }
    guard start < end, start >= 4, bytes[start - 1] == UInt8(ascii: "."),
      bytes[start - 4] | 0x20 == UInt8(ascii: "e"), bytes[start - 3] | 0x20 == UInt8(ascii: "n"),
      bytes[start - 2] | 0x20 == UInt8(ascii: "v")
    else { return nil }
    return start..<end
  }

  /// The name in the quotes that close at `close`, when they are a call's first argument (a
  /// function's name and its parenthesis before them, blanks between) and a comma follows them.
  private static func calledName(
    closingAt close: Int, in bytes: UnsafeBufferPointer<UInt8>, afterComma: Bool
  ) -> Range<Int>? {
    guard afterComma else { return nil }
    var start = close
    while start > 0, close - start < maximumNameLength, isNameByte(bytes[start - 1]) {
      start -= 1
    }
    guard start < close, start > 0, bytes[start - 1] == bytes[close],
      isLetterOrUnderscore(bytes[start])
    else { return nil }
    var before = start - 1
    while before > 0, isBlank(bytes[before - 1]) { before -= 1 }
    // A call's parenthesis follows the function's name; a tuple's (`('token', 'expires_in')`)
    // does not.
    guard before > 1, bytes[before - 1] == UInt8(ascii: "("),
      isLetterOrUnderscore(bytes[before - 2]) || (0x30...0x39).contains(bytes[before - 2])
    else { return nil }
    return start..<close
  }
}
