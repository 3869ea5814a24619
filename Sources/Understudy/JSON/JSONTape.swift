import Foundation

/// A JSON body read once into a flat list of where its values lie, for matchers that look up a
/// few members and compare a few values: no dictionary, no `String`, one array.
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

  let entries: [Int]

  /// The tape of `bytes`, or `nil` when the body must be parsed in full.
  init?(_ bytes: UnsafeRawBufferPointer) {
    var builder = Builder(scanner: JSONScanner(bytes))
    builder.entries.reserveCapacity(min(bytes.count, 1 << 16))
    guard builder.value() else { return nil }
    builder.scanner.skipWhitespace()
    guard builder.scanner.isAtEnd else { return nil }
    entries = builder.entries
  }

  /// Whether `range` of `bytes` holds the same bytes as `other`; `memcmp`, as the generic
  /// `elementsEqual` cost a hundred instructions for a short name.
  static func bytes(
    _ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, equal other: UnsafeRawBufferPointer
  ) -> Bool {
    // Bounds subtracted: `Range.count` is a generic call through `distance` in a debug build.
    guard range.upperBound - range.lowerBound == other.count else { return false }
    guard let base = bytes.baseAddress, let otherBase = other.baseAddress else { return true }
    return memcmp(base + range.lowerBound, otherBase, other.count) == 0
  }

  func kind(at index: Int) -> Kind { Kind(rawValue: entries[index]) ?? .null }
  func contents(at index: Int) -> Range<Int> { entries[index + 1]..<entries[index + 2] }
  /// The index just past the value at `index` and its contents.
  func end(at index: Int) -> Int { entries[index + 3] }

  private struct Builder {
    static let maximumDepth = 256

    var scanner: JSONScanner
    var entries: [Int] = []
    private var depth = 0

    init(scanner: JSONScanner) {
      self.scanner = scanner
    }

    private mutating func append(_ kind: Kind, _ range: Range<Int>) {
      entries.append(kind.rawValue)
      entries.append(range.lowerBound)
      entries.append(range.upperBound)
      entries.append(entries.count + 1)
    }

    mutating func value() -> Bool {
      scanner.skipWhitespace()
      guard let byte = scanner.current else { return false }
      let start = scanner.index
      switch byte {
      case UInt8(ascii: "{"): return container(.object)
      case UInt8(ascii: "["): return container(.array)
      case UInt8(ascii: "\""):
        guard let span = scanner.scanString() else { return false }
        append(span.isPlainASCII ? .asciiString : .string, span.range)
      case UInt8(ascii: "t"):
        guard scanner.scanLiteral("true") else { return false }
        append(.true, start..<scanner.index)
      case UInt8(ascii: "f"):
        guard scanner.scanLiteral("false") else { return false }
        append(.false, start..<scanner.index)
      case UInt8(ascii: "n"):
        guard scanner.scanLiteral("null") else { return false }
        append(.null, start..<scanner.index)
      default:
        guard let range = scanner.scanNumber(), isFinite(range) else { return false }
        append(.number, range)
      }
      return true
    }

    /// Whether the reader's `Double` for the number stays finite; only numbers with an
    /// exponent or hundreds of digits need the conversion to tell.
    private func isFinite(_ range: Range<Int>) -> Bool {
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

    private mutating func container(_ kind: Kind) -> Bool {
      depth += 1
      defer { depth -= 1 }
      guard depth <= Self.maximumDepth else { return false }
      let header = entries.count
      let start = scanner.index
      append(kind, start..<start)
      scanner.index += 1
      let close = kind == .object ? UInt8(ascii: "}") : UInt8(ascii: "]")
      scanner.skipWhitespace()
      if !scanner.consume(close) {
        var count = 0
        while true {
          if kind == .object {
            scanner.skipWhitespace()
            guard memberName(of: header, count: count) else { return false }
            scanner.skipWhitespace()
            guard scanner.consume(UInt8(ascii: ":")) else { return false }
          }
          guard value() else { return false }
          count += 1
          scanner.skipWhitespace()
          if scanner.consume(close) { break }
          guard scanner.consume(UInt8(ascii: ",")) else { return false }
        }
      }
      entries[header + 2] = scanner.index
      entries[header + 3] = entries.count
      return true
    }

    /// Reads the name of the next member of the object at `header`, which has `count`
    /// members so far: plain ASCII, and not one of theirs.
    private mutating func memberName(of header: Int, count: Int) -> Bool {
      guard count < JSONTape.maximumMembers, scanner.current == UInt8(ascii: "\""),
        let span = scanner.scanString(), span.isPlainASCII
      else { return false }
      let name = UnsafeRawBufferPointer(rebasing: scanner.bytes[span.range])
      var earlier = header + JSONTape.width
      while earlier < entries.count {
        let range = entries[earlier + 1]..<entries[earlier + 2]
        if JSONTape.bytes(scanner.bytes, range, equal: name) { return false }
        earlier = entries[earlier + JSONTape.width + 3]  // past the member's value
      }
      append(.asciiString, span.range)
      return true
    }
  }
}
