#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Eight bytes of text read as one integer, to look for a few byte values a word at a time
/// where a byte-by-byte loop over a large body costs a branch each.
enum ByteWord {
  static let ones: UInt64 = 0x0101_0101_0101_0101

  /// The eight bytes at `offset`, the first in the lowest bits; the caller keeps them inside
  /// `bytes`.
  ///
  /// Copied by `memcpy`: `loadUnaligned(fromByteOffset:as:)` is generic, and at `-Onone` (what
  /// `swift test` compiles) each call took about 200 instructions; this one takes about 60.
  @inline(__always)
  static func load(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt64 {
    var word: UInt64 = 0
    if let base = bytes.baseAddress { memcpy(&word, base + offset, 8) }
    // Not `UInt64(littleEndian:)`, a generic call through `FixedWidthInteger` at `-Onone`.
    #if _endian(big)
      word = word.byteSwapped
    #endif
    return word
  }

  /// Bit 7 of each byte of `word` equal to `value`. A borrow can flag a byte after a true match,
  /// never one before it, so the lowest flag is the first match and no flag means none: a
  /// caller may skip to the lowest flag, and checks the byte there.
  @inline(__always)
  static func matches(_ word: UInt64, _ value: UInt8) -> UInt64 {
    let difference = word ^ (ones &* UInt64(value))
    return (difference &- ones) & ~difference & (ones &* 0x80)
  }

  /// The offset of the byte whose bit 7 is the lowest set in `flags`.
  @inline(__always)
  static func firstFlagged(_ flags: UInt64) -> Int {
    flags.trailingZeroBitCount >> 3
  }
}
