/// A JSON value with the byte range it occupies in its source.
///
/// Foundation's decoders report neither where a syntax error is (Linux `JSONDecoder` says only
/// "The given data was not valid JSON.") nor where a member with the wrong type sits. This
/// parser runs only when something has already gone wrong, or on bodies being redacted, and
/// keeps offsets so errors can give a line and column and redaction can replace a value in
/// place without reformatting the rest of the body. It reads tokens with ``JSONScanner``, as the
/// matchers' and the cassette loader's readers do, and adds the messages and the leniency.
struct JSONNode {
  /// A member of an object.
  struct Member {
    var key: String
    var value: JSONNode
  }

  /// The kinds of JSON value.
  enum Value {
    case object([Member])
    case array([JSONNode])
    case string(String)
    case number(String)
    case bool(Bool)
    case null
  }

  var value: Value
  /// The bytes of the value in the source, from its first to just past its last byte.
  var range: Range<Int>

  /// The 1-based line and column of a byte offset, the column counted in characters.
  static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
    bytes.withUnsafeBytes { JSONScanner.lineAndColumn(of: offset, in: $0) }
  }

  /// The 1-based column of a byte offset on the line starting at `lineStart`, counted in
  /// characters.
  static func column(of offset: Int, lineStart: Int, in bytes: [UInt8]) -> Int {
    // Count the first byte of each UTF-8 sequence, so "é" is one column.
    bytes[lineStart..<offset].count { $0 & 0xC0 != 0x80 } + 1
  }

  /// Parses a whole document; a leading byte order mark is skipped, as the HAR spec asks.
  ///
  /// - Parameter strict: Also reject what Foundation rejects but bodies in the wild contain:
  ///   strings that are not UTF-8 and `\u` escapes of unpaired UTF-16 surrogates. Leniently,
  ///   both become U+FFFD, so a body can still be redacted; strictly, the error says where they
  ///   are, for a cassette Foundation would not read.
  static func parse(_ bytes: [UInt8], strict: Bool = false) throws(JSONSyntaxError) -> JSONNode {
    let result = bytes.withUnsafeBufferPointer { bytes in
      Result { () throws(JSONSyntaxError) in try parse(bytes, strict: strict) }
    }
    return try result.get()
  }

  /// Parses a whole document held in `bytes`.
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>, strict: Bool = false)
    throws(JSONSyntaxError) -> JSONNode
  {
    var parser = JSONParser(bytes: bytes, strict: strict)
    return try parser.parseDocument()
  }

  /// Reads `bytes` as ``parse(_:strict:)`` does, accepting and rejecting exactly the same
  /// documents, without building them: each string, number and object member is reported to
  /// `visit` as it ends, in document order of their ends.
  ///
  /// Redaction reads every body it writes; building a tree of a 50 MB body (millions of nodes,
  /// a String for each) cost more than everything else it does, when it needs only the names
  /// of members and, rarely, the value of one.
  ///
  /// - Parameter scalars: Whether to report strings and numbers too; a caller after member
  ///   names alone is spared a call for each.
  static func walk(
    _ bytes: UnsafeBufferPointer<UInt8>, scalars: Bool = true, _ visit: (JSONWalkEvent) -> Void
  ) throws(JSONSyntaxError) {
    // The parser keeps the closure only while this call runs.
    let result = withoutActuallyEscaping(visit) { visit in
      Result { () throws(JSONSyntaxError) in
        var parser = JSONParser(bytes: bytes, strict: false, visit: visit)
        parser.reportsScalars = scalars
        _ = try parser.parseDocument()
      }
    }
    try result.get()
  }

  /// The first member, in document order, whose name an earlier member of the same object
  /// already has, with the byte offset of its name; `nil` when no object repeats a name or when
  /// `bytes` is not JSON (the caller's own reader reports that).
  ///
  /// Readers disagree on which copy of a repeated member counts (Foundation keeps the first),
  /// so a cassette that holds one cannot be read without guessing.
  static func firstRepeatedMember(in bytes: UnsafeBufferPointer<UInt8>)
    -> (name: String, offset: Int)?
  {
    let ignore: (JSONWalkEvent) -> Void = { _ in }
    return withoutActuallyEscaping(ignore) { visit in
      var parser = JSONParser(bytes: bytes, strict: false, visit: visit)
      parser.reportsScalars = false
      parser.rejectsRepeatedNames = true
      _ = try? parser.parseDocument()
      return parser.repeatedMember
    }
  }

  /// The path from this value to the innermost object or array holding the byte `offset`.
  func path(toContainerOf offset: Int) -> [JSONPathComponent] {
    var path: [JSONPathComponent] = []
    var node = self
    while true {
      switch node.value {
      case .object(let members):
        guard let member = members.last(where: { $0.value.range.contains(offset) }) else {
          return path
        }
        path.append(.key(member.key))
        node = member.value
      case .array(let elements):
        guard let index = elements.firstIndex(where: { $0.range.contains(offset) }) else {
          return path
        }
        path.append(.index(index))
        node = elements[index]
      default:
        return path
      }
    }
  }

  /// The contents of the string whose bytes, quotes included, are `range` of `bytes`, as
  /// ``walk(_:_:)`` reports it; `nil` when they are not a string.
  static func string(at range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> String? {
    guard case .string(let text)? = (try? parse(.init(rebasing: bytes[range])))?.value else {
      return nil
    }
    return text
  }

  /// The value at `path`, or the deepest value on the way there when the path leaves the
  /// document (the object a missing member belongs in), and whether the path was reached.
  func descendant(at path: [JSONPathComponent]) -> (node: JSONNode, reached: Bool) {
    var node = self
    for component in path {
      switch (component, node.value) {
      case (.key(let key), .object(let members)):
        guard let member = members.last(where: { $0.key == key }) else { return (node, false) }
        node = member.value
      case (.index(let index), .array(let elements)) where elements.indices.contains(index):
        node = elements[index]
      default:
        return (node, false)
      }
    }
    return (node, true)
  }

  /// How the value reads in a sentence: `the string "200"`, `an array`.
  var summary: String {
    switch value {
    case .object: return "an object"
    case .array: return "an array"
    case .string(let text):
      // Never cut, and quoted only when it cannot be a token (see ``QuotedValue``).
      return QuotedValue.mayShow(text)
        ? "the string \"\(text)\"" : "a string of \(text.count) characters"
    case .number(let text): return "the number \(text)"
    case .bool(let flag): return String(flag)
    case .null: return "null"
    }
  }
}

