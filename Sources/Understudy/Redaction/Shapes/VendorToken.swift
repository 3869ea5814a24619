/// A vendor-style token with no fixed prefix the scanner knows: a short prefix (`SG.`, `hvs.`,
/// `dop_v1_`, `pypi-`, `GOCSPX-`, `SK`, `key-`) and a long run of random characters, or a run
/// long and random enough on its own (`EAAC…`, `ATATT3x…`).
///
/// One judgement for the scanner (which refuses the write) and the log masker (which masks what
/// is printed), so what one lets through the other does not either. Vendors invent prefixes
/// faster than a list can follow, so the run after the prefix is what is judged: its length and
/// how random its characters look. The line is drawn just above the identifiers a cassette holds
/// everywhere: a Stripe-style object id (`pi_` and 24 characters), a ULID or TypeID (26
/// characters of one case), a UUID (segments of 8 to 12), a hex digest with no prefix, a hex
/// name before a file extension (`main.3f9a….js`), and words joined by `_`, `-`, `.` or case
/// (`getUserProfileSettingsV2`).
enum VendorToken {
  /// The shortest random segment taken for a secret after a prefix, mixing upper and lower case:
  /// longer than a Stripe object id's 24.
  static let mixedCaseMinimum = 25
  /// The same for a segment of one case and digits: longer than a ULID's or TypeID's 26.
  static let singleCaseMinimum = 27
  /// The shortest segment taken for a secret with no prefix before it.
  static let unprefixedMinimum = 32
  /// A hex segment: as long as an MD5 digest, and only after a prefix, since a bare digest is no
  /// secret.
  static let hexMinimum = 32
  /// The longest prefix: `AGE-SECRET-KEY-1`, `dp.st.prd.`, Airtable's `pat` and 14 characters.
  static let prefixMaximum = 20

  /// Whether `bytes[run]`, a maximal run of letters, digits, `_`, `-` and `.`, is a token; it is
  /// masked whole, prefix and all, since a prefix may hold part of the secret (Airtable's
  /// `pat…` id, Postman's `PMAK-…-`).
  ///
  /// `afterIdentifier`: the run follows a number glued to it by `|`, `:` or `/` (Facebook's
  /// `<app id>|<secret>`, Asana's `1/<user id>:<secret>`), which is its prefix: the run is judged
  /// whole as a prefixed body, its base64url `-` and `_` counted as characters.
  static func isToken(
    in bytes: UnsafeBufferPointer<UInt8>, run: Range<Int>, afterIdentifier: Bool = false
  ) -> Bool {
    // A trace id is random and public: its documented structure tells it, asked only of a run
    // that reads as a token, so the many that do not pay nothing for it.
    readsAsToken(in: bytes, run: run, afterIdentifier: afterIdentifier)
      && !TraceIdentifier.matches(bytes, run)
  }

  private static func readsAsToken(
    in bytes: UnsafeBufferPointer<UInt8>, run: Range<Int>, afterIdentifier: Bool
  ) -> Bool {
    if afterIdentifier, run.count >= mixedCaseMinimum, isPrefixedBody(bytes, run) { return true }
    guard run.count >= 20 else { return false }
    // The prefix runs to the first separator when what stands before it is short.
    var bodyStart = run.lowerBound
    if let first = bytes[run].firstIndex(where: isSeparator),
      first > run.lowerBound, first - run.lowerBound < prefixMaximum
    {
      bodyStart = first + 1
      if isDigestWord(bytes[run.lowerBound..<first]) { return false }
    }
    let prefixed = bodyStart > run.lowerBound
    let body = bodyStart..<run.upperBound
    // A file's name: `main.3f9a….js`, `avatar_5d41….png`.
    if let dot = bytes[body].lastIndex(of: UInt8(ascii: ".")), run.upperBound - dot <= 5,
      dot + 1 < run.upperBound, bytes[dot + 1..<run.upperBound].allSatisfy(ASCIIByte.isLetter)
    {
      return false
    }
    // The body as one run: base64url draws `-` and `_` as characters, one in 32. Words joined
    // by separators, and UUIDs, have one every few characters.
    let separators = bytes[body].reduce(0) { $0 + (isSeparator($1) ? 1 : 0) }
    if separators * 10 <= body.count + 20,
      judges(bytes, body, prefixed: prefixed, beforeExtension: false)
    {
      return true
    }
    var segmentStart = bodyStart
    var index = bodyStart
    while index <= run.upperBound {
      if index == run.upperBound || isSeparator(bytes[index]) {
        let segment = segmentStart..<index
        // A hex name before a file's extension (`main.3f9a….js`) is no key.
        let beforeExtension = index < run.upperBound && bytes[index] == UInt8(ascii: ".")
        if judges(bytes, segment, prefixed: prefixed, beforeExtension: beforeExtension) {
          return true
        }
        segmentStart = index + 1
      }
      index += 1
    }
    // Letters glued to a hex run (`SK` and 32 hex digits, `dapi…`): the letters are the prefix.
    if !prefixed, let hex = hexTail(bytes, run), hex.lowerBound > run.lowerBound,
      hex.lowerBound - run.lowerBound <= 8,
      bytes[run.lowerBound..<hex.lowerBound].allSatisfy(ASCIIByte.isLetter),
      !isDigestWord(bytes[run.lowerBound..<hex.lowerBound]),
      hex.count >= hexMinimum, isRandom(bytes, hex, hex: true)
    {
      return true
    }
    return false
  }

