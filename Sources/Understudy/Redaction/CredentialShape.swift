/// A credential-shaped run of bytes: `whole` from its label (`Bearer `, `ghp_`) to its end,
/// `secret` the part after the label.
struct CredentialShape {
  let kind: CredentialKind
  let whole: Range<Int>
  let secret: Range<Int>
}

extension CredentialShape {
  /// Every credential shape in `bytes`, in order, without overlaps.
  ///
  /// Scans UTF-8 bytes once, trying the detectors only where one can start (the first byte of a
  /// word, a `-` or a `:`), so a large body costs a table lookup per byte; the old per-string
  /// regular expressions ran at about 1 MB/s. `nameContext` is the `name` beside a `value`
  /// (a header's name): an AWS secret key is told from any other 40 characters of base64 only
  /// by a name that says `aws` or `secret` nearby.
  static func find(in bytes: UnsafeBufferPointer<UInt8>, nameContext: Bool = false)
    -> [CredentialShape]
  {
    var scanner = ShapeScanner(bytes: bytes)
    return scanner.run(nameContext: nameContext)
  }

  /// The byte ranges of the placeholders in `bytes`, both spellings.
  static func placeholders(in bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
    let scanner = ShapeScanner(bytes: bytes)
    var spans: [Range<Int>] = []
    var index = 0
    while index < bytes.count {
      let opening = bytes[index]
      if opening == UInt8(ascii: "<") || opening == UInt8(ascii: "%"),
        index + 1 < bytes.count, let end = scanner.placeholderEnd(wordAt: index + 1)
      {
        spans.append(index..<end)
        index = end
      } else {
        index += 1
      }
    }
    return spans
  }

  /// Whether `text` mentions `aws` or `secret` in any case, the names beside an AWS secret key.
  static func namesAWSSecret(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { ShapeScanner(bytes: $0).keywordPositions().isEmpty == false }
  }
}

/// The state of one scan; a struct over a buffer so the hot loop stays free of reference
/// counting and bounds-checked `String` indexing.
private struct ShapeScanner {
  let bytes: UnsafeBufferPointer<UInt8>
  var count: Int { bytes.count }
  /// ``ByteClass/table``, read through a pointer taken once: the detectors read it per byte,
  /// and each read of the global paid its lazy-initialisation check (`swift_once`), a call.
  private let classes: UnsafePointer<UInt8>

