#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

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
  ///
  /// `opening` judges the text a base64 run decodes to when no shape is inside it: masking
  /// passes its own rules, so base64 of a form or of JSON holding a credential by name is
  /// found as redaction finds it (``LogRedaction``), at any depth of wrapping.
  static func find(
    in bytes: UnsafeBufferPointer<UInt8>, nameContext: Bool = false,
    opening: ((UnsafeBufferPointer<UInt8>) -> Bool)? = nil
  ) -> [CredentialShape] {
    var scanner = ShapeScanner(bytes: bytes)
    scanner.opening = opening
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
  /// See ``CredentialShape/find(in:nameContext:opening:)``.
  var opening: ((UnsafeBufferPointer<UInt8>) -> Bool)?

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
  ///
  /// The loop reads the byte count, the flags and the bytes it compares as locals and literals:
  /// at `-Onone` (what `swift test` compiles) `count`, a `static let` and `UInt8(ascii:)` are
  /// each a call, made for every byte.
  private func shapes(table: UnsafeBufferPointer<UInt8>) -> [CredentialShape] {
    var found: [CredentialShape] = []
    var index = 0
    let count = bytes.count
    let word = ByteClass.word
    let shapeStart = ByteClass.shapeStart
    // Read through plain pointers: a buffer's subscript checks its bounds on every read.
    guard let base = bytes.baseAddress, let classes = table.baseAddress else { return found }
    // The end of the last run judged as an unnamed token, so each is judged once.
    var checkedThrough = 0
    while index < count {
      let byte = base[index]
      let flags = classes[Int(byte)]
      if flags & word != 0 {
        // Only a word starting with the first two letters of some shape (or placeholder) is
        // looked at further: prose and JSON start many words with those first letters.
        if flags & shapeStart != 0,
          Self.mayStart(byte, index + 1 < count ? base[index + 1] : 0)
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
        let wordStart = index
        index += 1
        while index < count, classes[Int(base[index])] & word != 0 { index += 1 }
        // A long word, or one that a JWT's separator follows, may be a token no prefix names;
        // so may one glued to a number before it (`<app id>|…`, `%7C` escaped), asked only after
        // such glue: most words follow none.
        if wordStart >= checkedThrough,
          index - wordStart >= 8
            && (index - wordStart >= 20 || (index < count && Self.mayFollowSegment(bytes[index])))
            || wordStart >= 7 && Self.mayFollowGlue(base[wordStart - 1], base[wordStart - 3])
              && followsIdentifier(wordStart),
          let shape = unnamedToken(
            wordAt: wordStart, wordEnd: index, after: found.last?.whole.upperBound ?? 0,
            checkedThrough: &checkedThrough)
        {
          found.append(shape)
          index = shape.whole.upperBound
        }
        continue
      }
      if byte == 0x2D, let shape = privateKey(at: index) {  // -
        found.append(shape)
        index = shape.whole.upperBound
        continue
      }
      // A JSON string's escape ends a word too: `\nPrivate-Lines:` in a printed HAR file.
      if byte == 0x5C, index + 1 < count,  // \
        "nrt".utf8.contains(bytes[index + 1])
      {
        index += 2
        continue
      }
      // A percent escape ends a word: `%20ghp_…` and `%3DeyJ…` start a token after it, and a
      // URL or form value spells a token's neighbours that way.
      if byte == 0x25, index + 2 < count, ASCIIByte.isHexDigit(bytes[index + 1]),  // %
        ASCIIByte.isHexDigit(bytes[index + 2])
      {
        index = placeholderEnd(wordAt: index + 1) ?? index + 3
        continue
      }
      // A JSON body has a `:` after every member name; only `://` can start user information.
      if byte == 0x3A, index + 1 < count, bytes[index + 1] == 0x2F,  // :/
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
  ///
  /// The letters are written as numbers, each line naming them: `UInt8(ascii:)` is a call at
  /// `-Onone` (what `swift test` compiles), and this runs at most words of a body.
  @inline(__always)
  static func mayStart(_ first: UInt8, _ second: UInt8) -> Bool {
    let second = second | 0x20
    switch first {
    case 0x41:  // A: AKIA, ASIA, AIza
      return second == 0x6B || second == 0x73 || second == 0x69  // k s i
    case 0x67:  // g: github_pat_, gho_ and kin, glpat-
      return second == 0x69 || second == 0x68 || second == 0x6C  // i h l
    case 0x78:  // x: xoxb- and kin
      return second == 0x6F  // o
    case 0x73:  // s: sk_live_, sk-
      return second == 0x6B  // k
    case 0x72, 0x52:  // r R: rk_live_, redacted:
      return second == 0x6B || second == 0x65  // k e
    case 0x33:  // 3: 3Credacted
      return second == 0x63  // c
    case 0x6E:  // n: npm_
      return second == 0x70  // p
    case 0x65:  // e: eyJ, ewo (JWT headers)
      return second == 0x79 || second == 0x77  // y w
    case 0x62, 0x42:  // b B: Bearer, Basic
      return second == 0x65 || second == 0x61  // e a
    case 0x74, 0x54:  // t T: Token
      return second == 0x6F  // o
    case 0x68:  // h: hooks.slack.com
      return second == 0x6F  // o
    case 0x4D:  // M: MII…, MHc…, MC4…: a DER private key in base64 (`0x30` and a length)
      return second >= 0x61 && second <= 0x69  // a to i
    case 0x50:  // P: Private-Lines: of a PuTTY key
      return second == 0x72  // r
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
      // GitLab's prefixes: personal, runner, deploy, feed, trigger, CI/CD job tokens.
      for prefix in Self.gitLabPrefixes where has(prefix, at: start) {
        return open(
          .gitLabToken, at: start, label: prefix.utf8CodeUnitCount, minimum: 20,
          { isURLSafeBase64($0) })
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
    case UInt8(ascii: "h"):
      // A Slack incoming webhook's URL is its credential: `T…/B…/` and the secret after them.
      if has("hooks.slack.com/services/", at: start) {
        return open(
          .slackToken, at: start, label: 25, minimum: 20,
          { ByteClass.isAlphanumeric($0) || $0 == UInt8(ascii: "/") })
      }
    case UInt8(ascii: "M"):
      return derPrivateKey(at: start)
    case UInt8(ascii: "P"):
      return puttyPrivateLines(at: start)
    default:
      break
    }
    return nil
  }

  private static let gitLabPrefixes: [StaticString] = [
    "glpat-", "glrt-", "gldt-", "glft-", "glptt-", "glcbt-", "glsoat-",
  ]
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
    // A token must not go on as a longer word; an `_` its alphabet lacks ends it, as in a name
    // built from it (`npm_…_api_key`).
    guard end - start - label == length,
      end == count || !isWord(bytes[end])
        || (bytes[end] == UInt8(ascii: "_") && !allowed(UInt8(ascii: "_")))
    else {
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
  /// any header (`eyJ…` for `{"`, `ewo…` for `{` and a newline, `IHsi…` for a space before
  /// it); the signature may be empty. A dot may be spelled `%2E`, as in a URL, and a segment may
  /// go on over a line break (a token wrapped in a log or a JSON string's `\n`).
  func jsonWebToken(at start: Int) -> CredentialShape? {
    let headerEnd = segmentEnd(from: start)
    guard headerEnd - start >= 8, let dot = dotLength(at: headerEnd) else { return nil }
    let payloadEnd = segmentEnd(from: headerEnd + dot)
    guard payloadEnd > headerEnd + dot, let secondDot = dotLength(at: payloadEnd) else {
      return nil
    }
    let end = segmentEnd(from: payloadEnd + secondDot)
    guard decodesToJSONObject(start..<headerEnd) else { return nil }
    let label = bytes[start] == UInt8(ascii: "e") ? 3 : 0
    return CredentialShape(kind: .jsonWebToken, whole: start..<end, secret: start + label..<end)
  }

  /// Where a JWT's segment from `start` ends: base64url characters, over line breaks (real, or
  /// a JSON string's `\n`) followed by more of them.
  func segmentEnd(from start: Int) -> Int {
    var end = run(from: start, class: ByteClass.urlSafe)
    while end > start, let gap = lineBreakLength(at: end), end + gap < count,
      isURLSafeBase64(bytes[end + gap])
    {
      end = run(from: end + gap, class: ByteClass.urlSafe)
    }
    return end
  }

  /// The length of a line break at `index` and the indentation after it: `\n`, `\r\n`, or
  /// their escapes in a JSON string.
  func lineBreakLength(at index: Int) -> Int? {
    var end = index
    while end < count {
      if bytes[end] == UInt8(ascii: "\\"), end + 1 < count,
        bytes[end + 1] == UInt8(ascii: "n") || bytes[end + 1] == UInt8(ascii: "r")
      {
        end += 2
      } else if bytes[end] == 0x0A || bytes[end] == 0x0D {
        end += 1
      } else {
        break
      }
    }
    guard end > index else { return nil }
    while end < count, bytes[end] == 0x20 || bytes[end] == 0x09 { end += 1 }
    return end - index
  }

  /// The length of a dot at `index`: `.`, or `%2E` in either case.
  func dotLength(at index: Int) -> Int? {
    guard index < count else { return nil }
    if bytes[index] == UInt8(ascii: ".") { return 1 }
    if hasIgnoringCase("%2e", at: index) { return 3 }
    return nil
  }

  /// Whether base64url `range`, line breaks skipped, decodes to text that starts with `{` and
  /// ends with `}`.
  func decodesToJSONObject(_ range: Range<Int>) -> Bool {
    guard let data = Base64Run.decode(bytes, range) else { return false }
    let trimmed = data.filter { !ByteClass.isSpace($0) }
    return trimmed.first == UInt8(ascii: "{") && trimmed.last == UInt8(ascii: "}")
  }

  // MARK: Tokens no prefix names

  /// Whether a byte after a word may lead to a JWT's next segment.
  @inline(__always)
  static func mayFollowSegment(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: ".") || byte == UInt8(ascii: "%") || byte == 0x0A || byte == 0x0D
      || byte == UInt8(ascii: "\\")
  }

  /// A credential no prefix the scanner knows names, around the word `wordStart..<wordEnd`: a
  /// JWT with any header, base64 that decodes to text holding a credential, or a vendor-style
  /// token (``VendorToken``). `floor` is where the last shape found ended.
  func unnamedToken(
    wordAt wordStart: Int, wordEnd: Int, after floor: Int, checkedThrough: inout Int
  ) -> CredentialShape? {
    if let token = jsonWebToken(at: wordStart) { return token }
    let afterIdentifier = followsIdentifier(wordStart)
    guard wordEnd - wordStart >= 20 || afterIdentifier else { return nil }
    // Base64 of text is judged by the text: a credential inside makes it one. The URL-safe
    // alphabet is tried first, so a path's `/` after base64 does not end it out of step.
    // A run may start anywhere in a group of four: the rest of a wrapper an echo search cut
    // (`…PGtleT4+<redacted:key>8L2tleT4…` holds base64 of text on each side of a placeholder)
    // decodes to text only from the right one, so each of the four is tried. Random bytes (a
    // token) read as text from none.
    for alphabet in [ByteClass.urlSafe, ByteClass.base64 | ByteClass.urlSafe] {
      let base64End = mimeLinesEnd(from: wordStart, class: alphabet)
      guard base64End - wordStart >= 24 else { continue }
      for skip in 0..<4 {
        let from = wordStart + skip
        guard let head = Base64Run.decode(bytes, from..<min(base64End, from + 64)),
          Base64Run.isText(head), let decoded = Base64Run.decode(bytes, from..<base64End)
        else { continue }
        checkedThrough = base64End
        // The run is judged in one alphabet and covered whole: a mask that stopped at the first
        // `/` of standard base64 showed the rest (a macaroon's signature).
        let runEnd = mimeLinesEnd(from: wordStart, class: ByteClass.base64 | ByteClass.urlSafe)
        var end = max(base64End, runEnd)
        let padding = end
        while end < count, bytes[end] == UInt8(ascii: "="), end - padding < 2 { end += 1 }
        let inner = decoded.withUnsafeBufferPointer { CredentialShape.find(in: $0) }
        guard let first = inner.first else {
          if let opening, decoded.withUnsafeBufferPointer(opening) {
            return CredentialShape(
              kind: .redactionRule, whole: wordStart..<end, secret: wordStart..<end)
          }
          return textTokenRun(wordAt: wordStart, end: end, after: floor, decoded: decoded)
        }
        return CredentialShape(kind: first.kind, whole: wordStart..<end, secret: wordStart..<end)
      }
    }
    // The token's run reaches back over its prefix (`SG.`, `pypi-`), never into a shape found.
    // Not into a percent escape's digits (`%3Dv8Ric…`): the escape glues the run to the one
    // before it (``GluedRuns``), and is no part of either.
    var start = wordStart
    while start > floor, wordStart - start < 64, isTokenRunByte(bytes[start - 1]),
      !endsEscape(start)
    {
      start -= 1
    }
    var end = wordEnd
    while end < count, isTokenRunByte(bytes[end]) { end += 1 }
    // A run of `.`, `_` or `-` ending the run is punctuation, not the token's.
    while end > wordEnd, VendorToken.isSeparator(bytes[end - 1]) { end -= 1 }
    checkedThrough = end
    // A piece of standard base64 (an image, a signature, a nonce) is random too, and no
    // token's: it meets `+` or padding.
    if let blobEnd = base64BlobEnd(around: start..<end) {
      checkedThrough = blobEnd
      return nil
    }
    guard
      VendorToken.isToken(
        in: bytes, run: start..<end, afterIdentifier: afterIdentifier && start == wordStart),
      !isPublicKeyMember(start..<end)
    else { return nil }
    return CredentialShape(kind: .vendorToken, whole: start..<end, secret: start..<end)
  }

  /// Whether the word at `start` follows a number glued to it by `|`, `:` or `/`: an app's or
  /// a user's id before its secret (Facebook's `<app id>|…`, Asana's `1/<user id>:…`), which
  /// makes the number the token's prefix. Six digits at least, starting a word: a port
  /// (`:8080/`) or a digest's name (`sha256:`) is no id. The glue and what stands before the
  /// number may be percent-escaped, as a URL's query spells them (`%7C`, `%3a`, `1%2F…`).
  func followsIdentifier(_ start: Int) -> Bool {
    guard start >= 7 else { return false }
    var glueStart = start - 1
    if !Self.isIdentifierGlue(bytes[glueStart]) {
      guard bytes[start - 3] == 0x25,  // %
        let escaped = ASCIIByte.percentEscaped(in: bytes, at: start - 3),
        Self.isIdentifierGlue(escaped)
      else { return false }
      glueStart = start - 3
    }
    guard glueStart >= 6, ASCIIByte.isDigit(bytes[glueStart - 1]) else { return false }
    // Back over the number, at most an id's length, not into an escape's digits (`%20`).
    var digitsStart = glueStart - 1
    while digitsStart > 0, glueStart - digitsStart <= 32, ASCIIByte.isDigit(bytes[digitsStart - 1]),
      !endsEscape(digitsStart)
    {
      digitsStart -= 1
    }
    let digits = glueStart - digitsStart
    guard digits >= 6, digits <= 32 else { return false }
    return digitsStart == 0 || !isWord(bytes[digitsStart - 1]) || endsEscape(digitsStart)
  }

  /// Whether a word after `last` (the byte before it) and `third` (three before it) may follow
  /// an id's glue: `|`, `:` or `/` itself, or the `%` of an escape.
  @inline(__always)
  static func mayFollowGlue(_ last: UInt8, _ third: UInt8) -> Bool {
    last == 0x7C || last == 0x3A || last == 0x2F || third == 0x25  // | : / %
  }

  /// `|`, `:` or `/`: what glues an id to the secret after it.
  private static func isIdentifierGlue(_ byte: UInt8) -> Bool {
    byte == 0x7C || byte == 0x3A || byte == 0x2F  // | : /
  }

  /// Whether a percent escape ends just before `index`: the run after it starts there.
  func endsEscape(_ index: Int) -> Bool {
    index >= 3 && bytes[index - 3] == 0x25
      && ASCIIByte.percentEscaped(in: bytes, at: index - 3) != nil
  }

  /// Whether `run` is the value of a public member of a JSON Web Key (an object with a `kty`
  /// member): the RSA modulus and exponent (`n`, `e`), the curve point (`x`, `y`), the
  /// certificate chain (`x5c`), a thumbprint (`x5t`, `x5t#S256`) or the key's id (`kid`). Public
  /// by construction, as a JWKS document publishes them. The private members (`d`, `p`, `q`,
  /// `dp`, `dq`, `qi`, a symmetric key's `k`) are judged as any value. Read in the text as it
  /// is, a JSON body, or a JSON text printed inside another (`\"n\": \"…`).
  func isPublicKeyMember(_ run: Range<Int>) -> Bool {
    let limit = 16_384
    // A key names its type near its members: one search at the C library's speed turns every
    // other run away before any byte is walked, so a body of many tokens and no key pays no
    // walk back from each.
    let near = max(0, run.lowerBound - 2 * limit - 16)..<min(count, run.upperBound + limit)
    guard offset(of: "\"kty", in: near) != nil else { return false }
    // Back to the `:` after the member's name, over the quotes and an array's earlier
    // elements (`"x5c": ["…", "…"]`).
    var index = run.lowerBound
    while index > 0, run.lowerBound - index < limit {
      let byte = bytes[index - 1]
      if byte == 0x3A { break }  // :
      guard
        isBase64(byte) || isURLSafeBase64(byte) || ByteClass.isSpace(byte) || byte == 0x22  // "
          || byte == 0x5C || byte == 0x2C || byte == 0x5B || byte == 0x3D  // \ , [ =
      else { return false }
      index -= 1
    }
    guard index > 0, bytes[index - 1] == 0x3A else { return false }
    // The name before the `:`, between quotes.
    var nameEnd = index - 1
    while nameEnd > 0, ByteClass.isSpace(bytes[nameEnd - 1]) { nameEnd -= 1 }
    guard nameEnd > 0, bytes[nameEnd - 1] == 0x22 else { return false }
    nameEnd -= 1
    if nameEnd > 0, bytes[nameEnd - 1] == 0x5C { nameEnd -= 1 }
    var nameStart = nameEnd
    while nameStart > 0, nameEnd - nameStart <= 8, bytes[nameStart - 1] != 0x22 { nameStart -= 1 }
    guard nameStart > 0 else { return false }
    let name = String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self)
    guard Self.publicKeyMembers.contains(name) else { return false }
    // The object around it, flat as a key is (no braces between), holds `kty`.
    var open = nameStart
    while open > 0, nameStart - open < limit, bytes[open - 1] != 0x7B {  // {
      if bytes[open - 1] == 0x7D { return false }  // }
      open -= 1
    }
    var close = run.upperBound
    while close < count, close - run.upperBound < limit, bytes[close] != 0x7D {  // }
      if bytes[close] == 0x7B { return false }
      close += 1
    }
    guard open > 0, close < count else { return false }
    var from = open
    while let name = offset(of: "\"kty", in: from..<close) {
      // `"kty"`, or `\"kty\"` in a JSON text printed inside another.
      if name + 4 < close, bytes[name + 4] == 0x22 || bytes[name + 4] == 0x5C { return true }
      from = name + 4
    }
    return false
  }

  /// Where `literal` first stands in `range`, found by ``ByteSearch``.
  func offset(of literal: StaticString, in range: Range<Int>) -> Int? {
    let needle = UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
    let haystack = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[range]))
    return ByteSearch.firstOffset(of: needle, in: haystack).map { $0 + range.lowerBound }
  }

  private static let publicKeyMembers: Set<String> = [
    "n", "e", "x", "y", "x5c", "x5t", "x5t#S256", "kid",
  ]

  /// Base64 of text with no credential inside, judged as a token by its own shape (prefix,
  /// length, class changes: ``VendorToken``) unless the text it decodes to reads as words
  /// (``VendorToken/readsAsWords(_:)``): a vendor's token that is base64 of a few fields around
  /// a random value (Grafana's `glc_`, AWS Bedrock's `ABSK`, a Cloudflare tunnel's) holds its
  /// secret in pieces under the line inside, and is random as a whole. The run is judged glued
  /// over its `+`, `/` and line breaks, as the text it spells is one; its prefix is taken in
  /// as an unnamed token's is.
  func textTokenRun(wordAt wordStart: Int, end: Int, after floor: Int, decoded: [UInt8])
    -> CredentialShape?
  {
    guard !decoded.withUnsafeBufferPointer(VendorToken.readsAsWords) else { return nil }
    var start = wordStart
    while start > floor, wordStart - start < 64, isTokenRunByte(bytes[start - 1]) { start -= 1 }
    var glued: [UInt8] = []
    glued.reserveCapacity(end - start)
    var index = start
    while index < end {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\\") {
        // A JSON string's `\n`, `\r` or `\/`: a line break or a `/`, neither the token's.
        index += 2
        continue
      }
      if isTokenRunByte(byte) { glued.append(byte) }
      index += 1
    }
    let isToken = glued.withUnsafeBufferPointer {
      VendorToken.isToken(in: $0, run: 0..<$0.count)
    }
    guard isToken else { return nil }
    return CredentialShape(kind: .vendorToken, whole: start..<end, secret: start..<end)
  }

  /// Where the standard base64 that `run` is a piece of ends, when it is one: the run of base64
  /// around it holds a `+` or ends in `=` padding.
  func base64BlobEnd(around run: Range<Int>) -> Int? {
    let before = run.lowerBound > 0 ? bytes[run.lowerBound - 1] : 0
    let after = run.upperBound < count ? bytes[run.upperBound] : 0
    let slash = UInt8(ascii: "/")
    let plus = UInt8(ascii: "+")
    let equals = UInt8(ascii: "=")
    guard before == slash || before == plus || after == slash || after == plus || after == equals
    else { return nil }
    var start = run.lowerBound
    while start > 0, isBase64(bytes[start - 1]) { start -= 1 }
    let end = self.run(from: run.upperBound, class: ByteClass.base64)
    var padded = end
    while padded < count, bytes[padded] == equals, padded - end < 2 { padded += 1 }
    // `=` then more of a word is an assignment or a checksum (`ATATT3x…=A1B2C3D4`), not padding.
    let isPadding =
      padded > end && (padded == count || !(isWord(bytes[padded]) || bytes[padded] == plus))
    // Pieces split by `/` alone are a path's when the token is most of it
    // (`/api/webhooks/123/<token>`), and a blob's when many pieces of the like make it up.
    let isBlob = end - start >= 64 && end - start >= 2 * run.count
    guard isPadding || isBlob || bytes[start..<end].contains(plus) else { return nil }
    return padded
  }

  func isTokenRunByte(_ byte: UInt8) -> Bool {
    isWord(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
  }

  /// A bare base64 DER private key (`MIIEvQIBADAN…`, `MHcCAQEE…`, `MIIKZwIBAzCC…`): a SEQUENCE
  /// whose first member is a version number 0 or 1 followed by an algorithm (PKCS #8), a
  /// modulus (PKCS #1) or the key's octets (SEC 1), or version 3 followed by a PKCS #7
  /// `ContentInfo` (a PKCS #12 `.pfx` file, which holds keys). A certificate or public key
  /// starts with a SEQUENCE instead of the version, and is not reported.
  ///
  /// Only the first 16 to 24 characters are decoded (32 to 48 for a PKCS #12 file), and only at
  /// a word starting `MA` to `MI` (a SEQUENCE's `0x30` and its length); a JSON text's `\/` is
  /// read as the `/` it stands for.
  func derPrivateKey(at start: Int) -> CredentialShape? {
    let headEnd = derRunEnd(from: start)
    // Sixteen characters decode to 12 bytes; a `\/` escape makes the run longer.
    guard headEnd - start >= 16,
      let head = derHead(from: start, to: headEnd, characters: 24),
      head.count >= 12, head[0] == 0x30, let offset = Self.derContentOffset(head, at: 1),
      head[offset] == 0x02, head[offset + 1] == 0x01
    else { return nil }
    switch head[offset + 2] {
    case 0, 1:
      guard [0x30, 0x02, 0x04].contains(head[offset + 3]) else { return nil }
    case 3:
      guard isPKCS12ContentInfo(from: start, headEnd: headEnd, at: offset + 3) else { return nil }
    default:
      return nil
    }
    // The key runs on over line breaks, as a PEM body without its armour does.
    var end = headEnd
    while let gap = lineBreakLength(at: end), end + gap < count, isBase64(bytes[end + gap]) {
      end = derRunEnd(from: end + gap)
    }
    while end < count, bytes[end] == UInt8(ascii: "=") { end += 1 }
    guard end - start >= 64 else { return nil }
    return CredentialShape(kind: .derPrivateKey, whole: start..<end, secret: start..<end)
  }

  /// The first `characters` base64 characters of the run from `start`, decoded. A `\/` escape
  /// counts as the one `/` it stands for, so the window never ends between its two bytes: cut
  /// after the `\`, the head did not decode, and one `openssl` key in about thirty went
  /// unreported in a `\/`-escaped JSON text.
  private func derHead(from start: Int, to headEnd: Int, characters: Int) -> [UInt8]? {
    var end = start
    var read = 0
    while end < headEnd, read < characters {
      if bytes[end] != UInt8(ascii: "\\") { read += 1 }
      end += 1
    }
    return Base64Run.decode(bytes, start..<end)
  }

  /// Where the base64 run from `start` ends, over a JSON text's `\/` escapes.
  private func derRunEnd(from start: Int) -> Int {
    var end = run(from: start, class: ByteClass.base64)
    while isEscapedSlash(at: end + 1) { end = run(from: end + 2, class: ByteClass.base64) }
    return end
  }

  /// Where the contents of the DER element whose length starts at `head[index]` begin: a
  /// short length, or a long one of one to three bytes; BER's indefinite length (`0x80`) too.
  private static func derContentOffset(_ head: [UInt8], at index: Int) -> Int? {
    switch head[index] {
    case 0..<0x80: return index + 1
    case 0x80: return index + 1
    case 0x81...0x83: return index + 1 + Int(head[index] & 0x7F)
    default: return nil
    }
  }

  /// Whether the element at byte `index` of the base64 from `start` is a PKCS #12 `authSafe`: a
  /// SEQUENCE holding the object identifier of PKCS #7 `data` or `signedData`.
  private func isPKCS12ContentInfo(from start: Int, headEnd: Int, at index: Int) -> Bool {
    guard headEnd - start >= 32,
      let head = derHead(from: start, to: headEnd, characters: 48),
      head.count >= 24, head[index] == 0x30,
      let oid = Self.derContentOffset(head, at: index + 1), oid + 11 <= head.count
    else { return false }
    // 06 09 2A 86 48 86 F7 0D 01 07 01 (data) or …07 02 (signedData).
    let pkcs7: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07]
    return head[oid..<oid + 10].elementsEqual(pkcs7) && [1, 2].contains(head[oid + 10])
  }

  /// A PuTTY key file's `Private-Lines: N` and the N lines of base64 after it.
  func puttyPrivateLines(at start: Int) -> CredentialShape? {
    guard has("Private-Lines:", at: start) else { return nil }
    var end = start + 14
    while end < count, bytes[end] == 0x20 || bytes[end] == 0x09 { end += 1 }
    let digitsStart = end
    while end < count, ASCIIByte.isDigit(bytes[end]), end - digitsStart < 4 { end += 1 }
    guard end > digitsStart else { return nil }
    let lines = Int(String(decoding: bytes[digitsStart..<end], as: UTF8.self)) ?? 0
    let secretStart = end
    for _ in 0..<lines {
      guard let gap = lineBreakLength(at: end), end + gap < count, isBase64(bytes[end + gap])
      else { break }
      end = run(from: end + gap, class: ByteClass.base64)
      while end < count, bytes[end] == UInt8(ascii: "=") { end += 1 }
    }
    guard end > secretStart else { return nil }
    return CredentialShape(kind: .privateKey, whole: start..<end, secret: secretStart..<end)
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
  /// after `aws` or `secret` or on either side of an access key ID (`AKIA…`, which AWS's
  /// credential files and exports put beside it), anywhere when the value's name says so, and
  /// alone: a text that is nothing but such a key (a header's or a parameter's whole value).
  func awsSecretKeys(nameContext: Bool, avoiding taken: [CredentialShape]) -> [CredentialShape] {
    var windows: [Range<Int>]
    if nameContext || count == 40 {
      windows = [0..<count]
    } else {
      windows = keywordPositions().map { $0..<min(count, $0 + 100) }
      for id in taken where id.kind == .awsAccessKey {
        windows.append(max(0, id.whole.lowerBound - 100)..<min(count, id.whole.upperBound + 100))
      }
      windows.sort { $0.lowerBound < $1.lowerBound }
    }
    var found: [CredentialShape] = []
    var index = 0
    for window in windows {
      index = max(index, window.lowerBound)
      while index < window.upperBound {
        guard isBase64(bytes[index]),
          index == 0 || !isBase64(bytes[index - 1]),
          !isEscapedSlash(at: index)
        else {
          index += 1
          continue
        }
        // JSON may write `/` as `\/` (Foundation on Linux does): the escape is part of the run,
        // so a key holding one is 40 characters still, and the pieces between the escapes of a
        // longer blob are no key.
        var end = index
        var length = 0
        while end < count {
          if isBase64(bytes[end]) {
            end += 1
          } else if isEscapedSlash(at: end + 1) {
            end += 2
          } else {
            break
          }
          length += 1
        }
        let key = bytes[index..<end]
        if length == 40, end == count || bytes[end] != UInt8(ascii: "="),
          !endsWrappedBase64(lineAt: index),
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

  /// Whether `index` holds the `/` of a JSON escape `\/`.
  func isEscapedSlash(at index: Int) -> Bool {
    index > 0 && index < count && bytes[index] == UInt8(ascii: "/")
      && bytes[index - 1] == UInt8(ascii: "\\")
  }

  /// Whether the line starting at `index` follows a line of 60 or more base64 characters and
  /// nothing else: the last line of a blob wrapped at 64 or 76 (MIME, PEM) is 40 characters
  /// one time in 76, and no AWS key. A key on its own line follows a line with a name in it.
  func endsWrappedBase64(lineAt index: Int) -> Bool {
    var end = index
    guard end > 0, bytes[end - 1] == UInt8(ascii: "\n") else { return false }
    end -= 1
    if end > 0, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
    var start = end
    while start > 0, isBase64(bytes[start - 1]) { start -= 1 }
    return end - start >= 60 && (start == 0 || bytes[start - 1] == UInt8(ascii: "\n"))
  }

  /// Where `aws` or `secret` ends, in any case.
  ///
  /// Every scan of a body runs this over all of it, so eight positions are tested at once: only
  /// where an `a` comes before a `w` or an `s` before an `e` (either case) are bytes compared.
  ///
  /// ``ByteWord/matches(_:_:)`` is written out here, with its constants made once: at `-Onone`
  /// (what `swift test` compiles) each of its four calls per word was a call.
  func keywordPositions() -> [Int] {
    var positions: [Int] = []
    var index = 0
    let count = bytes.count
    let ones = ByteWord.ones
    let high = ones &* 0x80
    let lowerCase = ones &* 0x20
    let a = ones &* 0x61
    let w = ones &* 0x77
    let s = ones &* 0x73
    let e = ones &* 0x65
    guard let base = bytes.baseAddress else { return positions }
    while index + 2 < count {
      if index + 9 <= count {
        // The pairs starting at the eight positions from `index`; `| 0x20` folds only `A`,
        // `W`, `S` and `E` onto the letters compared.
        var first: UInt64 = 0
        var second: UInt64 = 0
        // Copied here rather than by `ByteWord.load`, a call at `-Onone` for every word.
        memcpy(&first, base + index, 8)
        memcpy(&second, base + index + 1, 8)
        #if _endian(big)
          first = first.byteSwapped
          second = second.byteSwapped
        #endif
        first |= lowerCase
        second |= lowerCase
        let firstA = first ^ a
        let secondW = second ^ w
        let firstS = first ^ s
        let secondE = second ^ e
        let pairs =
          (firstA &- ones) & ~firstA & (secondW &- ones) & ~secondW & high
          | (firstS &- ones) & ~firstS & (secondE &- ones) & ~secondE & high
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
  /// The end of the base64 run from `start`, carried over line breaks as MIME writes base64
  /// (76 characters a line, `\r\n` or `\n` between): each full line of 16 characters or more
  /// that a line break and more base64 follow goes on into the next line.
  func mimeLinesEnd(from start: Int, class flag: UInt8) -> Int {
    var end = run(from: start, class: flag)
    var lineStart = start
    while end < count, end - lineStart >= 16 {
      var next = end
      if bytes[next] == 0x0D { next += 1 }
      guard next < count, bytes[next] == 0x0A else { break }
      next += 1
      let more = run(from: next, class: flag)
      guard more > next else { break }
      lineStart = next
      end = more
    }
    return end
  }

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
    guard let base = bytes.baseAddress else { return length == 0 }
    return memcmp(base + start, literal.utf8Start, length) == 0
  }

  /// Whether `literal` is at `start`, ASCII letters compared in any case.
  func hasIgnoringCase(_ literal: StaticString, at start: Int) -> Bool {
    let length = literal.utf8CodeUnitCount
    guard start + length <= count else { return false }
    let pointer = literal.utf8Start
    // A counted loop with the fold written out: a range's iterator and a call per byte cost
    // `-Onone` (what `swift test` compiles) more than the comparisons; the detectors ask this
    // at every word that starts like a shape.
    var offset = 0
    while offset < length {
      var byte = bytes[start + offset]
      var expected = pointer[offset]
      if (byte | 0x20) >= 0x61, (byte | 0x20) <= 0x7A { byte |= 0x20 }
      if (expected | 0x20) >= 0x61, (expected | 0x20) <= 0x7A { expected |= 0x20 }
      guard byte == expected else { return false }
      offset += 1
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
    if "AgxsrnebBtTR3hMP".utf8.contains(byte) { flags |= shapeStart }
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
