/// Names compared the way credentials are spelled in the wild: `access_token`, `accessToken`,
/// `Access-Token` and `ACCESSTOKEN` are one name.
///
/// A name is normalised by lower-casing it and dropping everything but letters and digits, so
/// case, `-`, `_`, `.` and spaces make no difference and a camelCase name reads the same as its
/// snake_case and kebab-case spellings. A pattern is normalised the same way, with `*` standing
/// for any run of characters: `*-Token` matches `X-Auth-Token`, `Private-Token` and
/// `csrfToken`; `*password*` matches `newPassword` and `password_confirmation`.
///
/// Redaction matches header, query parameter, form field and JSON member names with this, and
/// ``CredentialScanner`` can ask the same question, so the two cannot disagree about a name.
struct CredentialName: Sendable, Hashable {
  /// Exact names, normalised.
  private var exact: Set<String> = []
  /// Patterns with a `*`, each split at its stars into normalised literal pieces.
  private var wildcards: [[String]] = []
  /// Where names are also judged by their words (``CredentialWords``), or `nil` when only the
  /// patterns count.
  private var words: Place?

  /// A matcher for `patterns`, each a name or a name with `*` wildcards, that also takes every
  /// name whose words read as a credential's at `place`, when given.
  init(_ patterns: [String], readingWordsAt place: Place? = nil) {
    words = place
    for pattern in patterns {
      guard pattern.contains("*") else {
        exact.insert(Self.normalised(pattern))
        continue
      }
      wildcards.append(
        pattern.split(separator: "*", omittingEmptySubsequences: false).map {
          Self.normalised(String($0))
        })
    }
  }

  /// Whether nothing can match.
  var isEmpty: Bool { exact.isEmpty && wildcards.isEmpty && words == nil }

  /// `name` lower-cased, with only its ASCII letters and digits kept (other letters are kept
  /// too, lower-cased, so a non-English name still compares by its characters).
  static func normalised(_ name: String) -> String {
    // Names are nearly always ASCII, and a large JSON body has millions of them: Unicode
    // properties and a lower-case mapping per character took most of a scan's time.
    if let ascii = name.utf8.withContiguousStorageIfAvailable(asciiNormalised), let ascii {
      return ascii
    }
    var result = ""
    result.reserveCapacity(name.utf8.count)
    for scalar in name.unicodeScalars
    where scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
      result.unicodeScalars.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
    }
    return result
  }

  /// Letters lower-cased and digits, the rest dropped; `nil` when a byte is not ASCII.
  private static func asciiNormalised(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
    return String(unsafeUninitializedCapacity: bytes.count) { buffer in
      var count = 0
      for byte in bytes {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): buffer[count] = byte | 0x20
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
          buffer[count] = byte
        default: continue
        }
        count += 1
      }
      return count
    }
  }

  /// Whether `name`, normalised, is one of the names or fits one of the patterns, or reads as a
  /// credential's by its words.
  ///
  /// A name holding a placeholder never matches: the placeholder is an echo redaction replaced
  /// (`charset` in `; charset=utf-8`, when an `Authorization` value ended in it), and its words
  /// are the rule's (`<redacted:authorization>`), not the name's. Judged by them, a second
  /// redaction would take the pair's value that the first one left, so a redacted cassette
  /// would change when redacted again.
  func matches(_ name: String) -> Bool {
    let normalised = Self.normalised(name)
    guard !normalised.isEmpty else { return false }
    guard
      exact.contains(normalised) || wildcards.contains(where: { Self.fits(normalised, pieces: $0) })
        || words.map({ CredentialWords.isCredential(name, at: $0) }) == true
    else { return false }
    // Checked only for a name that matched, which is rare, so the search costs nothing.
    return !RedactionPlaceholder.isPresent(in: name)
  }

  /// Glob matching where the pieces sit between stars: the first is a prefix, the last a suffix,
  /// the others appear in order between them. Compared as UTF-8 bytes (both sides are
  /// normalised): Foundation's `range(of:)` here dominated the redaction of a large JSON body.
  private static func fits(_ name: String, pieces: [String]) -> Bool {
    guard let first = pieces.first?.utf8, let last = pieces.last?.utf8, pieces.count >= 2 else {
      return false
    }
    let bytes = name.utf8
    guard bytes.count >= first.count + last.count, bytes.starts(with: first),
      bytes.dropFirst(bytes.count - last.count).elementsEqual(last)
    else { return false }
    var rest = bytes.dropFirst(first.count).dropLast(last.count)
    for piece in pieces.dropFirst().dropLast() where !piece.isEmpty {
      guard let end = Self.end(of: piece.utf8, in: rest) else { return false }
      rest = rest[end...]
    }
    return true
  }

  /// Where the first occurrence of `piece` in `text` ends.
  private static func end(of piece: String.UTF8View, in text: Substring.UTF8View)
    -> String.Index?
  {
    var start = text.startIndex
    while text.distance(from: start, to: text.endIndex) >= piece.count {
      let candidate = text[start...]
      if candidate.starts(with: piece) { return text.index(start, offsetBy: piece.count) }
      start = text.index(after: start)
    }
    return nil
  }
}