  init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    classes = ByteClass.pointer
  }

  func isWord(_ byte: UInt8) -> Bool { classes[Int(byte)] & ByteClass.word != 0 }
  func isBase64(_ byte: UInt8) -> Bool { classes[Int(byte)] & ByteClass.base64 != 0 }
  func isURLSafeBase64(_ byte: UInt8) -> Bool { classes[Int(byte)] & ByteClass.urlSafe != 0 }
  func isTokenCharacter(_ byte: UInt8) -> Bool { classes[Int(byte)] & ByteClass.token != 0 }

  mutating func run(nameContext: Bool) -> [CredentialShape] {
    // Through a pointer, the loop reads the table without the global's lazy-initialisation
    // check or a bounds check per byte.
    var found = ByteClass.table.withUnsafeBufferPointer { shapes(table: $0) }
    found += awsSecretKeys(nameContext: nameContext, avoiding: found)
    return found.sorted { $0.whole.lowerBound < $1.whole.lowerBound }
  }

  /// The shapes found from the first byte of a word, a `-` or a `:`, in order.
  private func shapes(table: UnsafeBufferPointer<UInt8>) -> [CredentialShape] {
    var found: [CredentialShape] = []
    var index = 0
    while index < count {
      let byte = bytes[index]
      let flags = table[Int(byte)]
      if flags & ByteClass.word != 0 {
        // Only a word starting with the first two letters of some shape (or placeholder) is
        // looked at further: prose and JSON start many words with those first letters.
        if flags & ByteClass.shapeStart != 0,
          Self.mayStart(byte, index + 1 < count ? bytes[index + 1] : 0)
        {
          if let placeholderEnd = placeholderEnd(wordAt: index) {
            index = placeholderEnd
            continue
          }
          if let shape = shape(at: index) {
            found.append(shape)
            index = shape.whole.upperBound
            continue
          }
        }
        index += 1
        while index < count, table[Int(bytes[index])] & ByteClass.word != 0 { index += 1 }
        continue
      }
      if byte == UInt8(ascii: "-"), let shape = privateKey(at: index) {
        found.append(shape)
        index = shape.whole.upperBound
        continue
      }
      // A percent escape ends a word: `%20ghp_…` and `%3DeyJ…` start a token after it, and a
      // URL or form value spells a token's neighbours that way.
      if byte == UInt8(ascii: "%"), index + 2 < count, ASCIIByte.isHexDigit(bytes[index + 1]),
        ASCIIByte.isHexDigit(bytes[index + 2])
      {
        index = placeholderEnd(wordAt: index + 1) ?? index + 3
        continue
      }
      // A JSON body has a `:` after every member name; only `://` can start user information.
      if byte == UInt8(ascii: ":"), index + 1 < count, bytes[index + 1] == UInt8(ascii: "/"),
        let shape = userinfo(colonAt: index)
      {
        found.append(shape)
        index = shape.whole.upperBound
        continue
      }
      index += 1
    }
    return found
  }

  /// Whether a word whose first two bytes are `first` and `second` can start what
  /// ``placeholderEnd(wordAt:)`` or ``shape(at:)`` looks for: a superset (the second letter
  /// compared in any case) of the prefixes they test, which each then checks exactly.
  @inline(__always)
  static func mayStart(_ first: UInt8, _ second: UInt8) -> Bool {
    let second = second | 0x20
    switch first {
    case UInt8(ascii: "A"):  // AKIA, ASIA, AIza
      return second == UInt8(ascii: "k") || second == UInt8(ascii: "s")
        || second == UInt8(ascii: "i")
    case UInt8(ascii: "g"):  // github_pat_, gho_ and kin, glpat-
      return second == UInt8(ascii: "i") || second == UInt8(ascii: "h")
        || second == UInt8(ascii: "l")
    case UInt8(ascii: "x"):  // xoxb- and kin
      return second == UInt8(ascii: "o")
    case UInt8(ascii: "s"):  // sk_live_, sk-
      return second == UInt8(ascii: "k")
    case UInt8(ascii: "r"), UInt8(ascii: "R"):  // rk_live_, redacted:
      return second == UInt8(ascii: "k") || second == UInt8(ascii: "e")
    case UInt8(ascii: "3"):  // 3Credacted
      return second == UInt8(ascii: "c")
    case UInt8(ascii: "n"):  // npm_
      return second == UInt8(ascii: "p")
    case UInt8(ascii: "e"):  // eyJ, ewo (JWT headers)
      return second == UInt8(ascii: "y") || second == UInt8(ascii: "w")
    case UInt8(ascii: "b"), UInt8(ascii: "B"):  // Bearer, Basic
      return second == UInt8(ascii: "e") || second == UInt8(ascii: "a")
    case UInt8(ascii: "t"), UInt8(ascii: "T"):  // Token
      return second == UInt8(ascii: "o")
    default:
      return false
    }
  }

  // MARK: Detectors that start at the first byte of a word

  /// The shape starting at `start`, the first byte of a word; most specific first, so a JWT
  /// after `Bearer ` is reported as a JWT.
  func shape(at start: Int) -> CredentialShape? {
    if let specific = specificShape(at: start) { return specific }
    switch bytes[start] | 0x20 {
    case UInt8(ascii: "b"):
      return authorization("bearer", .bearerToken, at: start)
        ?? authorization("basic", .basicCredentials, at: start)
    case UInt8(ascii: "t"):
      return authorization("token", .tokenCredentials, at: start)
    default:
      return nil
    }
  }

  /// Shapes recognised by a fixed prefix.
  func specificShape(at start: Int) -> CredentialShape? {
    switch bytes[start] {
    case UInt8(ascii: "A"):
      if has("AKIA", at: start) || has("ASIA", at: start) {
        return fixed(.awsAccessKey, at: start, label: 4, length: 16, ByteClass.isUpperOrDigit)
      }
      if has("AIza", at: start) {
        return fixed(.googleAPIKey, at: start, label: 4, length: 35, { isURLSafeBase64($0) })
      }
    case UInt8(ascii: "g"):
      if has("github_pat_", at: start) {
        return open(.gitHubToken, at: start, label: 11, minimum: 20, { isWord($0) })
      }
      if has("gh", at: start), start + 3 < count, bytes[start + 3] == UInt8(ascii: "_"),
        "opusr".utf8.contains(bytes[start + 2])
      {
        return open(.gitHubToken, at: start, label: 4, minimum: 20, { isWord($0) })
      }
      if has("glpat-", at: start) {
        return open(.gitLabToken, at: start, label: 6, minimum: 20, { isURLSafeBase64($0) })
      }
    case UInt8(ascii: "x"):
      if has("xox", at: start), start + 4 < count, bytes[start + 4] == UInt8(ascii: "-"),
        "abprs".utf8.contains(bytes[start + 3])
      {
        return open(.slackToken, at: start, label: 5, minimum: 10, ByteClass.isAlphanumericOrDash)
      }
    case UInt8(ascii: "s"), UInt8(ascii: "r"):
      // Every prefix below has a `k` second; most words starting with `s` or `r` do not.
      guard start + 1 < count, bytes[start + 1] == UInt8(ascii: "k") else { break }
      for prefix in Self.stripePrefixes where has(prefix, at: start) {
        return open(.stripeKey, at: start, label: 8, minimum: 10, ByteClass.isAlphanumeric)
      }
      for prefix in Self.openAIPrefixes where has(prefix, at: start) {
        return open(
          .openAIKey, at: start, label: prefix.utf8CodeUnitCount, minimum: 20,
          { isURLSafeBase64($0) })
      }
    case UInt8(ascii: "n"):
      if has("npm_", at: start) {
        return fixed(.npmToken, at: start, label: 4, length: 36, ByteClass.isAlphanumeric)
      }
    case UInt8(ascii: "e"):
      return jsonWebToken(at: start)
    default:
      break
    }
    return nil
  }

  private static let stripePrefixes: [StaticString] = [
    "sk_live_", "sk_test_", "rk_live_", "rk_test_",
  ]
  private static let openAIPrefixes: [StaticString] = [
    "sk-proj-", "sk-svcacct-", "sk-admin-", "sk-",
  ]

  /// `label` then exactly `length` bytes of `allowed`, not followed by another.
  func fixed(
    _ kind: CredentialKind, at start: Int, label: Int, length: Int, _ allowed: (UInt8) -> Bool
  ) -> CredentialShape? {
    let end = run(from: start + label, allowed)
    guard end - start - label == length, end == count || !isWord(bytes[end]) else {
      return nil
    }
    return CredentialShape(kind: kind, whole: start..<end, secret: start + label..<end)
  }

  /// `label` then at least `minimum` bytes of `allowed`.
  func open(
    _ kind: CredentialKind, at start: Int, label: Int, minimum: Int, _ allowed: (UInt8) -> Bool
  ) -> CredentialShape? {
    let end = run(from: start + label, allowed)
    guard end - start - label >= minimum else { return nil }
    return CredentialShape(kind: kind, whole: start..<end, secret: start + label..<end)
  }

  /// Three base64url segments joined by dots whose first decodes to a JSON object: a JWT with
  /// any header (`eyJ…` for `{"`, `ewo…` for `{` and a newline); the signature may be empty.
  func jsonWebToken(at start: Int) -> CredentialShape? {
    guard start + 1 < count,
      bytes[start + 1] == UInt8(ascii: "y") || bytes[start + 1] == UInt8(ascii: "w")
    else { return nil }
    let headerEnd = run(from: start, class: ByteClass.urlSafe)
    guard headerEnd - start >= 8, headerEnd < count, bytes[headerEnd] == UInt8(ascii: ".") else {
      return nil
    }
    let payloadEnd = run(from: headerEnd + 1, class: ByteClass.urlSafe)
    guard payloadEnd > headerEnd + 1, payloadEnd < count, bytes[payloadEnd] == UInt8(ascii: ".")
    else { return nil }
    let end = run(from: payloadEnd + 1, class: ByteClass.urlSafe)
    guard decodesToJSONObject(start..<headerEnd) else { return nil }
    return CredentialShape(kind: .jsonWebToken, whole: start..<end, secret: start + 3..<end)
  }

  /// Whether base64url `range` decodes to text that starts with `{` and ends with `}`.
  func decodesToJSONObject(_ range: Range<Int>) -> Bool {
    var text = String(decoding: bytes[range], as: UTF8.self)
      .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    if text.utf8.count % 4 != 0 { text += String(repeating: "=", count: 4 - text.utf8.count % 4) }
    guard let data = Data(base64Encoded: text) else { return false }
    let trimmed = data.filter { !ByteClass.isSpace($0) }
    return trimmed.first == UInt8(ascii: "{") && trimmed.last == UInt8(ascii: "}")
  }

  /// An authorization scheme word (`Bearer`, `Basic`, `Token`, any case), white space, and a
  /// credential. A `Token` credential must mix letters and digits, and a `Basic` one must
  /// decode to `user:password`, so prose such as "token authentication" or "Basic plan" is not
  /// reported.
  func authorization(_ scheme: StaticString, _ kind: CredentialKind, at start: Int)
    -> CredentialShape?
  {
    guard hasIgnoringCase(scheme, at: start) else { return nil }
    var secretStart = start + scheme.utf8CodeUnitCount
    guard secretStart < count, ByteClass.isSpace(bytes[secretStart]) else { return nil }
    while secretStart < count, ByteClass.isSpace(bytes[secretStart]) { secretStart += 1 }
    guard secretStart < count else { return nil }
    if isWord(bytes[secretStart]), let specific = specificShape(at: secretStart) {
      return specific
    }
    var end = run(
      from: secretStart, class: kind == .basicCredentials ? ByteClass.base64 : ByteClass.token)
    let body = end - secretStart
    var padding = 0
    while end < count, bytes[end] == UInt8(ascii: "="),
      padding < (kind == .basicCredentials ? 2 : 64)
    {
      end += 1
      padding += 1
    }
    // A value masked already right after the run stands for characters the run went on with
    // (`Bearer abc123password=••••(6 chars)` was `…password=secret`), so it is not the
    // credential's end: taken for one, masking that text again masked more.
    guard
      end == count
        || !(isTokenCharacter(bytes[end]) || bytes[end] == UInt8(ascii: "=")
          || has("••••", at: end))
    else { return nil }
    let secret = secretStart..<end
    switch kind {
    case .basicCredentials:
      guard body >= 6,
        let data = Data(base64Encoded: String(decoding: bytes[secret], as: UTF8.self)),
        data.contains(UInt8(ascii: ":"))
      else { return nil }
    case .tokenCredentials:
      guard body >= 12, bytes[secret].contains(where: ASCIIByte.isDigit),
        bytes[secret].contains(where: ASCIIByte.isLetter)
      else { return nil }
    default:
      guard body >= 12 else { return nil }
    }
    return CredentialShape(kind: kind, whole: start..<end, secret: secret)
  }

  // MARK: Detectors that start at punctuation

  /// `-----BEGIN … PRIVATE KEY-----`; the secret is the header after `-----BEGIN `, which is
  /// all a scan needs to refuse the key that follows.
  func privateKey(at start: Int) -> CredentialShape? {
    guard has("-----BEGIN", at: start), let gap = spaceLength(at: start + 10) else { return nil }
    let nameStart = start + 10 + gap
    var name = ""
    var nameEnd = nameStart
    while nameEnd < count {
      if ByteClass.isUpperOrDigit(bytes[nameEnd]) {
        name.unicodeScalars.append(Unicode.Scalar(bytes[nameEnd]))
        nameEnd += 1
      } else if let gap = spaceLength(at: nameEnd) {
        name += " "
        nameEnd += gap
      } else {
        break
      }
    }
    guard has("-----", at: nameEnd) else { return nil }
    guard name.hasSuffix("PRIVATE KEY") || name.hasSuffix("PRIVATE KEY BLOCK") else { return nil }
    return CredentialShape(
      kind: .privateKey, whole: start..<nameEnd + 5, secret: nameStart..<nameEnd + 5)
  }

  /// The length of the space at `index` as a PEM label may spell it: a space, or a URL's or a
  /// form's `%20` or `+`, so a key sent in a query or a form body is still seen.
  private func spaceLength(at index: Int) -> Int? {
    guard index < count else { return nil }
    if bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "+") { return 1 }
    return has("%20", at: index) ? 3 : nil
  }

  /// `scheme://user:password@host`, or a user name long enough to be a token
  /// (`https://TOKEN@host`); a placeholder in the user information is not reported.
  func userinfo(colonAt colon: Int) -> CredentialShape? {
    guard has("://", at: colon) else { return nil }
    var schemeStart = colon
    while schemeStart > 0, ASCIIByte.isSchemeCharacter(bytes[schemeStart - 1]) { schemeStart -= 1 }
    guard schemeStart < colon, ASCIIByte.isLetter(bytes[schemeStart]) else { return nil }
    let infoStart = colon + 3
    let infoEnd = run(from: infoStart, class: ByteClass.authority)
    guard infoEnd < count, bytes[infoEnd] == UInt8(ascii: "@"), infoEnd > infoStart else {
      return nil
    }
    let info = bytes[infoStart..<infoEnd]
    if let separator = info.firstIndex(of: UInt8(ascii: ":")) {
      guard separator + 1 < infoEnd else { return nil }
    } else if info.count < 16 {
      return nil
    }
    let text = String(decoding: info, as: UTF8.self)
    guard !RedactionPlaceholder.isPresent(in: text) else { return nil }
    return CredentialShape(
      kind: .urlUserinfo, whole: schemeStart..<infoEnd, secret: infoStart..<infoEnd)
  }

  // MARK: AWS secret keys

  /// 40 characters of base64 with upper- and lower-case letters and a digit, within 100 bytes
  /// after `aws` or `secret`, or anywhere when the value's name says so.
  func awsSecretKeys(nameContext: Bool, avoiding taken: [CredentialShape]) -> [CredentialShape] {
    let windows: [Range<Int>]
    if nameContext {
      windows = [0..<count]
    } else {
      windows = keywordPositions().map { $0..<min(count, $0 + 100) }
    }
    var found: [CredentialShape] = []
    var index = 0
    for window in windows {
      index = max(index, window.lowerBound)
      while index < window.upperBound {
        guard isBase64(bytes[index]),
          index == 0 || !isBase64(bytes[index - 1])
        else {
          index += 1
          continue
        }
        let end = run(from: index, class: ByteClass.base64)
        let key = bytes[index..<end]
        if end - index == 40, end == count || bytes[end] != UInt8(ascii: "="),
          key.contains(where: ASCIIByte.isDigit),
          key.contains(where: { (0x41...0x5A).contains($0) }),
          key.contains(where: { (0x61...0x7A).contains($0) }),
          !taken.contains(where: { $0.whole.overlaps(index..<end) })
        {
          found.append(
            CredentialShape(kind: .awsSecretKey, whole: index..<end, secret: index..<end))
        }
        index = end
      }
    }
    return found
  }

  /// Where `aws` or `secret` ends, in any case.
  ///
  /// Every scan of a body runs this over all of it, so eight positions are tested at once: only
  /// where an `a` comes before a `w` or an `s` before an `e` (either case) are bytes compared.
  func keywordPositions() -> [Int] {
    var positions: [Int] = []
    var index = 0
    let lowerCase = ByteWord.ones &* 0x20
    while index + 2 < count {
      if index + 9 <= count {
        // The pairs starting at the eight positions from `index`; `| 0x20` folds only `A`,
        // `W`, `S` and `E` onto the letters compared.
        let first = ByteWord.load(bytes, at: index) | lowerCase
        let second = ByteWord.load(bytes, at: index + 1) | lowerCase
        let pairs =
          ByteWord.matches(first, UInt8(ascii: "a")) & ByteWord.matches(second, UInt8(ascii: "w"))
          | ByteWord.matches(first, UInt8(ascii: "s")) & ByteWord.matches(second, UInt8(ascii: "e"))
        guard pairs != 0 else {
          index += 8
          continue
        }
        index += ByteWord.firstFlagged(pairs)
      }
      let byte = bytes[index] | 0x20
      if byte == UInt8(ascii: "a"), bytes[index + 1] | 0x20 == UInt8(ascii: "w"),
        hasIgnoringCase("aws", at: index)
      {
        positions.append(index + 3)
      } else if byte == UInt8(ascii: "s"), bytes[index + 1] | 0x20 == UInt8(ascii: "e"),
        hasIgnoringCase("secret", at: index)
      {
        positions.append(index + 6)
      }
      index += 1
    }
    return positions
  }

  // MARK: Placeholders

  /// The end of a `<redacted:NAME>`, `%3Credacted:NAME%3E` or `%3Credacted%3ANAME%3E` placeholder whose word
  /// `redacted` starts at `start`, so its name is never read as a credential.
  func placeholderEnd(wordAt start: Int) -> Int? {
    let first = bytes[start] | 0x20
    guard first == UInt8(ascii: "r") || first == UInt8(ascii: "3") else { return nil }
    let angle: Bool
    var end: Int
    if hasIgnoringCase("redacted:", at: start), start >= 1, bytes[start - 1] == UInt8(ascii: "<") {
      angle = true
      end = start + 9
    } else if hasIgnoringCase("3Credacted:", at: start), start >= 1,
      bytes[start - 1] == UInt8(ascii: "%")
    {
      angle = false
      end = start + 11
    } else if hasIgnoringCase("3Credacted%3A", at: start), start >= 1,
      bytes[start - 1] == UInt8(ascii: "%")
    {
      angle = false
      end = start + 13
    } else {
      return nil
    }
    while end < count {
      if angle, bytes[end] == UInt8(ascii: ">") { return end + 1 }
      if !angle, hasIgnoringCase("%3E", at: end) { return end + 3 }
      if ByteClass.isSpace(bytes[end]) || bytes[end] == UInt8(ascii: "\"") { return end }
      end += 1
    }
    return end
  }

  // MARK: Byte helpers

  /// Where the run of bytes from `start` whose ``ByteClass`` flags include `flag` ends.
  func run(from start: Int, class flag: UInt8) -> Int {
    var end = start
    while end < count, classes[Int(bytes[end])] & flag != 0 { end += 1 }
    return end
  }

  func run(from start: Int, _ allowed: (UInt8) -> Bool) -> Int {
    var end = start
    while end < count, allowed(bytes[end]) { end += 1 }
    return end
  }

  /// Whether `literal` is at `start`. A `StaticString`, read through its pointer: iterating a
  /// `String`'s UTF-8 here was an eighth of a large scan.
  func has(_ literal: StaticString, at start: Int) -> Bool {
    let length = literal.utf8CodeUnitCount
    guard start + length <= count else { return false }
    let pointer = literal.utf8Start
    for offset in 0..<length where bytes[start + offset] != pointer[offset] { return false }
    return true
  }

  /// Whether `literal` is at `start`, ASCII letters compared in any case.
  func hasIgnoringCase(_ literal: StaticString, at start: Int) -> Bool {
    let length = literal.utf8CodeUnitCount
    guard start + length <= count else { return false }
    let pointer = literal.utf8Start
    for offset in 0..<length
    where ByteClass.folded(bytes[start + offset]) != ByteClass.folded(pointer[offset]) {
      return false
    }
    return true
  }
}

