/// What keeps a secret out of a placeholder's name.
///
/// A placeholder is named after the field its value stood in (`<redacted:access_token>`), and a
/// field's name is text the request chose: `ghp_…_token`, `X-<key>-Token`, a held name
/// `{"name": "<key>_password"}`. Written into the placeholder, such a name would carry the very
/// secret the placeholder hides, into cassettes and every report. So a derived name is judged as
/// a value is: a known value in any spelling (``KnownValues/forNames``, case-insensitive), a
/// credential shape (``CredentialShape``, vendor tokens included), or a long random-looking run;
/// a name holding any of these becomes the credential word that made the field a credential's
/// (`token`, `password`, `api_key`), or `secret` when no word did.
package enum PlaceholderNameGate {
  /// `name` when it holds no secret, else its generic form.
  static func safe(_ name: String) -> String {
    guard holdsSecret(name) else { return name }
    let generic = genericName(for: name)
    return holdsSecret(generic) ? "redacted" : generic
  }

  /// Whether `name` holds a known value, a credential shape or a random-looking run.
  package static func holdsSecret(_ name: String) -> Bool {
    // Words and separators only: the names of nearly every field, decided without a scan.
    if name.utf8.count < 16 && !mayHoldKnownValue { return false }
    var lowered = name.lowercased()
    if KnownValues.forNames.occurs(in: lowered) { return true }
    var original = name
    return original.withUTF8 { isSecretShaped($0) } || lowered.withUTF8 { isSecretShaped($0) }
  }

  /// Whether any known value is short enough to hide in a short name.
  private static var mayHoldKnownValue: Bool { !KnownValues.forNames.isEmpty }

  /// ``safe(_:)`` by shape alone, for a name a test or the environment chose (a declared
  /// value's, a variable's, a body pattern's): a `ghp_…` token given as a name by mistake
  /// becomes the generic name its words give. It asks nothing of the known values, so the
  /// code that declares them may call it.
  static func safeByShape(_ name: String) -> String {
    guard isShapedLikeSecret(name) else { return name }
    let generic = genericName(for: name)
    return isShapedLikeSecret(generic) ? "redacted" : generic
  }

  private static func isShapedLikeSecret(_ name: String) -> Bool {
    guard name.utf8.count >= 16 else { return false }
    var original = name
    var lowered = name.lowercased()
    return original.withUTF8 { isSecretShaped($0) } || lowered.withUTF8 { isSecretShaped($0) }
  }

  private static func isSecretShaped(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    !CredentialShape.find(in: bytes, nameContext: true).isEmpty || hasRandomRun(bytes)
  }

  /// A run of letters and digits, 16 or more, that mixes them as a generated value does: at
  /// least three of each and four changes between them. Words (`accesstoken`) and words with a
  /// version (`oauth2`, `sha256`) stay far below.
  static func hasRandomRun(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var start = 0
    while start < bytes.count {
      guard ASCIIByte.isLetter(bytes[start]) || ASCIIByte.isDigit(bytes[start]) else {
        start += 1
        continue
      }
      var end = start
      var letters = 0
      var digits = 0
      var changes = 0
      var previousIsDigit: Bool?
      while end < bytes.count, ASCIIByte.isLetter(bytes[end]) || ASCIIByte.isDigit(bytes[end]) {
        let isDigit = ASCIIByte.isDigit(bytes[end])
        if isDigit { digits += 1 } else { letters += 1 }
        if let previousIsDigit, previousIsDigit != isDigit { changes += 1 }
        previousIsDigit = isDigit
        end += 1
      }
      if end - start >= 16, letters >= 3, digits >= 3, changes >= 4 { return true }
      start = end
    }
    return false
  }

  /// The credential word of `name`, read from its end: `token` for `ghp_…_token`, `api_key`
  /// for `x-<key>-api-key`, `password` for `dbpassword`; `secret` when none is found.
  static func genericName(for name: String) -> String {
    let words = name.lowercased().split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
      .map(String.init)
    for (index, word) in words.enumerated().reversed() {
      if word == "key" {
        return index > 0 && words[index - 1] == "api" ? "api_key" : "key"
      }
      if CredentialWords.heads.contains(word) { return word }
      if let ending = CredentialWords.runTogetherEndings.sorted(by: { $0.count > $1.count })
        .first(where: { word.hasSuffix($0) }), !CredentialWords.ordinaryWords.contains(word)
      {
        return ending
      }
    }
    return "secret"
  }
}
