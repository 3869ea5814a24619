/// A heredoc as a value: HCL's and a shell's `password = <<EOT`, its lines, then a line holding
/// only `EOT` (`<<-EOT` and `<<~EOT` indent that line, `<<'EOT'` quotes the word). The lines
/// between are the value, so a passphrase of words there is replaced whole and the `<<EOT`
/// stays, keeping the file valid.
extension TextAssignments {
  /// The heredoc that starts at `start`, just past an `=` and the blanks after it: its lines
  /// (without the line break before the closing word) and where the closing word ends; `nil`
  /// when none starts there or it is not closed.
  static func heredoc(at start: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> (body: Range<Int>, end: Int)?
  {
    let count = bytes.count
    guard start + 2 < count, bytes[start] == UInt8(ascii: "<"),
      bytes[start + 1] == UInt8(ascii: "<")
    else { return nil }
    var index = start + 2
    if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "~") { index += 1 }
    let quote = index < count ? bytes[index] : 0
    let isQuoted = quote == UInt8(ascii: "'") || quote == UInt8(ascii: "\"")
    if isQuoted { index += 1 }
    let wordStart = index
    while index < count, index - wordStart < 64, isNameByte(bytes[index]) { index += 1 }
    let word = wordStart..<index
    guard !word.isEmpty, isLetterOrUnderscore(bytes[wordStart]) else { return nil }
    if isQuoted {
      guard index < count, bytes[index] == quote else { return nil }
      index += 1
    }
    while index < count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0D {
      index += 1
    }
    guard index < count, bytes[index] == 0x0A else { return nil }
    let bodyStart = index + 1
    var lineStart = bodyStart
    while lineStart < count {
      let lineEnd = bytes.index(of: 0x0A, in: lineStart..<count) ?? count
      var first = lineStart
      while first < lineEnd, bytes[first] == 0x20 || bytes[first] == 0x09 { first += 1 }
      var last = lineEnd
      while last > first, bytes[last - 1] == 0x0D || bytes[last - 1] == 0x20 { last -= 1 }
      if last - first == word.count, bytes[first..<last].elementsEqual(bytes[word]) {
        var bodyEnd = max(bodyStart, lineStart - 1)
        if bodyEnd > bodyStart, bytes[bodyEnd - 1] == 0x0D { bodyEnd -= 1 }
        return (bodyStart..<bodyEnd, last)
      }
      lineStart = lineEnd + 1
    }
    return nil
  }
}