/// ASCII character classes by table, the scan's only per-byte work.
private enum ByteClass {
  static let word: UInt8 = 1
  static let base64: UInt8 = 2
  static let urlSafe: UInt8 = 4
  static let token: UInt8 = 8
  static let authority: UInt8 = 16
  /// The first letters of every word-started shape and of `redacted` in a placeholder.
  static let shapeStart: UInt8 = 32

  static let table: [UInt8] = (0..<256).map { value in
    let byte = UInt8(value)
    let alphanumeric = isAlphanumeric(byte)
    var flags: UInt8 = 0
    if alphanumeric || byte == UInt8(ascii: "_") { flags |= word }
    if alphanumeric || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/") { flags |= base64 }
    if alphanumeric || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") { flags |= urlSafe }
    if alphanumeric || "._~+/-".utf8.contains(byte) { flags |= token }
    // Everything that may sit in user information: not a delimiter, space, quote or bracket.
    if byte > 0x20, byte < 0x7F, !"/?#@\"'<>\\[]{}`|^ ".utf8.contains(byte) { flags |= authority }
    if "AgxsrnebBtTR3".utf8.contains(byte) { flags |= shapeStart }
    return flags
  }

  /// ``table``'s bytes at an address that stays valid for the whole process; never written
  /// after this, so any thread may read them.
  private static let storage = Unchecked<UnsafePointer<UInt8>>(
    {
      let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
      storage.initialize(from: table, count: 256)
      return UnsafePointer(storage)
    }())
  static var pointer: UnsafePointer<UInt8> { storage.value }

  /// The byte with ASCII letters lower-cased.
  static func folded(_ byte: UInt8) -> UInt8 { ASCIIByte.isLetter(byte) ? byte | 0x20 : byte }
  static func isAlphanumeric(_ byte: UInt8) -> Bool {
    ASCIIByte.isLetter(byte) || ASCIIByte.isDigit(byte)
  }
  static func isAlphanumericOrDash(_ byte: UInt8) -> Bool {
    isAlphanumeric(byte) || byte == UInt8(ascii: "-")
  }
  static func isUpperOrDigit(_ byte: UInt8) -> Bool {
    (0x41...0x5A).contains(byte) || ASCIIByte.isDigit(byte)
  }
  static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }
}
