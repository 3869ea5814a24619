#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Finds byte strings in byte buffers with the C library's `memmem`.
///
/// Searching for secrets runs over every byte a cassette or a report holds, and `swift test`
/// builds at `-Onone`, where a loop over bytes written in Swift runs at about 15 MB/s while
/// `memmem` runs at several GB/s (22 GB/s for a 20-byte needle in 50 MB here). Foundation's
/// `Data.range(of:)` took 0.7 s for the same search.
enum ByteSearch {
  /// The offset of the first `needle` in `haystack` at or after `start`.
  static func firstOffset(
    of needle: UnsafeRawBufferPointer, in haystack: UnsafeRawBufferPointer, from start: Int = 0
  ) -> Int? {
    guard !needle.isEmpty, start >= 0, haystack.count - start >= needle.count,
      let base = haystack.baseAddress, let needleBase = needle.baseAddress
    else { return nil }
    if let anchor = rareAnchor(of: needle) {
      return anchored(needle, at: anchor, in: haystack, from: start)
    }
    guard let found = cMemmem(base + start, haystack.count - start, needleBase, needle.count)
    else { return nil }
    return UnsafeRawPointer(found) - base
  }

  /// The place in `needle` of a byte that text seldom holds (punctuation such as `%`, `<`,
  /// `=` or `-`), or `nil` when it has none.
  ///
  /// `memmem` reads a short needle at one to four bytes a cycle, and redaction asks dozens of
  /// short questions of every body (`contains(bytes: "&#")`, `"://"`, `"="`): 45 MB of bodies
  /// cost 3 billion instructions in `memmem`. `memchr` for a byte that is rare in the text
  /// skips it at vector speed, and only its few hits compare the whole needle. A needle of
  /// letters, spaces, quotes or colons (common in text and JSON) stays with `memmem`, whose
  /// cost does not grow with how often its first byte occurs.
  private static func rareAnchor(of needle: UnsafeRawBufferPointer) -> Int? {
    if needle.count == 1 { return 0 }
    return needle.firstIndex(where: isRare)
  }

  private static func isRare(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"),
      UInt8(ascii: "="), UInt8(ascii: "\\"), UInt8(ascii: "$"), UInt8(ascii: "#"),
      UInt8(ascii: "@"), UInt8(ascii: "?"), UInt8(ascii: ";"), UInt8(ascii: "-"),
      UInt8(ascii: "|"), UInt8(ascii: "^"), UInt8(ascii: "~"), UInt8(ascii: "`"),
      UInt8(ascii: "*"), UInt8(ascii: "!"):
      true
    default: false
    }
  }

  /// The first `needle` at or after `start`, found from each place `memchr` finds its byte at
  /// `anchor`.
  private static func anchored(
    _ needle: UnsafeRawBufferPointer, at anchor: Int, in haystack: UnsafeRawBufferPointer,
    from start: Int
  ) -> Int? {
    guard let base = haystack.baseAddress, let needleBase = needle.baseAddress else { return nil }
    return firstAnchored(
      byte: needle[anchor], at: anchor, length: needle.count, in: haystack, from: start
    ) { needle.count == 1 || memcmp(base + $0, needleBase, needle.count) == 0 }
  }

  /// The first offset at or after `start` where a needle of `length` bytes, `byte` at `anchor`,
  /// may stand and `matches` says it does: `memchr` finds each place `byte` stands, and only
  /// there is the rest compared.
  fileprivate static func firstAnchored(
    byte: UInt8, at anchor: Int, length: Int, in haystack: UnsafeRawBufferPointer,
    from start: Int, where matches: (Int) -> Bool
  ) -> Int? {
    guard let base = haystack.baseAddress, haystack.count >= length else { return nil }
    // The last place the anchor byte can stand with the whole needle inside the haystack.
    let lastAnchor = haystack.count - length + anchor
    var from = start + anchor
    while from <= lastAnchor, let hit = memchr(base + from, Int32(byte), lastAnchor + 1 - from) {
      let candidate = UnsafeRawPointer(hit) - base - anchor
      if matches(candidate) { return candidate }
      from = candidate + anchor + 1
    }
    return nil
  }

  /// Every place `needle` occurs in `haystack`, apart: a search goes on after each one found.
  static func ranges(of needle: [UInt8], in haystack: UnsafeRawBufferPointer) -> [Range<Int>] {
    needle.withUnsafeBytes { needle in
      var found: [Range<Int>] = []
      var start = 0
      while let offset = firstOffset(of: needle, in: haystack, from: start) {
        found.append(offset..<(offset + needle.count))
        start = offset + needle.count
      }
      return found
    }
  }

  /// Whether a non-empty `needle` occurs in a short `haystack` (a header value), by `memmem`
  /// alone: looking for a rare anchor first costs a debug build more than the search itself.
  static func occurs(_ needle: UnsafeRawBufferPointer, inShort haystack: UnsafeRawBufferPointer)
    -> Bool
  {
    guard !needle.isEmpty, haystack.count >= needle.count, let base = haystack.baseAddress,
      let needleBase = needle.baseAddress
    else { return false }
    return cMemmem(base, haystack.count, needleBase, needle.count) != nil
  }

  /// Whether `needle` occurs in `haystack`.
  static func contains(_ needle: [UInt8], in haystack: UnsafeRawBufferPointer) -> Bool {
    needle.withUnsafeBytes { firstOffset(of: $0, in: haystack) != nil }
  }
}

