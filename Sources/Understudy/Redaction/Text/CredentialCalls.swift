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
      // The string the parenthesis opens: a name a second string follows, or a builder's one
      // argument.
      guard let first = quoted(from: open + 1, in: bytes), !first.isEmpty else { continue }
      if first.count <= maximumNameLength, let value = secondArgument(after: first, in: bytes) {
        found.append((first, value, true, UInt8(ascii: "("), false))
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

  /// The string after `first` and a `,` in a call whose first argument is a name in quotes:
  /// a setter that takes the name it sets, with or without a receiver
  /// (`os.Setenv("API_TOKEN", "…")`, `props.setProperty("password", "…")`,
  /// `headers.set('Authorization', '…')`). The first string is the name, this one its value.
  private static func secondArgument(after first: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>)
    -> Range<Int>?
  {
    var index = first.upperBound + 1
    while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
    guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return nil }
    index += 1
    while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
    guard let value = quoted(from: index, in: bytes), !value.isEmpty else { return nil }
    return value
  }

  /// The contents of the string whose opening quote (`"` or `'`) is at `start`, on its line.
  private static func quoted(from start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
    guard start < bytes.count, bytes[start] == 0x22 || bytes[start] == 0x27 else { return nil }
    let quote = bytes[start]
    var end = start + 1
    while end < bytes.count, bytes[end] != quote, bytes[end] != 0x0A {
      end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
    }
    guard end < bytes.count, bytes[end] == quote else { return nil }
    return (start + 1)..<end
  }

  /// A letter, digit or `_`: a method's name in the languages that chain builders.
  private static func isCallNameByte(_ byte: UInt8) -> Bool {
    isLetterOrUnderscore(byte) || (0x30...0x39).contains(byte)
  }
}
