#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The members of a JSON document, each reported by the bytes of its name (quotes included) and
/// of its value, for redaction's search for credential names in a body.
///
/// ``JSONNode/walk(_:scalars:_:)`` reads with the parser that words errors: a call per token and
/// a value built and dropped for each, most of the cost of redacting a 50 MB body. This reads
/// the same tokens with ``JSONScanner`` in one tight loop and builds nothing. It reads only what
/// it is sure of: strings the scanner accepts (UTF-8, paired surrogates), nesting to 256, no
/// error. On anything else it returns `false`, and the caller forgets what it was told and
/// walks again with ``JSONNode/walk(_:scalars:_:)``, which decides. On a document it reads to
/// the end it reports exactly the members that walk reports, in the same order (each after the
/// members inside its value); `JSONMemberWalkTests` compares the two.
struct JSONMemberWalk<Visitor: JSONMemberVisitor> {
  static var maximumDepth: Int { 256 }

  private var scanner: JSONScanner
  private var depth = 0

  private init(_ bytes: UnsafeBufferPointer<UInt8>) {
    scanner = JSONScanner(UnsafeRawBufferPointer(bytes))
    // As the parser does: a byte order mark may lead.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.index = 3 }
  }

  /// Tells `visitor` of each member of the document `bytes`; `false` when it did not read the
  /// whole document, and the members reported so far are to be dropped.
  ///
  /// A visitor, not a closure: the closure's captured state cost a retain, a release and two
  /// exclusivity checks per member of a body.
  static func members(in bytes: UnsafeBufferPointer<UInt8>, to visitor: inout Visitor) -> Bool {
    var walk = JSONMemberWalk(bytes)
    walk.skipWhitespace()
    guard walk.value(&visitor) else { return false }
    walk.skipWhitespace()
    return walk.scanner.isAtEnd
  }

  /// A body without white space between its tokens pays a comparison here, not a call.
  @inline(__always)
  private mutating func skipWhitespace() {
    if let byte = scanner.current, byte <= 0x20 { scanner.skipWhitespace() }
  }

  /// Reads the string at the scanner; whether it has no escape, or `nil` when the scanner
  /// refuses it.
  ///
  /// A short string of plain ASCII (a member name, most values) ends at the first `"` found a
  /// word at a time here; anything else (an escape, a byte past ASCII, a long run) goes
  /// through the scanner's full check from the opening quote, which reads long runs faster.
  @inline(__always)
  private mutating func string() -> Bool? {
    let bytes = scanner.bytes
    let opening = scanner.index
    var index = opening + 1
    // ``JSONScanner/specialByteFlags(_:)`` written out, each word copied by `memcpy`: at `-Onone`
    // (what `swift test` compiles) the generic `loadUnaligned` and each call cost more than the
    // arithmetic, for every string of a body.
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs = ones &* 0x80
    let quotes = ones &* 0x22
    let backslashes = ones &* 0x5C
    let controls = ones &* 0x20
    let count = bytes.count
    while index + 8 <= count, index - opening <= 64, let base = bytes.baseAddress {
      var word: UInt64 = 0
      memcpy(&word, base + index, 8)
      // Not `UInt64(littleEndian:)`, a generic call at `-Onone`.
      #if _endian(big)
        word = word.byteSwapped
      #endif
      let quote = word ^ quotes
      let backslash = word ^ backslashes
      // The first `"`, `\`, control character or byte past ASCII; borrows flag only later bytes.
      let stops =
        (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
          | ((word &- controls) & ~word)) & highs | (word & highs)
      if stops != 0 {
        index += stops.trailingZeroBitCount >> 3
        guard bytes[index] == 0x22 else { break }  // "
        scanner.index = index + 1
        return true
      }
      index += 8
    }
    return scanner.scanString().map { !$0.hasEscapes }
  }

  private mutating func value(_ visitor: inout Visitor) -> Bool {
    guard let byte = scanner.current else { return false }
    // Bytes as numbers: `UInt8(ascii:)` and a range pattern are calls at `-Onone`, per value.
    switch byte {
    case 0x7B: return container(isObject: true, &visitor)  // {
    case 0x5B: return container(isObject: false, &visitor)  // [
    case 0x22: return string() != nil  // "
    case 0x74: return scanner.scanLiteral("true")  // t
    case 0x66: return scanner.scanLiteral("false")  // f
    case 0x6E: return scanner.scanLiteral("null")  // n
    case 0x2D, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39:  // - 0 to 9
      // JSON has no `01`: the parser refuses a digit after a leading zero, and so does this.
      guard scanner.scanNumber() != nil else { return false }
      return scanner.current.map { $0 &- 0x30 >= 10 } ?? true
    default:
      return false
    }
  }

  /// The object or array at the scanner, read in the parser's loop: a trailing comma is
  /// accepted, as the parser accepts it.
  private mutating func container(isObject: Bool, _ visitor: inout Visitor) -> Bool {
    depth += 1
    defer { depth -= 1 }
    guard depth <= Self.maximumDepth else { return false }
    let close: UInt8 = isObject ? 0x7D : 0x5D  // } ]
    scanner.index += 1
    while true {
      skipWhitespace()
      guard let byte = scanner.current else { return false }
      if byte == close {
        scanner.index += 1
        return true
      }
      var name = 0..<0
      var isPlain = true
      if isObject {
        let nameStart = scanner.index
        guard byte == 0x22, let plain = string() else { return false }  // "
        name = nameStart..<scanner.index
        isPlain = plain
        skipWhitespace()
        guard scanner.consume(0x3A) else { return false }  // :
        skipWhitespace()
      }
      let valueStart = scanner.index
      guard value(&visitor) else { return false }
      if isObject {
        visitor.member(name: name, isPlain: isPlain, value: valueStart..<scanner.index)
      }
      skipWhitespace()
      guard let next = scanner.current else { return false }
      scanner.index += 1
      if next == close { return true }
      guard next == 0x2C else { return false }  // ,
    }
  }
}

/// What ``JSONMemberWalk`` tells of each member: the bytes of its name (quotes included;
/// `isPlain` when it holds no escape, so the bytes between the quotes are the name) and of its
/// value.
protocol JSONMemberVisitor {
  mutating func member(name: Range<Int>, isPlain: Bool, value: Range<Int>)
}
