/// The rest of a token that a shape names only in part: a run glued to it with no separator
/// between, which reads as random itself. A shape ends where its alphabet does, and a vendor's
/// token may go on past that (Atlassian's `ATATT3x…=8F3A1B2C` checksum, an FCM server key's
/// `AAAA…:` head before `APA91b…`, a JWT whose dots a cookie spelled `~`), and a percent escape
/// of any character (a base64 token's `%2B`, `%2F` and `%3D`); masked in part, the rest would
/// print.
enum GluedRuns {
  /// `secret` with every glued random run on either side taken in.
  static func whole(_ secret: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
    var lower = secret.lowerBound
    var upper = secret.upperBound
    while let glue = glueLength(at: upper, in: bytes), upper + glue < bytes.count {
      var end = upper + glue
      while end < bytes.count, isRunByte(bytes[end]) { end += 1 }
      guard readsRandom(bytes, (upper + glue)..<end, orDigits: true) else { break }
      upper = end
    }
    while let glue = glueLength(endingAt: lower, in: bytes), lower - glue >= 1 {
      var start = lower - glue
      // Back to the run's start, not into the digits of an escape before it (`%2B`).
      while start > 0, isRunByte(bytes[start - 1]),
        !(start >= 3 && isEscape(at: start - 3, in: bytes))
      {
        start -= 1
      }
      guard readsRandom(bytes, start..<(lower - glue), orDigits: false) else { break }
      lower = start
    }
    return lower..<upper
  }

  /// The length of the glue at `index`: one byte, or a percent escape's three.
  private static func glueLength(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard index < bytes.count else { return nil }
    if isGlue(bytes[index]) { return 1 }
    return isEscape(at: index, in: bytes) ? 3 : nil
  }

  /// The length of the glue that ends at `end`.
  private static func glueLength(endingAt end: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> Int?
  {
    guard end >= 1 else { return nil }
    if isGlue(bytes[end - 1]) { return 1 }
    return end >= 3 && isEscape(at: end - 3, in: bytes) ? 3 : nil
  }

  private static func isEscape(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    ASCIIByte.percentEscaped(in: bytes, at: index) != nil
  }

  private static func isGlue(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "=") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "~")
  }

  private static func isRunByte(_ byte: UInt8) -> Bool {
    ASCIIByte.isLetter(byte) || ASCIIByte.isDigit(byte) || byte == UInt8(ascii: "_")
      || byte == UInt8(ascii: "-")
  }

  /// Six characters or more, with a letter and a digit among them or case changing three times
  /// or more, or ten or more in both cases (`orDigits`: or digits alone, as a checksum after a
  /// token may be): no name (`password=`, `apiKey:`) and no word, but a checksum, a key's head
  /// or a token's part.
  private static func readsRandom(
    _ bytes: UnsafeBufferPointer<UInt8>, _ run: Range<Int>, orDigits: Bool
  ) -> Bool {
    guard run.count >= 6 else { return false }
    var letters = false
    var digits = false
    var upper = false
    var lower = false
    var changes = 0
    var wasUpper: Bool?
    for index in run {
      let byte = bytes[index]
      if ASCIIByte.isDigit(byte) {
        digits = true
      } else if ASCIIByte.isLetter(byte) {
        letters = true
        let isUpper = byte < 0x61
        if isUpper { upper = true } else { lower = true }
        if let wasUpper, wasUpper != isUpper { changes += 1 }
        wasUpper = isUpper
      }
    }
    return letters && digits || changes >= 3 || run.count >= 10 && upper && lower
      || orDigits && digits && !letters
  }
}
