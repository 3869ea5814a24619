/// A method call that sets a credential by its name, as a Java or Kotlin builder does
/// (`.password("…")`, `.apiKey('…')`): the method's name names its one argument, a string in
/// quotes, as an assignment's name names its value.
extension TextAssignments {
  /// Each call in `bytes` of a method after a `.` whose argument is one string in quotes on its
  /// line (`.name("…")`), as its name and the range inside the quotes. A call without a
  /// receiver (`token("abc")`) is left: a function of that name is as likely to take a label,
  /// and a value shaped like a credential there is the credential scan's. `memmem` finds each
  /// `("` and `('`, so the bytes between are never visited here.
  static func calls(in bytes: UnsafeBufferPointer<UInt8>) -> [Found] {
    let raw = UnsafeRawBufferPointer(bytes)
    var opens = ByteSearch.ranges(of: Array("(\"".utf8), in: raw).map(\.lowerBound)
    opens += ByteSearch.ranges(of: Array("('".utf8), in: raw).map(\.lowerBound)
    var found: [Found] = []
    for open in opens.sorted() {
      // A setter's two strings (`os.Setenv("API_TOKEN", "…")`) are ``namedStrings(in:)``'s.
      guard let first = quotedString(openingAt: open + 1, in: bytes), !first.isEmpty else {
        continue
      }
      var start = open
      while start > 0, open - start < maximumNameLength, isCallNameByte(bytes[start - 1]) {
        start -= 1
      }
      guard start < open, start > 0, bytes[start - 1] == UInt8(ascii: "."),
        isLetterOrUnderscore(bytes[start]), first.upperBound + 1 < bytes.count,
        bytes[first.upperBound + 1] == UInt8(ascii: ")")
      else { continue }
      found.append((start..<open, first, true, UInt8(ascii: "("), false))
    }
    return found
  }

  /// A letter, digit or `_`: a method's name in the languages that chain builders.
  private static func isCallNameByte(_ byte: UInt8) -> Bool {
    isLetterOrUnderscore(byte) || (0x30...0x39).contains(byte)
  }
}
