import Foundation

/// A JSON body read once into a flat list of where its values lie, for matchers that look up a
/// few members and compare a few values: no dictionary, no `String`, one buffer of integers.
///
/// Each value takes four entries: its ``Kind``, the byte range of its contents (a string's
/// without the quotes), and the index of the entry after it and everything inside it, so a
/// reader steps over a value it does not want. An object's members follow it as name, value,
/// name, value; an array's elements follow it in order.
///
/// The tape is made only for a body ``JSONValueReader`` would read as well (strict RFC 8259 in
/// UTF-8, finite numbers, nesting to 256, no repeated member names), so a verdict read from it is
/// the one the parsed value gives. It also declines member names that are escaped or not ASCII
/// (`String` compares those by canonical equivalence, not bytes) and objects of more than 64
/// members (repeats are looked for pairwise). A body it declines is parsed in full.
struct JSONTape: Sendable {
  enum Kind: Int {
    case null, `false`, `true`, number
    /// A string without escapes, all ASCII: its bytes are its contents.
    case asciiString
    /// Any other string: decode it to compare.
    case string
    case array, object
  }

  /// The entries a value takes.
  static let width = 4
  /// The most members an object may have.
  static let maximumMembers = 64

  private let storage: Storage

  /// The tape of `bytes`, or `nil` when the body must be parsed in full.
  init?(_ bytes: UnsafeRawBufferPointer) {
    var builder = Builder(bytes)
    guard let storage = builder.build() else { return nil }
    self.storage = storage
  }

  func kind(at index: Int) -> Kind {
    // Not `?? .null`: a generic call with an autoclosure in a debug build.
    guard let kind = Kind(rawValue: storage.entries[index]) else { return .null }
    return kind
  }
  func contents(at index: Int) -> Range<Int> {
    storage.entries[index + 1]..<storage.entries[index + 2]
  }
  /// Whether the contents of the value at `index` are the `count` bytes at `other`: a length
  /// test and `memcmp`, without the `Range` that ``contents(at:)`` builds (a generic call in a
  /// debug build).
  func contents(
    at index: Int, in bytes: UnsafeRawBufferPointer, equal other: UnsafePointer<UInt8>,
    count: Int
  ) -> Bool {
    let start = storage.entries[index + 1]
    guard storage.entries[index + 2] - start == count else { return false }
    guard let base = bytes.baseAddress else { return count == 0 }
    return memcmp(base + start, other, count) == 0
  }
  /// The index just past the value at `index` and its contents.
  func end(at index: Int) -> Int { storage.entries[index + 3] }
  /// The entries themselves, four a value (kind, contents' start and end, the index past the
  /// value), for a reader that walks many of them.
  var entries: UnsafePointer<Int> { UnsafePointer(storage.entries) }