  /// Whether `body`, after a prefix outside it, is a secret: hex of 32 digits or more, or one
  /// base64url run (`-` and `_` its characters, no `.`) long and random enough. Hex segments
  /// split by `-` (a UUID) are judged each alone.
  private static func isPrefixedBody(_ bytes: UnsafeBufferPointer<UInt8>, _ body: Range<Int>)
    -> Bool
  {
    guard !bytes[body].contains(UInt8(ascii: ".")) else { return false }
    if !bytes[body].contains(where: isSeparator)
      || !bytes[body].allSatisfy({
        ASCIIByte.isHexDigit($0) || $0 == UInt8(ascii: "-")
      })
    {
      return judges(
        bytes, body, prefixed: true, beforeExtension: false, countingSeparators: true)
    }
    return false
  }

  /// Whether one segment of a token's body is a secret.
  private static func judges(
    _ bytes: UnsafeBufferPointer<UInt8>, _ segment: Range<Int>, prefixed: Bool,
    beforeExtension: Bool, countingSeparators: Bool = false
  ) -> Bool {
    guard segment.count >= mixedCaseMinimum else { return false }
    var upper = 0
    var lower = 0
    var digits = 0
    var hexLetters = 0
    var length = 0
    for byte in bytes[segment] where !isSeparator(byte) {
      length += 1
      if ASCIIByte.isDigit(byte) {
        digits += 1
      } else if byte >= 0x41, byte <= 0x5A {
        upper += 1
        if byte <= 0x46 { hexLetters += 1 }
      } else {
        lower += 1
        if byte <= 0x66 { hexLetters += 1 }
      }
    }
    let isHex = digits + hexLetters == length && (upper == 0 || lower == 0)
    // A base64url run draws `-` and `_` as characters of its own.
    if countingSeparators, !isHex { length = segment.count }
    if isHex {
      // A digest stands alone, or is named by the prefix beside it (`sha256-`), or is a file's
      // name (`main.3f9a….js`).
      guard prefixed, !beforeExtension, length >= hexMinimum else { return false }
      return isRandom(bytes, segment, hex: true)
    }
    let minimum: Int
    if upper > 0, lower > 0 {
      minimum = prefixed ? mixedCaseMinimum : unprefixedMinimum
      // Words joined by case hold few capitals and few digits (`getUserProfileSettings`); a
      // random token's letters are about half capitals, and one character in six is a digit.
      // Judged by the capitals alone, a random token of 25 characters read as words one time in
      // 140, and went unmasked.
      guard min(upper, lower) * 5 >= upper + lower || digits * 10 >= length else {
        return false
      }
    } else if digits > 0, upper + lower > 0 {
      minimum = prefixed ? singleCaseMinimum : unprefixedMinimum
    } else {
      return false
    }
    return length >= minimum && isRandom(bytes, segment, hex: false)
  }

  /// Whether the characters change class (upper, lower, digit) as often as random ones do:
  /// words, joined by case or written in capitals, run long in one class.
  private static func isRandom(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, hex: Bool)
    -> Bool
  {
    var runs = 1
    var previous = characterClass(bytes[range.lowerBound])
    var length = 1
    var sawUpper = false
    var sawLower = false
    for byte in bytes[range.dropFirst()] where !isSeparator(byte) {
      let current = characterClass(byte)
      if current != previous { runs += 1 }
      previous = current
      length += 1
      if current == 1 { sawUpper = true }
      if current == 2 { sawLower = true }
    }
    // Mean class runs: random base62 about 1.6 (under 2.6 in 99 of 100), words joined by case
    // 3.7; random base36 or hex about 2.4 (under 5.4 in 99 of 100), words in capitals 17.
    let meanRun = Double(length) / Double(runs)
    if hex { return meanRun <= 6 && runs >= 4 }
    return sawUpper && sawLower ? meanRun <= 3 : meanRun <= 6
  }

  /// The shortest piece of text judged random by ``readsAsWords(_:)``: a UUID's first group.
  static let randomPieceMinimum = 8

  /// Whether `text`, what a base64 run decodes to, reads as words: under a quarter of its
  /// letters and digits stand in random pieces (runs of letters and digits of at least
  /// ``randomPieceMinimum`` that change class as random ones do, or hex of both letters and
  /// digits). A page cursor (`{"page":2}`), an SVG, a JWT's header, a document with an id in it
  /// read so; a token's text is mostly its secret (`tok:<uuid>:1:0`, a few fields around 24
  /// random characters), however short each piece is. Base64 inside that is itself text of
  /// words (base64 of base64, an e-mail's MIME part) reads as words.
  static func readsAsWords(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    readsAsWords(text, depth: 0)
  }

