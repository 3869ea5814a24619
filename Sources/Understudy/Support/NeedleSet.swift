#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Many byte strings found in one pass over a text: the secrets a redaction has removed, each
/// in every spelling, searched for wherever else they might show.
///
/// One `memmem` a needle is the fastest search for a few needles, and quadratic for many: a
/// cassette of 2,000 password members has 44,000 spellings to look for, and searching its
/// 4.8 MB once per spelling took 100 s in the debug build. Here each needle of four bytes or
/// more is filed under its first four, and the text is read once, its four-byte window hashed
/// at each position, so a position whose window starts no needle costs one look at a bit
/// field. Shorter needles (a declared value may be that short) are filed by their first byte.
/// Needles are added one at a time, as a redaction finds values: nothing is sorted or filed
/// again.
///
/// Both searches find what reading the text from the left would: at each position, the
/// longest needle that matches there (of equal ones, the first added) is taken and the reading
/// goes on after it; else the next position. `NeedleSetTests` holds them to that reading over
/// a seeded fuzz.
struct NeedleSet {
  /// The needles, in the order added.
  private(set) var needles: [[UInt8]] = []
  /// The needles of four bytes or more grouped by those four (many share them: `pw12…` and
  /// its hex `7077…`); each bucket of `heads` starts a chain of groups.
  private var groupOfAnchor: [UInt32: Int] = [:]
  private var groupAnchors: [UInt32] = []
  private var groupNeedles: [[Int]] = []
  private var groupNext: [Int32] = []
  private var heads = [Int32](repeating: -1, count: 1 << 8)
  private var shift: UInt32 = 32 - 8
  /// One bit for each hash of a four-byte window, set when a group's anchor has that hash: at
  /// least 16 bits a group, so that few positions read `heads`, which with 44,000 needles is
  /// larger than the caches nearest the processor. 8 KiB to start.
  private var filter = [UInt64](repeating: 0, count: 1 << 10)
  private var filterShift: UInt32 = 32 - 16
  /// The needles shorter than four bytes, by first byte.
  private var shortByFirstByte = [[Int]](repeating: [], count: 256)
  /// One bit for each byte that starts a short needle.
  private var shortFirstBytes = [UInt64](repeating: 0, count: 4)
  private var hasShort = false

  /// Below this many needles, one `memmem` each is faster than the pass. The pass is a loop
  /// over bytes in Swift, which the debug build `swift test` compiles runs at about 45 MB/s
  /// here and release at several hundred, while `memmem` runs at gigabytes a second in
  /// either: 200 searches of a 10 MB body cost what one pass does in debug, 24 in release.
  #if DEBUG
    static let passThreshold = 200
  #else
    static let passThreshold = 24
  #endif

  init(_ needles: [[UInt8]] = []) {
    for needle in needles { append(needle) }
  }

  var isEmpty: Bool { needles.isEmpty }
  var count: Int { needles.count }

  /// Adds `needle`; it is searched for from the next search on.
  mutating func append(_ needle: [UInt8]) {
    let index = needles.count
    needles.append(needle)
    guard needle.count >= 4 else {
      if let byte = needle.first {
        shortByFirstByte[Int(byte)].append(index)
        shortFirstBytes[Int(byte) >> 6] |= 1 << UInt64(byte & 63)
        hasShort = true
      }
      return
    }
    let anchor = Self.window(needle[0], needle[1], needle[2], needle[3])
    if let group = groupOfAnchor[anchor] {
      groupNeedles[group].append(index)
      return
    }
    groupOfAnchor[anchor] = groupAnchors.count
    groupAnchors.append(anchor)
    groupNeedles.append([index])
    groupNext.append(-1)
    if groupAnchors.count * 16 > filter.count * 64 {
      filterShift -= 1
      filter = [UInt64](repeating: 0, count: filter.count * 2)
      for anchor in groupAnchors { mark(anchor) }
    } else {
      mark(anchor)
    }
    if groupAnchors.count * 2 > heads.count {
      fileGroups(bits: UInt32(heads.count.trailingZeroBitCount + 1))
    } else {
      file(group: groupAnchors.count - 1)
    }
  }

  private mutating func mark(_ anchor: UInt32) {
    let hash = Int((anchor &* 0x9E37_79B1) >> filterShift)
    filter[hash >> 6] |= 1 << UInt64(hash & 63)
  }

  /// Files every group again in a table of `1 << bits` buckets: the table doubles as groups
  /// come, so a chain stays about one group long.
  private mutating func fileGroups(bits: UInt32) {
    shift = 32 - bits
    heads = [Int32](repeating: -1, count: 1 << bits)
    for group in groupAnchors.indices { file(group: group) }
  }

  private mutating func file(group: Int) {
    let bucket = Int((groupAnchors[group] &* 0x9E37_79B1) >> shift)
    groupNext[group] = heads[bucket]
    heads[bucket] = Int32(group)
  }

