import Foundation

/// The string values of a JSON document that hold text of their own: JSON sent as a string (at
/// any depth of escaping), markup, a quoted command, prose that may name a credential beside its
/// value, or a pair at the string's start, which the rules reading the document's raw bytes see
/// only escaped, cut off by the string's quote, or as part of one long line.
/// Redaction decodes each, reads it as a text body, and writes it back escaped.
enum JSONStringText {
  /// The ranges of such strings in the valid JSON document `bytes`, quotes included, in order.
  ///
  /// `memchr` finds each quote, so the bytes between strings are never visited in Swift; inside
  /// a string only the bytes that decide whether it holds text are looked at.
  static func ranges(in bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
    var found: [Range<Int>] = []
    var index = 0
    while let open = next(UInt8(ascii: "\""), in: bytes, from: index) {
      guard let close = closingQuote(after: open, in: bytes) else { break }
      index = close + 1
      let contents = (open + 1)..<close
      guard !contents.isEmpty, !isMemberName(endingAt: close, in: bytes),
        holdsText(contents, in: bytes)
      else { continue }
      found.append(open..<(close + 1))
    }
    return found
  }

  /// Whether the string's contents may read differently decoded: JSON (`{`, `[` first), a
  /// `data:` URL, markup (`<`, character references), an escaped quote (JSON or a quoted argument inside), or a `name=` at its start, which
  /// a pair search in the raw bytes does not take after a quote.
  private static func holdsText(_ contents: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>)
    -> Bool
  {
    let first = bytes[contents.lowerBound]
    if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") { return true }
    // Rebased by hand: a slice's bounds are generic calls at `-Onone`, once a string.
    guard let base = bytes.baseAddress else { return false }
    let slice = UnsafeBufferPointer(
      start: base + contents.lowerBound, count: contents.upperBound - contents.lowerBound)
    // A `data:` URL holds a body of its own (``DataURL``).
    if slice.count > 5, slice[4] == 0x3A, slice[0] | 0x20 == UInt8(ascii: "d"),
      slice[1] | 0x20 == UInt8(ascii: "a"), slice[2] | 0x20 == UInt8(ascii: "t"),
      slice[3] | 0x20 == UInt8(ascii: "a")
    {
      return true
    }
    if next(UInt8(ascii: "<"), in: slice, from: 0) != nil { return true }
    // Markup's character references (`&quot;password&quot;`, `&#123;`), which may spell JSON or
    // a pair that only reads decoded: an `&`, then `#` or a letter, and a `;` within ten bytes.
    var ampersandFrom = 0
    while let ampersand = next(UInt8(ascii: "&"), in: slice, from: ampersandFrom) {
      ampersandFrom = ampersand + 1
      guard ampersand + 2 < slice.count else { break }
      let after = slice[ampersand + 1] | 0x20
      if after == UInt8(ascii: "#") || (after >= 0x61 && after <= 0x7A),
        let semicolon = next(UInt8(ascii: ";"), in: slice, from: ampersand + 2),
        semicolon - ampersand <= 10
      {
        return true
      }
    }
    // Base64 or hex of text (an AWS Lambda event's `body`, an OAuth `state`), which the body
    // rules open: its first 64 characters tell, so a long blob is not visited here in Swift.
    if slice.count >= 24, startsBase64(slice) { return true }
    // An ASCII character escaped as `\u00XX` (Go writes `&`, `<`, `>` and `=` so): the text
    // reads differently decoded (`?a=1\u0026token=…`). Or an escaped quote, at a backslash that
    // starts an escape. Both are read at each backslash `memchr` finds, in one loop.
    var from = 0
    var escapeFrom = 0
    while let slash = next(0x5C, in: slice, from: from) {
      if slice.count >= 6, slash + 4 <= slice.count, slice[slash + 1] == 0x75,
        slice[slash + 2] == 0x30, slice[slash + 3] == 0x30
      {
        return true  // \u00
      }
      if slash >= escapeFrom {
        if slash + 1 < slice.count, slice[slash + 1] == 0x22 { return true }  // \"
        escapeFrom = slash + 2
      }
      from = slash + 1
    }
    // Prose can name a credential beside its value (`password is …`, `use token … to log in`),
    // which the credential-line rule reads on a line of its own, and to which a JSON document is
    // one line of members. Such prose holds a blank and a random-looking value, so a digit;
    // `memchr` tells, and most strings (names, ids, URLs, sentences without digits) fail one.
    if slice.count >= CredentialLines.minimumLength + 4,
      next(UInt8(ascii: " "), in: slice, from: 0) != nil, holdsDigit(slice)
    {
      return true
    }
    // The name may be the last run of a longer one that `/`, `:` or `@` divide, as an `.npmrc`
    // line's `//registry.npmjs.org/:_authToken=…` is (its `/` escaped as `\/` or not). Most
    // strings hold no `=`, and `memchr` says so without a loop over their bytes in Swift, which
    // the debug build `swift test` compiles runs at 15 MB/s.
    guard next(UInt8(ascii: "="), in: slice, from: 0) != nil else { return false }
    var nameEnd = 0
    var runStart = 0
    let maximumNameLength = EmbeddedQueryPairs.maximumNameLength
    while nameEnd < slice.count, nameEnd - runStart <= maximumNameLength,
      nameEnd <= 4 * maximumNameLength
    {
      // A `/`, `:` or `@` (or the `\` JSON may escape a `/` with) divides the name; letters,
      // digits and `_.~%+-[]` make it up. Compared here, not by a function per class: each call
      // costs `-Onone` (what `swift test` compiles) more than the comparisons.
      let byte = slice[nameEnd]
      if byte == 0x2F || byte == 0x3A || byte == 0x40 || byte == 0x5C {
        runStart = nameEnd + 1
      } else if !((byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
        || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F || byte == 0x2E || byte == 0x7E
        || byte == 0x25 || byte == 0x2B || byte == 0x2D || byte == 0x5B || byte == 0x5D)
      {
        break
      }
      nameEnd += 1
    }
    if nameEnd > runStart && nameEnd < slice.count && slice[nameEnd] == UInt8(ascii: "=") {
      return true
    }
    // A pair inside an object's printed form: Kotlin's and Lombok's `Creds(token=…)`,
    // `User{name=ada,password=…}`, a list's `[key=…]`. Each `=` found by `memchr` is looked at
    // once: a name right before it, and an opening or a separator before the name.
    var after = 0
    while let equals = next(UInt8(ascii: "="), in: slice, from: after) {
      after = equals + 1
      var start = equals
      while start > 0, equals - start < maximumNameLength {
        // Letters, digits and `_.%+-[]`, compared here as above.
        let byte = slice[start - 1]
        guard
          (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
            || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F || byte == 0x2E || byte == 0x25
            || byte == 0x2B || byte == 0x2D || byte == 0x5B || byte == 0x5D
        else { break }
        start -= 1
      }
      guard start < equals, start > 0 else { continue }
      // What stands before a field's name in an object's printed form or a signed token's
      // fields: `(`, `{`, `[`, `,`, `~` or `|`.
      let before = slice[start - 1]
      if before == 0x28 || before == 0x7B || before == 0x5B || before == 0x2C || before == 0x7E
        || before == 0x7C
      {
        return true
      }
    }
    return false
  }

  /// Whether the first 64 bytes (or all) are base64's, `=` included: a loop, not a closure,
  /// which the debug build would call for each byte.
  private static func startsBase64(_ slice: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    let end = min(slice.count, 64)
    while index < end {
      // Letters, digits, `+/-_=`, compared here: a call per byte costs `-Onone` more.
      let byte = slice[index]
      guard
        ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
          || byte == 0x2B || byte == 0x2F || byte == 0x2D || byte == 0x5F || byte == 0x3D
      else { return false }
      index += 1
    }
    return true
  }

  private static func holdsDigit(_ slice: UnsafeBufferPointer<UInt8>) -> Bool {
    var digit = UInt8(ascii: "0")
    while digit <= UInt8(ascii: "9") {
      if let base = slice.baseAddress, memchr(base, Int32(digit), slice.count) != nil {
        return true
      }
      digit += 1
    }
    return false
  }

  /// Whether the string closing at `close` is a member's name: a `:` follows it.
  private static func isMemberName(endingAt close: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> Bool
  {
    var index = close + 1
    let count = bytes.count
    // Space, tab, line feed, carriage return; then `:`.
    while index < count,
      bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D
    {
      index += 1
    }
    return index < count && bytes[index] == 0x3A
  }

  /// The quote closing the string opened at `open`: the next one after an even run of
  /// backslashes.
  static func closingQuote(after open: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var from = open + 1
    while let quote = next(UInt8(ascii: "\""), in: bytes, from: from) {
      var slashes = 0
      while quote - slashes - 1 > open, bytes[quote - slashes - 1] == 0x5C {  // \
        slashes += 1
      }
      if slashes % 2 == 0 { return quote }
      from = quote + 1
    }
    return nil
  }

  /// The offset of the first `byte` at or after `start`, by `memchr` called here: each level
  /// of calls around it costs a debug build more than `memchr` spends on a short string.
  private static func next(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int)
    -> Int?
  {
    guard start < bytes.count, let base = bytes.baseAddress,
      let found = memchr(base + start, Int32(byte), bytes.count - start)
    else { return nil }
    return UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base
  }
}