  private static func readsAsWords(_ text: UnsafeBufferPointer<UInt8>, depth: Int) -> Bool {
    var alphanumerics = 0
    var random = 0
    var index = 0
    // The end of the last base64 run inside judged as no text of words.
    var judgedThrough = 0
    let count = text.count
    while index < count {
      guard isAlphanumeric(text[index]) else {
        index += 1
        continue
      }
      let start = index
      while index < count, isAlphanumeric(text[index]) { index += 1 }
      alphanumerics += index - start
      guard index - start >= randomPieceMinimum, isRandomPiece(text, start..<index) else {
        continue
      }
      if depth < 3, start >= judgedThrough {
        let run = base64Run(around: start..<index, in: text)
        judgedThrough = run.upperBound
        if run.count >= EncodedTextRuns.minimumLength, let decoded = Base64Run.decode(text, run),
          Base64Run.isText(decoded),
          decoded.withUnsafeBufferPointer({ readsAsWords($0, depth: depth + 1) })
        {
          alphanumerics += run.upperBound - index
          index = run.upperBound
          continue
        }
      }
      random += index - start
    }
    return random * 4 < alphanumerics
  }

  private static func isAlphanumeric(_ byte: UInt8) -> Bool {
    ASCIIByte.isLetter(byte) || ASCIIByte.isDigit(byte)
  }

  /// The run of base64 characters (either alphabet) around `piece`, its padding included.
  private static func base64Run(around piece: Range<Int>, in text: UnsafeBufferPointer<UInt8>)
    -> Range<Int>
  {
    var start = piece.lowerBound
    while start > 0, ASCIIByte.isBase64(text[start - 1]) { start -= 1 }
    var end = piece.upperBound
    while end < text.count, ASCIIByte.isBase64(text[end]) { end += 1 }
    while end < text.count, text[end] == UInt8(ascii: "="), end - piece.upperBound < 2 { end += 1 }
    return start..<end
  }

  /// Whether letters and digits `text[piece]` change class as random ones do: both cases, with
  /// digits (``judges(_:_:prefixed:beforeExtension:)``'s test, a mean class run of at most 3)
  /// or without (a mean class run of at most 2, the fewer case a fifth of the letters or
  /// more), so words joined by case (`DbPassword`, `BedrockAPIKey`) are not; hex of letters and
  /// digits (a UUID's groups); one case with digits otherwise, at least four class runs of mean
  /// 6 or less.
  private static func isRandomPiece(_ text: UnsafeBufferPointer<UInt8>, _ piece: Range<Int>)
    -> Bool
  {
    var upper = 0
    var lower = 0
    var digits = 0
    var hexLetters = 0
    var runs = 0
    var previous: UInt8 = 255
    for byte in text[piece] {
      let current = characterClass(byte)
      if current != previous { runs += 1 }
      previous = current
      switch current {
      case 0: digits += 1
      case 1:
        upper += 1
        if byte <= 0x46 { hexLetters += 1 }
      default:
        lower += 1
        if byte <= 0x66 { hexLetters += 1 }
      }
    }
    let length = piece.count
    if upper > 0, lower > 0 {
      if digits == 0 { return min(upper, lower) * 5 >= upper + lower && length <= 2 * runs }
      guard min(upper, lower) * 5 >= upper + lower || digits * 10 >= length else { return false }
      return length <= 3 * runs
    }
    guard digits > 0, upper + lower > 0 else { return false }
    if hexLetters == upper + lower { return true }
    return runs >= 4 && length <= 6 * runs
  }

  private static func characterClass(_ byte: UInt8) -> UInt8 {
    if ASCIIByte.isDigit(byte) { return 0 }
    return byte <= 0x5A ? 1 : 2
  }

  /// The longest run of hex digits, of one case, that ends `run`.
  private static func hexTail(_ bytes: UnsafeBufferPointer<UInt8>, _ run: Range<Int>)
    -> Range<Int>?
  {
    var start = run.upperBound
    var upper = false
    var lower = false
    while start > run.lowerBound, ASCIIByte.isHexDigit(bytes[start - 1]) {
      let byte = bytes[start - 1]
      if ASCIIByte.isLetter(byte) {
        if byte < 0x60 { upper = true } else { lower = true }
      }
      if upper && lower { break }
      start -= 1
    }
    return start < run.upperBound ? start..<run.upperBound : nil
  }

  static func isSeparator(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
  }

  /// Whether a prefix names a digest or a revision (`sha256-`, `md5_`, `etag-`, `commit-`), whose
  /// hex or base64 is public by design.
  private static func isDigestWord(_ prefix: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
    guard prefix.count <= 8 else { return false }
    let word = String(
      decoding: prefix.map { ASCIIByte.isLetter($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    return digestWords.contains(word)
  }

  private static let digestWords: Set<String> = [
    "sha", "sha1", "sha224", "sha256", "sha384", "sha512", "sha3", "md5", "blake2", "blake2b",
    "blake3", "xxh64", "crc32", "etag", "hash", "digest", "checksum", "commit", "rev", "git",
    "build", "integrity",
  ]
}