#if canImport(Glibc)
  // Glibc's module map declares `memmem` only for `_GNU_SOURCE`, which Swift does not define; the
  // function is in every glibc since 2.0. Its pointer and integer arguments pass in the same
  // registers under Swift's and C's calling conventions.
  @_silgen_name("memmem")
  private func cMemmem(
    _ haystack: UnsafeRawPointer?, _ haystackLength: Int, _ needle: UnsafeRawPointer?,
    _ needleLength: Int
  ) -> UnsafeMutableRawPointer?
#else
  private func cMemmem(
    _ haystack: UnsafeRawPointer?, _ haystackLength: Int, _ needle: UnsafeRawPointer?,
    _ needleLength: Int
  ) -> UnsafeMutableRawPointer? {
    memmem(haystack, haystackLength, needle, needleLength)
  }
#endif

extension StringProtocol {
  /// Whether `needle`'s UTF-8 bytes occur in the text's, found by `memmem`.
  ///
  /// Foundation's `contains(_:)` on a `String` goes through `NSString` on Linux: it copies the
  /// whole text to UTF-16 first, 0.5 s for a 50 MB body that lacks the needle, where `memmem`
  /// takes a few milliseconds. Redaction asks this of every body before it runs a rule, so it
  /// must cost nothing when the answer is no. Bytes, not characters: a needle here is ASCII
  /// punctuation, and `"xa".contains("a\0")` is true in Foundation (platform notes).
  func contains(bytes needle: StaticString) -> Bool {
    let needleBytes = UnsafeRawBufferPointer(
      start: needle.utf8Start, count: needle.utf8CodeUnitCount)
    if let found = utf8.withContiguousStorageIfAvailable({ haystack in
      ByteSearch.firstOffset(of: needleBytes, in: UnsafeRawBufferPointer(haystack)) != nil
    }) {
      return found
    }
    return Array(utf8).withUnsafeBytes { ByteSearch.firstOffset(of: needleBytes, in: $0) != nil }
  }
}

extension StringProtocol {
  /// Whether `needle` occurs in the text with ASCII letters in either case, as Foundation's
  /// `range(of:options: .caseInsensitive)` would find it, without its copy of the whole text
  /// to UTF-16 (see ``contains(bytes:)``). `memchr` finds each place the needle's first
  /// character that is no letter stands, and only there are the letters compared, so the
  /// needle must hold one (`:` in `redacted:`).
  func contains(bytesIgnoringCase needle: StaticString) -> Bool {
    let pattern = UnsafeRawBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
    func lowered(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
    guard
      let anchor = pattern.firstIndex(where: { lowered($0) == $0 && !(0x61...0x7A).contains($0) })
    else { preconditionFailure("contains(bytesIgnoringCase:) needs a needle with a non-letter") }
    func search(_ text: UnsafeRawBufferPointer) -> Bool {
      ByteSearch.firstAnchored(
        byte: pattern[anchor], at: anchor, length: pattern.count, in: text, from: 0
      ) { start in
        pattern.indices.allSatisfy { lowered(text[start + $0]) == lowered(pattern[$0]) }
      } != nil
    }
    return utf8.withContiguousStorageIfAvailable { search(UnsafeRawBufferPointer($0)) }
      ?? Array(utf8).withUnsafeBytes(search)
  }
}

extension UnsafeBufferPointer<UInt8> {
  /// The index of the first `byte` in `range`, found by `memchr`, which runs at full speed in the
  /// debug build `swift test` makes, where `self[range].contains(byte)` walks the bytes one
  /// generic call at a time.
  ///
  /// The length is the bounds subtracted: `Range.count` and `isEmpty` are generic calls at
  /// `-Onone` (through `distance` and `numericCast`), about 350 instructions a call, more than
  /// `memchr` spends on a short string.
  func index(of byte: UInt8, in range: Range<Int>) -> Int? {
    let length = range.upperBound - range.lowerBound
    guard length > 0, let base = baseAddress,
      let found = memchr(base + range.lowerBound, Int32(byte), length)
    else { return nil }
    return UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base
  }

  /// Whether the bytes at `offset` are `literal`'s, compared by `memcmp`.
  func holds(_ literal: StaticString, at offset: Int) -> Bool {
    let length = literal.utf8CodeUnitCount
    guard offset >= 0, offset + length <= count, let base = baseAddress else { return false }
    return memcmp(base + offset, literal.utf8Start, length) == 0
  }
}