  private static func window(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> UInt32 {
    UInt32(a) | UInt32(b) << 8 | UInt32(c) << 16 | UInt32(d) << 24
  }

  /// Where the needles occur in `bytes`, apart and in order, each with the needle found there:
  /// at each position the longest needle that matches (of equal ones, the first added), and the
  /// next search after it. `first` stops at the first found.
  func matches(in bytes: UnsafeRawBufferPointer, first: Bool = false) -> [(
    range: Range<Int>, needle: Int
  )] {
    guard !needles.isEmpty, !bytes.isEmpty else { return [] }
    return needles.count < Self.passThreshold
      ? searchEach(in: bytes, first: first) : pass(over: bytes, first: first)
  }

  /// Each needle searched for with `memmem`, every occurrence (overlapping ones too, since a
  /// longer needle may take the first), then taken from the left.
  private func searchEach(in bytes: UnsafeRawBufferPointer, first: Bool) -> [(
    range: Range<Int>, needle: Int
  )] {
    var found: [(range: Range<Int>, needle: Int)] = []
    for (index, needle) in needles.enumerated() where needle.count <= bytes.count {
      needle.withUnsafeBytes { needleBytes in
        var start = 0
        while let offset = ByteSearch.firstOffset(of: needleBytes, in: bytes, from: start) {
          found.append((offset..<(offset + needle.count), index))
          start = offset + 1
        }
      }
    }
    found.sort {
      if $0.range.lowerBound != $1.range.lowerBound {
        return $0.range.lowerBound < $1.range.lowerBound
      }
      if $0.range.count != $1.range.count { return $0.range.count > $1.range.count }
      return $0.needle < $1.needle
    }
    var apart: [(range: Range<Int>, needle: Int)] = []
    for match in found
    where apart.last.map({ $0.range.upperBound <= match.range.lowerBound }) ?? true {
      apart.append(match)
      if first { break }
    }
    return apart
  }

  /// One read of `bytes`: at each position the four-byte window's group and the short needles
  /// of its first byte are tried, the longest needle that matches in full is taken, and the
  /// read goes on after it.
  private func pass(over bytes: UnsafeRawBufferPointer, first: Bool) -> [(
    range: Range<Int>, needle: Int
  )] {
    let count = bytes.count
    guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return [] }
    var found: [(range: Range<Int>, needle: Int)] = []
    func matchesFully(_ index: Int, at position: Int) -> Bool {
      needles[index].count <= count - position
        && needles[index].withUnsafeBytes {
          memcmp($0.baseAddress!, base + position, $0.count) == 0
        }
    }
    /// The longest of `candidates` that matches at `position`, or -1.
    func longest(of candidates: [Int], at position: Int) -> Int {
      var taken = -1
      for index in candidates
      where taken < 0 || needles[index].count > needles[taken].count {
        if matchesFully(index, at: position) { taken = index }
      }
      return taken
    }
    /// The group whose anchor is the four bytes at `position`, if any.
    func group(at position: Int) -> Int? {
      guard position + 4 <= count else { return nil }
      let window = Self.window(
        base[position], base[position + 1], base[position + 2], base[position + 3])
      var group = Int(heads[Int((window &* 0x9E37_79B1) >> shift)])
      while group >= 0 {
        if groupAnchors[group] == window { return group }
        group = Int(groupNext[group])
      }
      return nil
    }
    filter.withUnsafeBufferPointer { filter in
      shortFirstBytes.withUnsafeBufferPointer { shortFirstBytes in
        var position = 0
        while true {
          position = Self.nextCandidate(
            in: base, count: count, from: position, filter: filter.baseAddress!,
            filterShift: filterShift, shortFirstBytes: hasShort ? shortFirstBytes.baseAddress : nil)
          guard position < count else { return }
          var taken = group(at: position).map { longest(of: groupNeedles[$0], at: position) } ?? -1
          // A short needle is shorter than any other: it matters only where none matched.
          if taken < 0, hasShort {
            taken = longest(of: shortByFirstByte[Int(base[position])], at: position)
          }
          if taken >= 0 {
            found.append((position..<(position + needles[taken].count), taken))
            if first { return }
            position += needles[taken].count
          } else {
            position += 1
          }
        }
      }
    }
    return found
  }

  /// The first position from `start` at which a needle may begin: its four-byte window's bit
  /// is set in `filter`, or (with short needles) its byte is in `shortFirstBytes`; `count` when
  /// there is none.
  ///
  /// The one loop over every byte, kept apart from what runs at a candidate: in the debug build
  /// `swift test` compiles, nested in the closures that lend the tables' pointers it cost 250
  /// instructions a byte, here 170 (`finish()` with 2,000 echoed secrets: 12% fewer in all).
  /// `@_optimize(speed)` changes nothing at `-Onone`: the instruction count is the same with it.
  /// Masking shifts (`&>>`, `&<<`) and truncating conversions: the plain ones check the shift's
  /// size and the value's range inline, about 100 instructions a byte at `-Onone`; every shift
  /// here is below the width (`filterShift` is at most 16) and every value fits.
  private static func nextCandidate(
    in base: UnsafePointer<UInt8>, count: Int, from start: Int, filter: UnsafePointer<UInt64>,
    filterShift: UInt32, shortFirstBytes: UnsafePointer<UInt64>?
  ) -> Int {
    var position = start
    guard position + 4 <= count else {
      guard let shortFirstBytes else { return count }
      while position < count {
        let byte = Int(truncatingIfNeeded: base[position])
        if shortFirstBytes[byte &>> 6] & (1 &<< UInt64(truncatingIfNeeded: byte & 63)) != 0 {
          return position
        }
        position += 1
      }
      return count
    }
    var window = window(base[position], base[position + 1], base[position + 2], base[position + 3])
    while true {
      let hash = Int(truncatingIfNeeded: (window &* 0x9E37_79B1) &>> filterShift)
      if filter[hash &>> 6] & (1 &<< UInt64(truncatingIfNeeded: hash & 63)) != 0 {
        return position
      }
      if let shortFirstBytes {
        let byte = Int(truncatingIfNeeded: base[position])
        if shortFirstBytes[byte &>> 6] & (1 &<< UInt64(truncatingIfNeeded: byte & 63)) != 0 {
          return position
        }
      }
      position += 1
      guard position + 4 <= count else {
        return nextCandidate(
          in: base, count: count, from: position, filter: filter, filterShift: filterShift,
          shortFirstBytes: shortFirstBytes)
      }
      window = window &>> 8 | UInt32(truncatingIfNeeded: base[position + 3]) &<< 24
    }
  }
}