/// What ``JSONNode/walk(_:_:)`` reports.
enum JSONWalkEvent {
  /// An object member: the bytes of its name (a string, quotes included; `isPlain` as for
  /// ``string(_:isPlain:)``) and of its value, whose own events came first.
  case member(name: Range<Int>, isPlain: Bool, value: Range<Int>)
  /// A string, quotes included; `isPlain` when it has no escapes, so that the bytes between
  /// the quotes are its contents.
  case string(Range<Int>, isPlain: Bool)
  /// A number, as written.
  case number(Range<Int>)
}

/// One step of a path into a JSON document.
enum JSONPathComponent: Hashable {
  case key(String)
  case index(Int)

  /// The steps of a decoder's coding path; array positions carry an `intValue`.
  static func path(_ codingPath: [any CodingKey]) -> [JSONPathComponent] {
    codingPath.map { key in key.intValue.map(Self.index) ?? .key(key.stringValue) }
  }

  /// `log.entries[3].response.status`; names that are not identifiers are quoted.
  static func render(_ path: [JSONPathComponent]) -> String {
    var result = ""
    for component in path {
      switch component {
      case .index(let index):
        result += "[\(index)]"
      case .key(let key) where key.isIdentifier:
        result += (result.isEmpty ? "" : ".") + key
      case .key(let key):
        result += "[\"\(key)\"]"
      }
    }
    return result
  }
}

