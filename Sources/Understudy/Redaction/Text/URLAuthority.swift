/// Where the authority of a URL's text lies (user information, host and port), found in the
/// text itself: what is logged or redacted may be no URL Foundation would parse.
struct URLAuthority {
  /// From after `scheme://` (or a leading `//`) to the first `/`, `?` or `#`, or the end.
  let range: Range<String.Index>
  /// The last `@` in it, which ends the user information, if there is one.
  let userInformationEnd: String.Index?

  /// The authority of `url`, or `nil` when it has none: its scheme (letters first, then
  /// letters, digits, `+`, `-` and `.`) is not followed by `//`, or it has neither a scheme nor
  /// a leading `//` (a network-path reference such as `//host/path`).
  init?(in url: String) {
    let utf8 = url.utf8
    let start: String.Index
    if Self.hasScheme(url) {
      let colon = utf8.firstIndex(of: UInt8(ascii: ":"))!
      guard utf8[utf8.index(after: colon)...].starts(with: "//".utf8) else { return nil }
      start = utf8.index(colon, offsetBy: 3)
    } else if utf8.starts(with: "//".utf8) {
      start = utf8.index(utf8.startIndex, offsetBy: 2)
    } else {
      return nil
    }
    let end = utf8[start...].firstIndex { "/?#".utf8.contains($0) } ?? utf8.endIndex
    range = start..<end
    userInformationEnd = utf8[start..<end].lastIndex(of: UInt8(ascii: "@"))
  }

  /// Whether `url` begins with a scheme and its `:`.
  static func hasScheme(_ url: String) -> Bool {
    let utf8 = url.utf8
    guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")), let first = utf8.first,
      ASCIIByte.isLetter(first)
    else { return false }
    return utf8[..<colon].allSatisfy(ASCIIByte.isSchemeCharacter)
  }
}
