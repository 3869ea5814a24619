/// The rest of a token that a shape names only in part: a run glued to it by `=`, `:` or `~`
/// with no separator between, which reads as random itself. A shape ends where its alphabet
/// does, and a vendor's token may go on past that (Atlassian's `ATATT3x…=8F3A1B2C` checksum,
/// an FCM server key's `AAAA…:` head before `APA91b…`, a JWT whose dots a cookie spelled `~`);
/// masked in part, the rest would print.
enum GluedRuns {
  /// `secret` with every glued random run on either side taken in.
  static func whole(_ secret: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
    var lower = secret.lowerBound
    var upper = secret.upperBound
    while upper + 1 < bytes.count, isGlue(bytes[upper]) {
      var end = upper + 1
      while end < bytes.count, isRunByte(bytes[end]) { end += 1 }
      guard readsRandom(bytes, (upper + 1)..<end, orDigits: true) else { break }
      upper = end
    }
    while lower >= 2, isGlue(bytes[lower - 1]) {
      var start = lower - 1
      while start > 0, isRunByte(bytes[start - 1]) { start -= 1 }
      guard readsRandom(bytes, start..<(lower - 1), orDigits: false) else { break }
      lower = start
    }
    return lower..<upper
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