extension JSONPathComponent {
  /// Reads a path as ``render(_:)`` writes it; `nil` when `text` is not one.
  static func parse(_ text: String) -> [JSONPathComponent]? {
    var rest = Substring(text)
    var path: [JSONPathComponent] = []
    while let first = rest.first {
      if rest.hasPrefix("[\"") {
        guard let end = rest.range(of: "\"]") else { return nil }
        path.append(.key(String(rest[rest.index(rest.startIndex, offsetBy: 2)..<end.lowerBound])))
        rest = rest[end.upperBound...]
      } else if first == "[" {
        guard let close = rest.firstIndex(of: "]"),
          let index = Int(rest[rest.index(after: rest.startIndex)..<close]), index >= 0
        else { return nil }
        path.append(.index(index))
        rest = rest[rest.index(after: close)...]
      } else {
        // A name follows a dot, except at the start.
        if first == "." {
          guard !path.isEmpty else { return nil }
          rest.removeFirst()
        } else if !path.isEmpty {
          return nil
        }
        let name = rest.prefix { $0 != "." && $0 != "[" }
        guard !name.isEmpty else { return nil }
        path.append(.key(String(name)))
        rest.removeFirst(name.count)
      }
    }
    return path
  }
}

extension String {
  fileprivate var isIdentifier: Bool {
    !isEmpty && first?.isNumber == false
      && allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "$") }
  }
}

/// Where and why a document is not JSON.
struct JSONSyntaxError: Error {
  /// The byte offset of the problem.
  var offset: Int
  /// What is wrong, as a clause.
  var problem: String
  /// Whether the document ends before it is complete, which usually means a cut-short file.
  var isTruncated: Bool
}

/// The error-reporting reader over ``JSONScanner``'s tokens: the scanner reads what is well
/// formed, and this parser works out what to say, and where, when it is not, and what to accept
/// leniently (bytes that are not UTF-8, unpaired surrogate escapes) when not `strict`.
private struct JSONParser {
  /// The nesting Foundation's parser allows; deeper documents are rejected, never recursed into.
  static let maximumDepth = 512

  let bytes: UnsafeBufferPointer<UInt8>
  let strict: Bool
  /// Set for ``JSONNode/walk(_:_:)``: values are read and checked but not built (containers
  /// come back empty, strings and numbers as ""), and reported here instead.
  let visit: ((JSONWalkEvent) -> Void)?
  /// Whether `visit` hears of strings and numbers, or of members alone.
  var reportsScalars = true
  /// Set for ``JSONNode/firstRepeatedMember(in:)``: the parse stops at the first member whose
  /// name its object already has, and leaves it in `repeatedMember`.
  var rejectsRepeatedNames = false
  /// The repeated member found, with the offset of its name.
  var repeatedMember: (name: String, offset: Int)?
  var scanner: JSONScanner