  /// The body's bytes the tape was read from (a copy the tape keeps), so matchers read them
  /// without `Data.withUnsafeBytes`, a generic call with a closure in a debug build.
  var body: UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: storage.bytes, count: storage.byteCount)
  }

  /// The entries and the bytes, in memory of their own: a debug build (what `swift test`
  /// compiles) reads an `[Int]` through a generic subscript call, a typed pointer with a load.
  private final class Storage: @unchecked Sendable {
    // Written only by the builder, before the tape is shared.
    let entries: UnsafeMutablePointer<Int>
    let bytes: UnsafeMutableRawPointer
    let byteCount: Int

    init(_ entries: UnsafeMutablePointer<Int>, copying bytes: UnsafePointer<UInt8>, count: Int) {
      self.entries = entries
      self.bytes = malloc(max(count, 1))!
      byteCount = count
      memcpy(self.bytes, bytes, count)
    }

    deinit {
      free(entries)
      free(bytes)
    }
  }

  /// Reads a body into entries in one pass over its bytes.
  ///
  /// Written for the debug build, where each call and each generic access costs tens of
  /// instructions: the common tokens (white space, plain ASCII strings and names, whole
  /// numbers, literals) are read inline over a typed pointer, and anything else (an escape, a
  /// byte that is not ASCII, a long string, a fraction or an exponent) is handed to
  /// ``JSONScanner``, whose verdicts on it are the strict ones the tape promises.
  private struct Builder {
    static let maximumDepth = 256
    // Bytes are written as numbers here: `UInt8(ascii:)` is a call in a debug build.
    /// Strings longer than this are left to the scanner's word-at-a-time and `memchr` runs.
    static let inlineStringLimit = 64

    let raw: UnsafeRawBufferPointer
    let base: UnsafePointer<UInt8>
    let count: Int
    var position = 0
    var entries: UnsafeMutablePointer<Int>
    var used = 0
    var capacity: Int
    private var depth = 0

    init(_ bytes: UnsafeRawBufferPointer) {
      raw = bytes
      // An empty body has no base address; any non-null pointer serves, as none is read.
      base =
        bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        ?? UnsafePointer(bitPattern: 0x10)!
      count = bytes.count
      // Four entries a value, and a value takes two bytes or more with its separator.
      capacity = min(2 * count + 8, 1 << 16)
      entries = malloc(capacity * MemoryLayout<Int>.stride)!.assumingMemoryBound(to: Int.self)
    }

    /// The entries, or `nil` (having freed them) when the body must be parsed in full.
    mutating func build() -> Storage? {
      if value() {
        while position < count {
          let byte = base[position]
          guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { break }
          position += 1
        }
        if position == count { return Storage(entries, copying: base, count: count) }
      }
      free(entries)
      return nil
    }

    private mutating func append(_ kind: Kind, _ lower: Int, _ upper: Int) {
      if used + JSONTape.width > capacity {
        capacity *= 2
        entries = realloc(entries, capacity * MemoryLayout<Int>.stride)!
          .assumingMemoryBound(to: Int.self)
      }
      entries[used] = kind.rawValue
      entries[used + 1] = lower
      entries[used + 2] = upper
      entries[used + 3] = used + JSONTape.width
      used += JSONTape.width
    }

    // White space and the separators are passed by loops written out where they occur, not by
    // calls: a call costs a debug build a hundred instructions or more, more than the bytes.

    mutating func value() -> Bool {
      while position < count, base[position] <= 0x20 {
        let byte = base[position]
        guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { break }
        position += 1
      }
      guard position < count else { return false }
      let start = position
      switch base[position] {
      case 0x7B: return container(.object)  // {
      case 0x5B: return container(.array)  // [
      case 0x22:  // "
        let end = plainStringEnd()
        if end >= 0 {
          append(.asciiString, start + 1, end)
          position = end + 1
          return true
        }
        guard let string = string() else { return false }
        append(
          string.isPlainASCII ? .asciiString : .string, string.range.lowerBound,
          string.range.upperBound)
      case 0x74:  // true
        guard literal(0x74, 0x72, 0x75, 0x65) else { return false }
        append(.true, start, position)
      case 0x66:  // false
        guard literal(0x66, 0x61, 0x6C, 0x73), position < count, base[position] == 0x65 else {
          return false
        }
        position += 1
        append(.false, start, position)
      case 0x6E:  // null
        guard literal(0x6E, 0x75, 0x6C, 0x6C) else { return false }
        append(.null, start, position)
      default:
        guard number() else { return false }
        append(.number, start, position)
      }
      return true
    }

    /// Moves past the four bytes given when they come next.
    private mutating func literal(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> Bool {
      guard position + 4 <= count, base[position] == a, base[position + 1] == b,
        base[position + 2] == c, base[position + 3] == d
      else { return false }
      position += 4
      return true
    }

    /// Moves past a number `JSONValueReader` reads as a finite `Double`: whole numbers of fewer
    /// than 300 digits inline (always finite), the rest through the scanner.
    private mutating func number() -> Bool {
      var end = position
      if end < count, base[end] == 0x2D { end += 1 }
      let digits = end
      while end < count, base[end] &- 0x30 < 10 { end += 1 }
      // No leading zero (the scanner stops after a lone `0`), no fraction, no exponent.
      var plain = end > digits && end - digits < 300
      if plain && base[digits] == 0x30 { plain = end == digits + 1 }
      if plain && end < count {
        plain = base[end] != 0x2E && base[end] | 0x20 != 0x65
      }
      if plain {
        position = end
        return true
      }
      var scanner = JSONScanner(raw, index: position)
      guard let range = scanner.scanNumber(), Self.isFinite(range, scanner) else { return false }
      position = scanner.index
      return true
    }

    /// Whether the reader's `Double` for the number stays finite; only numbers with an
    /// exponent or hundreds of digits need the conversion to tell.
    private static func isFinite(_ range: Range<Int>, _ scanner: JSONScanner) -> Bool {
      // A counted loop: `contains(where:)` over a slice is generic, and costs a debug build
      // thousands of instructions for a two-digit number.
      var needsConversion = range.upperBound - range.lowerBound > 300
      var index = range.lowerBound
      while !needsConversion && index < range.upperBound {
        needsConversion = scanner.bytes[index] | 0x20 == 0x65
        index += 1
      }
      return !needsConversion || scanner.double(range) != nil
    }

    /// Where the string whose opening quote is next ends (its closing quote), when it is short
    /// and plain ASCII without escapes; -1 when ``string()`` must read it.
    private func plainStringEnd() -> Int {
      var end = position + 1
      let limit = count < end + Self.inlineStringLimit ? count : end + Self.inlineStringLimit
      while end < limit {
        let byte = base[end]
        if byte == 0x22 { return end }
        // An escape, a control character or a byte that is not ASCII: the scanner judges.
        if byte == 0x5C || byte < 0x20 || byte >= 0x80 { return -1 }
        end += 1
      }
      return -1
    }

    /// Moves past the string whose opening quote is next, through the scanner: its contents'
    /// range, and whether they are plain ASCII without escapes.
    private mutating func string() -> (range: Range<Int>, isPlainASCII: Bool)? {
      var scanner = JSONScanner(raw, index: position)
      guard let span = scanner.scanString() else { return nil }
      position = scanner.index
      return (span.range, span.isPlainASCII)
    }

    private mutating func container(_ kind: Kind) -> Bool {
      depth += 1
      defer { depth -= 1 }
      guard depth <= Self.maximumDepth else { return false }
      let header = used
      let start = position
      append(kind, start, start)
      position += 1
      // A `case` pattern: `==` on the enum is a generic call in a debug build.
      var isObject = false
      if case .object = kind { isObject = true }
      let close: UInt8 = isObject ? 0x7D : 0x5D  // } or ]
      var members = 0
      while true {
        while position < count, base[position] <= 0x20 {
          let byte = base[position]
          guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { break }
          position += 1
        }
        guard position < count else { return false }
        if members == 0 && base[position] == close {
          position += 1
          break
        }
        if isObject {
          guard memberName(of: header, count: members) else { return false }
          while position < count, base[position] <= 0x20 {
            let byte = base[position]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { break }
            position += 1
          }
          guard position < count, base[position] == 0x3A else { return false }  // :
          position += 1
        }
        guard value() else { return false }
        members += 1
        while position < count, base[position] <= 0x20 {
          let byte = base[position]
          guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { break }
          position += 1
        }
        guard position < count else { return false }
        if base[position] == close {
          position += 1
          break
        }
        guard base[position] == 0x2C else { return false }  // ,
        position += 1
      }
      entries[header + 2] = position
      entries[header + 3] = used
      return true
    }

    /// Reads the name of the next member of the object at `header`, which has `count`
    /// members so far: plain ASCII, and not one of theirs.
    private mutating func memberName(of header: Int, count members: Int) -> Bool {
      guard members < JSONTape.maximumMembers, base[position] == 0x22 else { return false }
      var lower = position + 1
      var upper = plainStringEnd()
      if upper >= 0 {
        position = upper + 1
      } else {
        guard let name = string(), name.isPlainASCII else { return false }
        lower = name.range.lowerBound
        upper = name.range.upperBound
      }
      let length = upper - lower
      var earlier = header + JSONTape.width
      while earlier < used {
        if entries[earlier + 2] - entries[earlier + 1] == length,
          memcmp(base + entries[earlier + 1], base + lower, length) == 0
        {
          return false
        }
        earlier = entries[earlier + JSONTape.width + 3]  // past the member's value
      }
      append(.asciiString, lower, upper)
      return true
    }
  }
}
