import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Text a body holds in base64 (either alphabet, padded or not, maybe wrapped over lines of
/// one width), in hex (behind `0x` too) or in base32, wherever it stands: an XML element, a CSV
/// cell, an HTML attribute or a `data:` URL in one, a log line's `payload=`, a multipart part,
/// an event stream's `data:` line, a JSON string. Redaction reads each run as the body it
/// holds and writes it back in the same spelling, as it reads a body that is base64 whole
/// (``Base64Body``); the scanner judges it by running that redaction.
///
/// Runs are found without reading every byte: a run of at least ``minimumLength`` characters
/// holds a byte at every ``minimumLength``-th offset, so only those are looked at, and a run is
/// followed by `strspn` (the debug build reads a byte in Swift at about 15 MB/s).
enum EncodedTextRuns {
  /// How a run spells its text.
  enum Spelling: Equatable {
    /// Base64; `width` is the length of its lines (0 on one line) and `lineBreak` what ends them.
    case base64(urlSafe: Bool, padded: Bool, width: Int, lineBreak: String)
    case hex(upperCase: Bool, prefix: String)
    case base32(padded: Bool)
  }

  /// A run of `text`'s bytes at `range` that decodes to text.
  struct Run {
    var range: Range<Int>
    var text: String
    var spelling: Spelling
  }

  /// Eighteen bytes of text: shorter runs are ids, words and hashes far more often.
  static let minimumLength = 24

  /// The runs of `text` that decode to text, in order. A run that is the whole of `text` is
  /// left out unless `includingWhole`: the whole-body readers (``Base64Body``, ``HexBody``)
  /// had it.
  static func runs(in text: String, includingWhole: Bool = false) -> [Run] {
    guard text.utf8.count >= minimumLength else { return [] }
    // A C string: `strspn` follows a run. A NUL inside ends a run as any other byte does.
    return text.withCString { pointer -> [Run] in
      let count = text.utf8.count
      let bytes = UnsafeBufferPointer(
        start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: count)
      return blocks(in: bytes, pointer: pointer).flatMap { block -> [Run] in
        if let run = decoded(block, in: bytes) { return [run] }
        // Lines of one width that are no one text may each be one.
        guard block.width > 0 else { return [] }
        return lines(of: block, in: bytes).compactMap { decoded($0, in: bytes) }
      }.filter { includingWhole || $0.range != 0..<count }
    }
  }

  /// `text` spelled as `spelling`.
  static func encoded(_ text: String, as spelling: Spelling) -> String {
    switch spelling {
    case .base64(let urlSafe, let padded, let width, let lineBreak):
      let whole = Base64Body.encoded(text, urlSafe: urlSafe, padded: padded)
      guard width > 0, whole.utf8.count > width else { return whole }
      var lines: [Substring] = []
      var rest = whole[...]
      while !rest.isEmpty {
        lines.append(rest.prefix(width))
        rest = rest.dropFirst(width)
      }
      return lines.joined(separator: lineBreak)
    case .hex(let upperCase, let prefix):
      return prefix + HexBody.encoded(text, upperCase: upperCase)
    case .base32(let padded):
      return Base32.encoded(Array(text.utf8), padded: padded)
    }
  }

  // MARK: Finding runs

  /// A run of base64 characters: its bytes (padding and line breaks included), and for lines
  /// of one width, that width and the line break.
  struct Block {
    var range: Range<Int>
    var width: Int
    var lineBreak: String
  }

  /// The characters of either base64 alphabet, for `strspn`.
  private static let alphabet: [CChar] = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_".utf8CString)

  /// Every maximal run of base64 characters of at least ``minimumLength``, with up to two `=`
  /// of padding, joined with the lines after it when they are of its width (a multiple of
  /// four) but the last.
  static func blocks(in bytes: UnsafeBufferPointer<UInt8>, pointer: UnsafePointer<CChar>)
    -> [Block]
  {
    let count = bytes.count
    var found: [Block] = []
    alphabet.withUnsafeBufferPointer { alphabet in
      let accept = alphabet.baseAddress!
      func span(from start: Int) -> Int { start + strspn(pointer + start, accept) }
      var covered = 0
      while let run = longRun(in: bytes, pointer: pointer, from: covered, accept: accept) {
        let start = run.lowerBound
        var end = run.upperBound
        let width = end - start
        var lineBreak = ""
        var lines = 1
        // Lines of one width, the last no longer; a JSON string's escaped line breaks too.
        while width % 4 == 0, let thisBreak = Self.lineBreak(at: end, in: bytes),
          lineBreak.isEmpty || lineBreak == thisBreak
        {
          let next = end + thisBreak.utf8.count
          let lineEnd = span(from: next)
          guard lineEnd > next, lineEnd - next <= width else { break }
          lineBreak = thisBreak
          lines += 1
          end = lineEnd
          if lineEnd - next < width { break }
        }
        var padded = end
        while padded < count, bytes[padded] == UInt8(ascii: "="), padded - end < 2 { padded += 1 }
        // `=` before more of a word is an assignment (`name=value`), not padding.
        if padded > end, padded < count, ASCIIByte.isBase64(bytes[padded]) { padded = end }
        covered = padded
        found.append(
          Block(range: start..<padded, width: lines > 1 ? width : 0, lineBreak: lineBreak))
      }
    }
    return found
  }

  /// The first maximal run of at least ``minimumLength`` base64 characters (and `\`, when
  /// `escapes`) that starts at `from` or later, read from `bytes`, whose C string is
  /// `pointer`. A byte in every ``minimumLength`` is looked at, since a run that long holds
  /// one; from where a run holding it starts, the bytes are read back from the last one a long
  /// enough run holds, so a word is left at the first byte past it. Only a long run is
  /// followed, by `strspn`, whose set-up costs hundreds of instructions a call (the debug
  /// build reads a byte in Swift at about 15 MB/s).
  static func longRun(
    in bytes: UnsafeBufferPointer<UInt8>, pointer: UnsafePointer<CChar>, from: Int,
    accept: UnsafePointer<CChar>, escapes: Bool = false
  ) -> Range<Int>? {
    let count = bytes.count
    let length = minimumLength
    guard let base = bytes.baseAddress else { return nil }
    // A table and a pointer: a call per byte (`ASCIIByte.isBase64`) costs 250 instructions
    // in the debug build, a pointer's subscript is inlined there.
    let classes = runClasses.value
    let run: UInt8 = escapes ? 3 : 1
    var covered = from
    var sample = from + length - 1
    while sample < count {
      guard classes[Int(base[sample])] & run != 0 else {
        sample += length
        continue
      }
      var start = sample
      while start > covered, classes[Int(base[start - 1])] & run != 0 { start -= 1 }
      // A run from `start` long enough holds every byte through `last`; any other run that
      // holds `last` starts after `start`, so past the first byte before `last` that is no
      // run's.
      let last = start + length - 1
      guard last < count else { return nil }
      var probe = last
      while probe > sample, classes[Int(base[probe])] & run != 0 { probe -= 1 }
      guard probe == sample else {
        covered = probe + 1
        sample = probe + length
        continue
      }
      return start..<(last + 1 + strspn(pointer + last + 1, accept))
    }
    return nil
  }

  /// For each byte, 1 when it is a character of either base64 alphabet, 2 when it is `\`; at
  /// an address that stays valid for the whole process, never written after this, so any
  /// thread may read it.
  private static let runClasses = Unchecked<UnsafePointer<UInt8>>(
    {
      let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
      for value in 0..<256 {
        let byte = UInt8(value)
        table[value] = ASCIIByte.isBase64(byte) ? 1 : byte == UInt8(ascii: "\\") ? 2 : 0
      }
      return UnsafePointer(table)
    }())

  /// The line break at `index`: `\n` or `\r\n`, or either escaped in a JSON string.
  private static func lineBreak(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> String? {
    let count = bytes.count
    guard index < count else { return nil }
    switch bytes[index] {
    case 0x0A: return "\n"
    case 0x0D: return index + 1 < count && bytes[index + 1] == 0x0A ? "\r\n" : nil
    case 0x5C:
      guard index + 1 < count else { return nil }
      if bytes[index + 1] == UInt8(ascii: "n") { return "\\n" }
      guard index + 3 < count, bytes[index + 1] == UInt8(ascii: "r"),
        bytes[index + 2] == 0x5C, bytes[index + 3] == UInt8(ascii: "n")
      else { return nil }
      return "\\r\\n"
    default: return nil
    }
  }

  /// The lines of `block`, each a block of one line when long enough.
  private static func lines(of block: Block, in bytes: UnsafeBufferPointer<UInt8>) -> [Block] {
    var lines: [Block] = []
    var start = block.range.lowerBound
    while start < block.range.upperBound {
      var end = start
      while end < block.range.upperBound,
        ASCIIByte.isBase64(bytes[end]) || bytes[end] == UInt8(ascii: "=")
      {
        end += 1
      }
      if end - start >= minimumLength {
        lines.append(Block(range: start..<end, width: 0, lineBreak: ""))
      }
      start = end + block.lineBreak.utf8.count
    }
    return lines
  }

  /// The text `block` spells, in hex, base64 or base32, or `nil` when it spells none.
  private static func decoded(_ block: Block, in bytes: UnsafeBufferPointer<UInt8>) -> Run? {
    let range = block.range
    if block.width == 0 {
      // Hex, behind `0x` or not, of one case: hex that is no text is no base64 of it either.
      var digits = range
      if range.count > 2, bytes[range.lowerBound] == UInt8(ascii: "0"),
        bytes[range.lowerBound + 1] | 0x20 == UInt8(ascii: "x")
      {
        digits = (range.lowerBound + 2)..<range.upperBound
      }
      if digits.count >= HexBody.minimumDigits, bytes[digits].allSatisfy(ASCIIByte.isHexDigit) {
        guard let hex = HexBody.decoded(String(decoding: bytes[digits], as: UTF8.self)) else {
          return nil
        }
        let prefix = String(decoding: bytes[range.lowerBound..<digits.lowerBound], as: UTF8.self)
        return Run(
          range: range, text: hex.text, spelling: .hex(upperCase: hex.upperCase, prefix: prefix))
      }
    }
    // Sixteen characters turn most runs away before the whole is decoded: a random token's
    // hold a control character three times in four.
    if let head = Base64Run.decode(bytes, range.lowerBound..<(range.lowerBound + 16)),
      !head.contains(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D || $0 == 0x7F }),
      let base64 = Base64Body.decoded(String(decoding: bytes[range], as: UTF8.self))
    {
      // Lines are written back padded, as MIME's and PEM's are.
      let padded = block.width > 0 || base64.padded
      return Run(
        range: range, text: base64.text,
        spelling: .base64(
          urlSafe: base64.urlSafe, padded: padded, width: block.width,
          lineBreak: block.lineBreak))
    }
    if block.width == 0, let text = Base32.decoded(bytes[range]) {
      return Run(
        range: range, text: text,
        spelling: .base32(padded: bytes[range.upperBound - 1] == UInt8(ascii: "=")))
    }
    return nil
  }

  // MARK: Compressed data

  /// The characters of either base64 alphabet and `\`, for `strspn`: a JSON string writes
  /// `/` as `\/`, and compressed bytes' base64 holds many.
  private static let escapedAlphabet: [CChar] = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_\\".utf8CString)

  /// The first run in `text` that is base64 of compressed bytes (gzip, zlib or zstd, by their
  /// signatures: `H4sI`, `eJ…`, `KLUv`), and the coding; such a run cannot be read, so
  /// redaction cannot look inside it. A run starts after a byte that is no base64 (a `\` too)
  /// and holds at least ``minimumLength`` characters of base64 or `\`.
  ///
  /// As ``longRun(in:pointer:from:accept:escapes:)`` does, a byte in every ``minimumLength``
  /// is looked at and the bytes before it read back to where a run holding it starts; only
  /// there, or after a `\` on the way, can a signature start. Where one of its first letters
  /// (`H`, `K`, `e`) stands, the run's length is read and its first eight characters decoded.
  static func compressedRun(in text: String) -> (range: Range<Int>, coding: String)? {
    let count = text.utf8.count
    guard count >= minimumLength else { return nil }
    return text.withCString { pointer -> (Range<Int>, String)? in
      let bytes = UnsafeBufferPointer(
        start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: count)
      let base = bytes.baseAddress!
      let classes = runClasses.value
      let length = minimumLength
      // Every start before `judged` has been judged.
      var judged = 0
      var sample = length - 1
      while sample < count {
        defer {
          judged = sample + 1
          sample += length
        }
        guard classes[Int(base[sample])] != 0 else { continue }
        var start = sample
        while start > judged, classes[Int(base[start - 1])] != 0 { start -= 1 }
        // With no `\`, only `start` can start a run; else each byte after one can too.
        let escaped = memchr(base + start, 0x5C, sample + 1 - start) != nil
        var from = start
        while from <= sample {
          // `H`, `K` or `e`: literals, since `UInt8(ascii:)` is a call in the debug build.
          let first = base[from]
          if first == 0x48 || first == 0x4B || first == 0x65,
            from == 0 || classes[Int(base[from - 1])] != 1,
            let found = compressed(at: from, in: bytes, pointer: pointer)
          {
            return found
          }
          guard escaped else { break }
          from += 1
        }
      }
      return nil
    }
  }

  /// The run of base64 (or `\`) at `index` and its coding, when it is long enough and its
  /// first eight characters decode to a signature's six bytes (its first is `H`, `K` or `e`).
  private static func compressed(
    at index: Int, in bytes: UnsafeBufferPointer<UInt8>, pointer: UnsafePointer<CChar>
  ) -> (Range<Int>, String)? {
    let end = escapedAlphabet.withUnsafeBufferPointer {
      index + strspn(pointer + index, $0.baseAddress!)
    }
    guard end - index >= minimumLength,
      let head = Base64Run.decode(bytes, index..<(index + 8)), head.count == 6,
      let coding = compression(of: head)
    else { return nil }
    return (index..<end, coding)
  }

  /// The coding whose signature `head` starts with: gzip's, zstd's, or a zlib header of the
  /// compression levels encoders write (`78 01`, `78 5E`, `78 9C`, `78 DA`) before a deflate
  /// block of a type that exists.
  private static func compression(of head: [UInt8]) -> String? {
    if head.starts(with: [0x1F, 0x8B, 0x08]) { return "gzip" }
    if head.starts(with: [0x28, 0xB5, 0x2F, 0xFD]) { return "zstd" }
    if head[0] == 0x78, [0x01, 0x5E, 0x9C, 0xDA].contains(head[1]), head[2] & 0x06 != 0x06 {
      return "zlib"
    }
    return nil
  }
}

/// Base32 (RFC 4648), the alphabet of TOTP secrets and of some exporters' blobs.
enum Base32 {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

  /// The text `digits` spell in base32, padding optional; `nil` for anything else, or bytes that
  /// are no text.
  static func decoded(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> String? {
    var bytes: [UInt8] = []
    var buffer: UInt32 = 0
    var bits = 0
    var padding = false
    for digit in digits {
      let value: UInt8
      switch digit {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = digit - UInt8(ascii: "A")
      case UInt8(ascii: "2")...UInt8(ascii: "7"): value = digit - UInt8(ascii: "2") + 26
      case UInt8(ascii: "="):
        padding = true
        continue
      default: return nil
      }
      guard !padding else { return nil }
      buffer = (buffer << 5 | UInt32(value)) & 0xFFFF
      bits += 5
      if bits >= 8 {
        bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits - 8)))
        bits -= 8
      }
    }
    guard Base64Run.isText(bytes) else { return nil }
    return String(validating: bytes, as: UTF8.self)
  }

  /// `bytes` in base32, padded to a multiple of eight when `padded`.
  static func encoded(_ bytes: [UInt8], padded: Bool) -> String {
    var output: [UInt8] = []
    var buffer: UInt32 = 0
    var bits = 0
    for byte in bytes {
      buffer = (buffer << 8 | UInt32(byte)) & 0xFFFF
      bits += 8
      while bits >= 5 {
        output.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 31)])
        bits -= 5
      }
    }
    if bits > 0 { output.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
    while padded, output.count % 8 != 0 { output.append(UInt8(ascii: "=")) }
    return String(decoding: output, as: UTF8.self)
  }
}
