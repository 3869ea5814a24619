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
    guard !needle.isEmpty, haystack.count - start >= needle.count,
      let base = haystack.baseAddress,
      let found = cMemmem(
        base + start, haystack.count - start, needle.baseAddress, needle.count)
    else { return nil }
    return UnsafeRawPointer(found) - base
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
      guard let base = text.baseAddress, text.count >= pattern.count else { return false }
      // The last place the anchor can stand with the whole needle still inside the text.
      let lastAnchor = text.count - pattern.count + anchor
      var from = anchor
      while from <= lastAnchor,
        let hit = memchr(base + from, Int32(pattern[anchor]), lastAnchor + 1 - from)
      {
        let start = UnsafeRawPointer(hit) - base - anchor
        if pattern.indices.allSatisfy({ lowered(text[start + $0]) == lowered(pattern[$0]) }) {
          return true
        }
        from = start + anchor + 1
      }
      return false
    }
    return utf8.withContiguousStorageIfAvailable { search(UnsafeRawBufferPointer($0)) }
      ?? Array(utf8).withUnsafeBytes(search)
  }
}

extension UnsafeBufferPointer<UInt8> {
  /// The index of the first `byte` in `range`, found by `memchr`, which runs at full speed in the
  /// debug build `swift test` makes, where `self[range].contains(byte)` walks the bytes one
  /// generic call at a time.
  func index(of byte: UInt8, in range: Range<Int>) -> Int? {
    guard !range.isEmpty, let base = baseAddress,
      let found = memchr(base + range.lowerBound, Int32(byte), range.count)
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
