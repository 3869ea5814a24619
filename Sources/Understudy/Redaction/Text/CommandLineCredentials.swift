#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Credentials a command line in text passes as options: curl's and httpie's
/// `-u`/`--user`/`-a`/`--auth user:password`, and a credential header given to `--header` or
/// `-H`. A logged or documented command is text no name rule reads as such: `-u ada:…` has no
/// `name=value`, and a header inside quotes after `--header` is no header line.
enum CommandLineCredentials {
  /// The options that take a `user:password` pair: curl's `-u`/`--user` and
  /// `-U`/`--proxy-user`, httpie's `-a`/`--auth`. The expression and its prefilter are built
  /// from this one list.
  private static let userOptions: [StaticString] = [
    "-u", "--user", "-U", "--proxy-user", "-a", "--auth",
  ]

  /// `-u user:password`, `--user=user:password`, `--proxy-user`, httpie's `-a`/`--auth`: the
  /// pair, quoted or not.
  static let userOption = SharedRegex(
    literal: #"(?<![\w-])(?:"# + userOptions.map(\.description).joined(separator: "|")
      + #")(?:[ \t]+|=)(['"]?)([^\s'":]*:[^\s'"]+)\1"#)
  /// A header written in quotes, after any option or none (`-H 'Name: value'`,
  /// `--header="Name: value"`, git's `-c http.extraHeader="Name: value"`, httpie's bare
  /// `'Name: value'`): the byte ranges of the header's name and value, which ends at the
  /// closing quote. A JSON member (`"name": "value"`) has a quote before its `:` and where the
  /// value would start, and is no match.
  ///
  /// Found from each `:` by `memchr`, not by a regular expression: a JSON body has a `:` after
  /// every member name, and one tried at every quote of a 50 MB body cost a second (and its
  /// copy to UTF-16).
  static func quotedHeaders(in bytes: UnsafeBufferPointer<UInt8>) -> [(
    name: Range<Int>, value: Range<Int>
  )] {
    guard let base = bytes.baseAddress else { return [] }
    // Bytes compared as numbers, in place: at `-Onone` (what `swift test` compiles) a helper
    // or `UInt8(ascii:)` is a call, and this reads every colon of a body and the bytes after.
    func isNameByte(_ byte: UInt8) -> Bool {  // letters, digits, _ . -
      (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
        || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F || byte == 0x2E || byte == 0x2D
    }
    let count = bytes.count
    var found: [(name: Range<Int>, value: Range<Int>)] = []
    var from = 0
    while from < count, let hit = memchr(base + from, 0x3A, count - from) {  // :
      let colon = UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - base
      from = colon + 1
      guard colon > 0, isNameByte(bytes[colon - 1]) else { continue }
      var start = colon - 1
      while start > 0, isNameByte(bytes[start - 1]) { start -= 1 }
      // After a quote, ' or ".
      guard start > 0, bytes[start - 1] == 0x27 || bytes[start - 1] == 0x22 else { continue }
      let quote = bytes[start - 1]
      var valueStart = colon + 1
      while valueStart < count, bytes[valueStart] == 0x20 || bytes[valueStart] == 0x09 {
        valueStart += 1
      }
      guard valueStart < count else { break }
      let first = bytes[valueStart]
      // Not a quote, a backslash or white space.
      guard first != 0x27, first != 0x22, first != 0x5C, first > 0x20 else { continue }
      var end = valueStart + 1
      // To a quote, a line feed or a backslash.
      while end < count, bytes[end] != 0x27, bytes[end] != 0x22, bytes[end] != 0x0A,
        bytes[end] != 0x5C
      {
        end += 1
      }
      guard end < bytes.count, bytes[end] == quote else { continue }
      found.append((start..<colon, valueStart..<end))
      from = end + 1
    }
    return found
  }

  /// Whether `bytes` holds a place where ``userOption`` could match: one of its options after
  /// no ASCII word character or `-`, followed by a blank or `=`. The regular expression copies
  /// the whole text to UTF-16 before it looks, which for a body with any `-` in it (a date, a
  /// UUID, a hyphenated word) cost more than every other rule together; `memchr` finds each `-`
  /// at vector speed, and a text none of whose dashes starts an option is never copied.
  static func mayHoldUserOption(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    func isBlankOrEquals(_ offset: Int) -> Bool {
      offset < bytes.count
        && (bytes[offset] == 0x20 || bytes[offset] == 0x09 || bytes[offset] == UInt8(ascii: "="))
    }
    var from = 0
    while let dash = bytes.index(of: UInt8(ascii: "-"), in: from..<bytes.count) {
      from = dash + 1
      if dash > 0 {
        let before = bytes[dash - 1]
        if ASCIIByte.isAlphanumeric(before) || before == UInt8(ascii: "_")
          || before == UInt8(ascii: "-")
        {
          continue
        }
      }
      for option in userOptions
      where bytes.holds(option, at: dash) && isBlankOrEquals(dash + option.utf8CodeUnitCount) {
        return true
      }
    }
    return false
  }

  /// The byte ranges of `text` to replace with placeholders, each with its placeholder name:
  /// every user option's pair (`userinfo`), and each header option's value whose name reads as a
  /// credential's (its name, lower-cased).
  static func ranges(in text: String, headerNames: CredentialName) -> [(
    range: Range<String.Index>, name: String
  )] {
    var found: [(range: Range<String.Index>, name: String)] = []
    var text = text
    if text.withUTF8(mayHoldUserOption) {
      for match in userOption.matches(in: text) {
        if let range = Range(match.range(at: 2), in: text) { found.append((range, "userinfo")) }
      }
    }
    let (headers, passwords) = text.withUTF8 {
      (quotedHeaders(in: $0), ShortPasswordOption.ranges(in: $0))
    }
    guard !headers.isEmpty || !passwords.isEmpty else { return found }
    let utf8 = text.utf8
    func index(_ offset: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
    for password in passwords {
      found.append((index(password.lowerBound)..<index(password.upperBound), "password"))
    }
    // Judged by its bytes through a memo: a JSON body repeats the same few names (`https` of
    // every URL), and judging each anew cost 7,000 instructions at `-Onone`.
    var names = CredentialName.Memo(headerNames)
    for header in headers {
      let isCredential = text.withUTF8 {
        names.matches(utf8: UnsafeBufferPointer(rebasing: $0[header.name]))
      }
      guard isCredential else { continue }
      let nameRange = index(header.name.lowerBound)..<index(header.name.upperBound)
      found.append(
        (
          index(header.value.lowerBound)..<index(header.value.upperBound),
          RedactionPlaceholder.name(from: text[nameRange].lowercased())
        ))
    }
    return found
  }
}