extension CredentialName {
  /// A matcher that remembers each name's verdict: a large JSON body repeats a few member
  /// names millions of times, and each is normalised and matched once.
  struct Memo {
    let names: CredentialName
    private var verdicts: [String: Bool] = [:]

    init(_ names: CredentialName) {
      self.names = names
    }

    /// Recently seen names of up to `recentWidth` bytes by a hash of their bytes, so a name met
    /// again is recognised without building a String and hashing it as one. Slot `i` holds
    /// its name at `i * recentWidth` of `recentBytes`, in flat arrays: an optional tuple
    /// holding an array per slot cost a retain and a release per member of a body.
    private static let recentSlots = 512
    private static let recentWidth = 32
    private var recentHashes = [UInt64](repeating: 0, count: Self.recentSlots)
    /// The length of the name in each slot; -1 for an empty slot.
    private var recentLengths = [Int](repeating: -1, count: Self.recentSlots)
    private var recentVerdicts = [Bool](repeating: false, count: Self.recentSlots)
    private var recentBytes = [UInt8](repeating: 0, count: Self.recentSlots * Self.recentWidth)

    mutating func matches(_ name: String) -> Bool {
      if let known = verdicts[name] { return known }
      let verdict = names.matches(name)
      verdicts[name] = verdict
      return verdict
    }

    /// Recently seen names of up to eight bytes, each held as one word (its bytes in order)
    /// with its length: most member names are that short, and one comparison recognises them.
    private var shortWords = [UInt64](repeating: 0, count: Self.recentSlots)
    /// The length of the name in each slot; -1 for an empty slot.
    private var shortLengths = [Int](repeating: -1, count: Self.recentSlots)
    private var shortVerdicts = [Bool](repeating: false, count: Self.recentSlots)

    /// Whether the name whose UTF-8 bytes are `name` matches.
    mutating func matches(utf8 name: UnsafeBufferPointer<UInt8>) -> Bool {
      // Counted loops over the bytes: `for … in` is a generic iterator call per byte at
      // `-Onone` (what `swift test` compiles), and this runs for each member of a body.
      let length = name.count
      if length <= 8 {
        var word: UInt64 = 0
        var index = 0
        while index < length {
          word = word << 8 | UInt64(name[index])
          index += 1
        }
        let slot = Int(
          truncatingIfNeeded: ((word ^ UInt64(name.count)) &* 0x9E37_79B9_7F4A_7C15) >> 55)
        if shortLengths[slot] == name.count, shortWords[slot] == word {
          return shortVerdicts[slot]
        }
        let verdict = matches(String(decoding: name, as: UTF8.self))
        shortWords[slot] = word
        shortLengths[slot] = name.count
        shortVerdicts[slot] = verdict
        return verdict
      }
      // FNV-1a.
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      var index = 0
      while index < length {
        hash = (hash ^ UInt64(name[index])) &* 0x100_0000_01b3
        index += 1
      }
      let slot = Int(truncatingIfNeeded: hash & UInt64(Self.recentSlots - 1))
      let width = Self.recentWidth
      // memcmp: the generic `elementsEqual` cost more than the rest of a member's walk.
      if recentLengths[slot] == name.count, recentHashes[slot] == hash,
        name.isEmpty
          || recentBytes.withUnsafeBufferPointer({
            memcmp($0.baseAddress! + slot * width, name.baseAddress!, name.count)
          }) == 0
      {
        return recentVerdicts[slot]
      }
      let verdict = matches(String(decoding: name, as: UTF8.self))
      if name.count <= width {
        recentHashes[slot] = hash
        recentLengths[slot] = name.count
        recentVerdicts[slot] = verdict
        recentBytes.withUnsafeMutableBufferPointer { recent in
          if let source = name.baseAddress {
            (recent.baseAddress! + slot * width).update(from: source, count: name.count)
          }
        }
      }
      return verdict
    }
  }
}