  init(bytes: UnsafeBufferPointer<UInt8>, strict: Bool, visit: ((JSONWalkEvent) -> Void)? = nil) {
    self.bytes = bytes
    self.strict = strict
    self.visit = visit
    scanner = JSONScanner(UnsafeRawBufferPointer(bytes))
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.index = 3 }
  }

  var index: Int {
    get { scanner.index }
    set { scanner.index = newValue }
  }

  mutating func parseDocument() throws(JSONSyntaxError) -> JSONNode {
    scanner.skipWhitespace()
    guard index < bytes.count else {
      throw JSONSyntaxError(offset: index, problem: "the file contains no JSON", isTruncated: true)
    }
    let node = try parseValue(depth: 0)
    scanner.skipWhitespace()
    guard index == bytes.count else {
      throw failure("found \(upcoming) after the end of the JSON document")
    }
    return node
  }

  private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONNode {
    guard depth < Self.maximumDepth else {
      throw failure("the JSON nests more than \(Self.maximumDepth) levels deep")
    }
    let start = index
    guard index < bytes.count else {
      throw JSONSyntaxError(
        offset: index, problem: "the file ends where a value should be", isTruncated: true)
    }
    let value: JSONNode.Value
    switch bytes[index] {
    case UInt8(ascii: "{"): value = .object(try parseMembers(depth: depth))
    case UInt8(ascii: "["): value = .array(try parseElements(depth: depth))
    case UInt8(ascii: "\""):
      let text = try parseString(building: visit == nil)
      if reportsScalars { visit?(.string(start..<index, isPlain: text.isPlain)) }
      value = .string(text.contents)
    case UInt8(ascii: "t"): value = .bool(try parseLiteral("true"))
    case UInt8(ascii: "f"): value = .bool(!(try parseLiteral("false")))
    case UInt8(ascii: "n"):
      _ = try parseLiteral("null")
      value = .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      value = .number(try parseNumber())
      if reportsScalars { visit?(.number(start..<index)) }
    default:
      throw failure(
        "expected a value (an object, array, string, number, true, false or null) "
          + "but found \(upcoming)")
    }
    return JSONNode(value: value, range: start..<index)
  }

  private mutating func parseMembers(depth: Int) throws(JSONSyntaxError) -> [JSONNode.Member] {
    let opening = index
    index += 1
    var members: [JSONNode.Member] = []
    var names: Set<String> = []
    while true {
      scanner.skipWhitespace()
      try checkNotAtEnd(inside: "object", openedAt: opening)
      // Accept a trailing comma: Foundation's JSONDecoder does, so this parser must too, or a
      // type error in such a file would lose its line and column.
      if bytes[index] == UInt8(ascii: "}") {
        index += 1
        return members
      }
      guard bytes[index] == UInt8(ascii: "\"") else {
        throw failure("expected a member name in double quotes but found \(upcoming)")
      }
      let keyStart = index
      let key = try parseString(building: visit == nil || rejectsRepeatedNames)
      let keyRange = keyStart..<index
      if rejectsRepeatedNames, !names.insert(key.contents).inserted {
        repeatedMember = (key.contents, keyStart)
        throw failure("the member \"\(key.contents)\" is repeated")
      }
      scanner.skipWhitespace()
      try checkNotAtEnd(inside: "object", openedAt: opening)
      guard bytes[index] == UInt8(ascii: ":") else {
        throw failure(
          "expected \":\" after the member name \"\(name(keyRange))\" but found \(upcoming)")
      }
      index += 1
      scanner.skipWhitespace()
      let value = try parseValue(depth: depth + 1)
      if let visit {
        visit(.member(name: keyRange, isPlain: key.isPlain, value: value.range))
      } else {
        members.append(JSONNode.Member(key: key.contents, value: value))
      }
      scanner.skipWhitespace()
      try checkNotAtEnd(inside: "object", openedAt: opening)
      switch bytes[index] {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "}"):
        index += 1
        return members
      default:
        throw failure(
          "expected \",\" or \"}\" after the value of \"\(name(keyRange))\" but found \(upcoming)")
      }
    }
  }

  private mutating func parseElements(depth: Int) throws(JSONSyntaxError) -> [JSONNode] {
    let opening = index
    index += 1
    var elements: [JSONNode] = []
    var count = 0
    while true {
      scanner.skipWhitespace()
      try checkNotAtEnd(inside: "array", openedAt: opening)
      if bytes[index] == UInt8(ascii: "]") {
        index += 1
        return elements
      }
      let element = try parseValue(depth: depth + 1)
      count += 1
      if visit == nil { elements.append(element) }
      scanner.skipWhitespace()
      try checkNotAtEnd(inside: "array", openedAt: opening)
      switch bytes[index] {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "]"):
        index += 1
        return elements
      default:
        throw failure(
          "expected \",\" or \"]\" after element \(count - 1) of the array "
            + "but found \(upcoming)")
      }
    }
  }

  /// Reads a string; its contents are built only when `building`, and are plain when it has
  /// no escapes.
  private mutating func parseString(building: Bool = true) throws(JSONSyntaxError) -> (
    contents: String, isPlain: Bool
  ) {
    let opening = index
    // What the scanner accepts is well formed even strictly; the rest is read again below.
    if let span = scanner.scanString() {
      return (building ? JSONScanner.decode(span, in: scanner.bytes) : "", !span.hasEscapes)
    }
    index = opening
    let span = try checkIrregularString()
    return (building ? JSONScanner.decode(span, in: scanner.bytes) : "", !span.hasEscapes)
  }

  /// Reads the string at ``index`` that the scanner refused: throws where it is malformed, or,
  /// when not `strict`, accepts bytes that are not UTF-8 and unpaired surrogate escapes, which
  /// decoding turns into U+FFFD.
  private mutating func checkIrregularString() throws(JSONSyntaxError) -> JSONScanner.StringSpan {
    let opening = index
    index += 1
    if strict { try checkUTF8(from: index) }
    let start = index
    var hasEscapes = false
    while true {
      try checkNotAtEnd(inside: "string", openedAt: opening)
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        return JSONScanner.StringSpan(range: start..<(index - 1), hasEscapes: hasEscapes)
      case UInt8(ascii: "\\"):
        hasEscapes = true
        index += 1
        try checkNotAtEnd(inside: "string", openedAt: opening)
        try checkEscape()
      case 0..<0x20:
        throw failure(
          "a string contains a raw control character (U+\(hex(byte, width: 4))); "
            + "JSON strings must write it as an escape such as \\n")
      default:
        index += 1
      }
    }
  }

  /// Checks the escape whose backslash is just before ``index`` and moves past it.
  private mutating func checkEscape() throws(JSONSyntaxError) {
    switch bytes[index] {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
      UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      index += 1
      return
    case UInt8(ascii: "u"):
      break
    default:
      index -= 1
      throw failure("\(upcoming) is not a JSON escape")
    }
    let start = index - 1
    let first = try checkHex4()
    var isPair = false
    if (0xD800..<0xDC00).contains(first), bytes[index...].starts(with: "\\u".utf8) {
      index += 1
      isPair = (0xDC00..<0xE000).contains(try checkHex4())
    }
    if strict, (0xD800..<0xE000).contains(first), !isPair {
      index = start
      throw failure(
        "\(upcoming) is half of a UTF-16 surrogate pair; follow a \\uD800–\\uDBFF escape with a "
          + "\\uDC00–\\uDFFF one, or write the character itself")
    }
  }

  /// Reads `uXXXX` at ``index`` and leaves the index after it.
  private mutating func checkHex4() throws(JSONSyntaxError) -> UInt32 {
    guard let value = JSONScanner.hex4(scanner.bytes, at: index + 1) else {
      index -= 1
      throw failure("\(upcoming) is not a JSON escape; \\u takes four hexadecimal digits")
    }
    index += 5
    return value
  }

  /// Throws at the first byte of the string starting at `start` that is not UTF-8; escapes are
  /// ASCII, so the raw bytes up to the closing quote can be checked as they are.
  private mutating func checkUTF8(from start: Int) throws(JSONSyntaxError) {
    var end = start
    while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
      end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
    }
    guard
      let offset = JSONScanner.firstInvalidUTF8(in: scanner.bytes, start..<min(end, bytes.count))
    else { return }
    index = offset
    throw failure(
      "a string contains the byte 0x\(hex(bytes[offset], width: 2)), which is not UTF-8; "
        + "save the file as UTF-8, or write binary bodies as base64")
  }

  private mutating func parseNumber() throws(JSONSyntaxError) -> String {
    let start = index
    // The scanner stops after a leading zero; JSON has no `01`, so a digit after it is an error.
    guard let range = scanner.scanNumber(), scanner.current.map({ $0 &- 0x30 >= 10 }) ?? true
    else {
      index = start
      throw failure("\(upcoming) is not a valid JSON number")
    }
    return visit == nil ? String(decoding: bytes[range], as: UTF8.self) : ""
  }

  /// Reads `literal` and returns true; throws when the text is something else.
  private mutating func parseLiteral(_ literal: StaticString) throws(JSONSyntaxError) -> Bool {
    guard scanner.scanLiteral(literal) else {
      throw failure(
        "expected a value (an object, array, string, number, true, false or null) "
          + "but found \(upcoming)")
    }
    return true
  }

  /// The member name in `range`, decoded, for a message; walking does not build names.
  private func name(_ range: Range<Int>) -> String {
    var parser = JSONParser(bytes: bytes, strict: false)
    parser.index = range.lowerBound
    return (try? parser.parseString().contents) ?? ""
  }

  /// Inlined, so the walk of a large body pays a comparison per token rather than a call.
  @inline(__always)
  private func checkNotAtEnd(inside what: StaticString, openedAt opening: Int)
    throws(JSONSyntaxError)
  {
    guard index >= bytes.count else { return }
    throw endFailure(inside: what, openedAt: opening)
  }

  private func endFailure(inside what: StaticString, openedAt opening: Int) -> JSONSyntaxError {
    let (line, column) = JSONScanner.lineAndColumn(of: opening, in: scanner.bytes)
    return JSONSyntaxError(
      offset: index,
      problem: "the file ends inside the \(what) that starts at line \(line), column \(column)",
      isTruncated: true)
  }

  private func failure(_ problem: String) -> JSONSyntaxError {
    JSONSyntaxError(offset: index, problem: problem, isTruncated: false)
  }

  /// The text at the index in backticks, as far as the next space (at most 20 bytes).
  private var upcoming: String {
    guard index < bytes.count else { return "the end of the file" }
    // A bare word is most often a value that lost its quotes, a secret among them: it is
    // described, not quoted (`tru`, `NaN` and markup such as `<!DOCTYPE` are still quoted).
    let word = bytes[index...].prefix {
      ASCIIByte.isLetter($0) || ASCIIByte.isDigit($0) || $0 == UInt8(ascii: "_")
        || $0 == UInt8(ascii: "-")
    }
    if word.count >= Redaction.minimumEchoLength {
      return "an unquoted word of \(word.count) characters"
    }
    // Masked before it is cut: a credential cut short is no longer recognised, and its start
    // would be shown (`ghp_` and 16 of its characters).
    let run = bytes[index...].prefix(1000).prefix { !ASCIIByte.isJSONWhitespace($0) }
    let whole = String(decoding: run, as: UTF8.self)
    let masked = LogRedaction.mask(whole)
    if masked != whole { return "`" + masked.clipped(to: 40).oneLine + "`" }
    var end = index
    while end < bytes.count, end - index < 20, !ASCIIByte.isJSONWhitespace(bytes[end]) {
      end += 1
    }
    // Do not cut a multi-byte character in half.
    while end < bytes.count, end > index + 1, bytes[end] & 0xC0 == 0x80 { end -= 1 }
    var text = String(decoding: bytes[index..<max(end, index + 1)], as: UTF8.self)
    if end < bytes.count {
      // Nor a token: a cut inside one would show its start (a URL's last path segment).
      let around = String(
        decoding: bytes[index..<min(bytes.count, end + ClippedRun.reach)], as: UTF8.self)
      // Bytes that are not UTF-8 decode to U+FFFD, longer than they were, and may decode
      // differently with more bytes after them: the cut is the last character boundary of
      // `around` within `text`'s length, never an index inside a character.
      var cut = around.startIndex
      var length = 0
      while cut < around.endIndex {
        let next = around.index(after: cut)
        length += around.utf8.distance(from: cut, to: next)
        guard length <= text.utf8.count else { break }
        cut = next
      }
      cut = ClippedRun.safeCut(in: around, at: cut)
      let kept = String(around[..<cut])
      guard !kept.isEmpty else { return "text of \(text.count) characters or more" }
      text = kept
    }
    // Cut at a space or 20 bytes, the text may be part of a token: shown only when plain.
    guard QuotedValue.mayShow(text) else { return "text of \(text.count) characters or more" }
    let visible = text.unicodeScalars.map { scalar in
      scalar.value < 0x20 ? "\\u{\(hex(UInt8(scalar.value), width: 2))}" : String(scalar)
    }
    return "`" + visible.joined() + "`"
  }
}

private func hex(_ byte: UInt8, width: Int) -> String {
  let digits = String(byte, radix: 16, uppercase: true)
  return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
