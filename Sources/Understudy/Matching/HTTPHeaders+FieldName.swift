extension HTTPHeaders {
  /// Why `name` cannot be an HTTP field name (RFC 9110's token: letters, digits and
  /// `!#$%&'*+-.^_`|~`), or `nil`. No server can send such a header and no client sends one, so
  /// a stub that sets it would answer what no server could, and a pattern on it would never
  /// match.
  package static func nameProblem(_ name: String) -> String? {
    guard name.isEmpty || !name.utf8.allSatisfy(ASCIIByte.isTokenCharacter) else { return nil }
    return "the header name \(QuotedValue.quoted(name.oneLine)) is not a valid HTTP field name "
      + "(letters, digits and !#$%&'*+-.^_`|~ only)"
  }
}
