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
        if !value.isEmpty, let name = name(before: literal, in: bytes) {
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
