import Foundation

/// Writes a cassette's bytes straight from the model, in exactly the layout `JSONEncoder` gives
/// with `.prettyPrinted`, `.sortedKeys` and `.withoutEscapingSlashes` (two-space indent,
/// `"key" : value`, members in the byte order of their names, an empty array or object as its
/// brackets around a blank line, numbers as Swift prints them without a trailing `.0`), so every
/// cassette written before is written again byte for byte.
///
/// `JSONEncoder` built a boxed value per member and then serialized the tree, growing its
/// output a piece at a time: 0.37 s for a 55 MB export. Here each string is escaped in one pass
/// over its UTF-8 into one buffer, and a body still held in the bytes of the file it was read
/// from is copied with its escapes rewritten, without becoming a `String` first. Member lists
/// are written out per type below; `HARWriterTests` compares them with the `Codable` encoding,
/// so a member added to the model and not here fails a test.
final class HARWriter {
  private var buffer: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  private var count = 0
  private var depth = 0
  /// Whether the innermost open array or object has no element yet.
  private var isEmpty = true
  /// Where the writer is, kept for the one error a number or date can raise.
  private var path: [Step] = []

  private enum Step {
    case key(StaticString)
    case index(Int)
  }

  /// The cassette's bytes, ending with a newline.
  ///
  /// - Throws: ``CassetteError`` naming the JSON path of a number that is not finite or a date
  ///   outside the years 0000 to 9999.
  static func encode(_ har: HAR) throws(CassetteError) -> Data {
    // Bodies are most of a large file: room for them up front saves growing through copies.
    var estimate = 4_096
    for entry in har.log.entries {
      estimate +=
        2_048 + (entry.request.postData?.textStorage.byteCount ?? 0)
        + (entry.response.content.textStorage?.byteCount ?? 0)
    }
    let writer = HARWriter(capacity: estimate)
    try writer.write(har)
    writer.raw("\n")
    return writer.take()
  }

  private init(capacity: Int) {
    self.capacity = max(capacity, 64)
    guard let memory = malloc(self.capacity) else { fatalError("out of memory") }
    buffer = memory.assumingMemoryBound(to: UInt8.self)
  }

  deinit { free(buffer) }

  /// The bytes written, handed to `Data` without a copy; the writer is empty after.
  private func take() -> Data {
    let data = Data(bytesNoCopy: buffer, count: count, deallocator: .free)
    guard let memory = malloc(64) else { fatalError("out of memory") }
    buffer = memory.assumingMemoryBound(to: UInt8.self)
    capacity = 64
    count = 0
    return data
  }

  // MARK: Layout

  private func reserve(_ extra: Int) {
    guard count + extra > capacity else { return }
    capacity = max(capacity * 2, count + extra)
    guard let memory = realloc(buffer, capacity) else { fatalError("out of memory") }
    buffer = memory.assumingMemoryBound(to: UInt8.self)
  }

  private func raw(_ text: StaticString) {
    text.withUTF8Buffer { raw(UnsafeRawBufferPointer($0)) }
  }

  private func raw(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
    reserve(bytes.count)
    UnsafeMutableRawPointer(buffer + count).copyMemory(from: base, byteCount: bytes.count)
    count += bytes.count
  }

  private func byte(_ value: UInt8) {
    reserve(1)
    buffer[count] = value
    count += 1
  }

  private func newlineAndIndent() {
    reserve(1 + 2 * depth)
    buffer[count] = 0x0A
    (buffer + count + 1).initialize(repeating: 0x20, count: 2 * depth)
    count += 1 + 2 * depth
  }

  /// A container whose elements `body` writes.
  private func container<Failure>(
    _ open: UInt8, _ close: UInt8, _ body: () throws(Failure) -> Void
  ) throws(Failure) {
    byte(open)
    depth += 1
    isEmpty = true
    try body()
    depth -= 1
    // JSONEncoder writes an empty container as its brackets around a blank line.
    if isEmpty { byte(0x0A) }
    newlineAndIndent()
    byte(close)
    isEmpty = false
  }

  private func object<Failure>(_ body: () throws(Failure) -> Void) throws(Failure) {
    try container(UInt8(ascii: "{"), UInt8(ascii: "}"), body)
  }

  private func separate() {
    if !isEmpty { byte(UInt8(ascii: ",")) }
    newlineAndIndent()
    isEmpty = false
  }

  /// One member: its key, then the value `body` writes.
  private func member<Failure>(
    _ key: StaticString, _ body: () throws(Failure) -> Void
  ) throws(Failure) {
    separate()
    byte(UInt8(ascii: "\""))
    raw(key)
    raw("\" : ")
    path.append(.key(key))
    try body()
    path.removeLast()
  }

  private func member(_ key: StaticString, _ value: String) {
    separate()
    byte(UInt8(ascii: "\""))
    raw(key)
    raw("\" : ")
    string(value)
  }

  private func member(_ key: StaticString, _ value: String?) {
    if let value { member(key, value) }
  }

  private func member(_ key: StaticString, _ value: Int) {
    member(key) { integer(value) }
  }

  private func member(_ key: StaticString, _ value: Int?) {
    if let value { member(key, value) }
  }

  private func member(_ key: StaticString, _ value: Bool?) {
    guard let value else { return }
    member(key) { raw(value ? "true" : "false") }
  }

  private func member(_ key: StaticString, _ value: Double) throws(CassetteError) {
    try member(key) { () throws(CassetteError) in try number(value) }
  }

  private func member(_ key: StaticString, date: Date) throws(CassetteError) {
    try member(key) { () throws(CassetteError) in
      guard let text = HARTimestamp.format(date) else {
        throw problem(
          "the date \(date.timeIntervalSince1970) seconds from 1970 is outside the years 0000 "
            + "to 9999, which a cassette writes",
          fix: "Use a date from 0000-01-01 to 9999-12-31 (UTC).")
      }
      string(text)
    }
  }

  /// An array member whose elements `element` writes.
  private func member<Element, Failure>(
    _ key: StaticString, _ elements: [Element], _ element: (Element) throws(Failure) -> Void
  ) throws(Failure) {
    try member(key) { () throws(Failure) in
      try container(UInt8(ascii: "["), UInt8(ascii: "]")) { () throws(Failure) in
        for (index, value) in elements.enumerated() {
          separate()
          path.append(.index(index))
          try element(value)
          path.removeLast()
        }
      }
    }
  }

  private func problem(_ problem: String, fix: String) -> CassetteError {
    let components = path.map { step -> JSONPathComponent in
      switch step {
      case .key(let key): return .key(key.description)
      case .index(let index): return .index(index)
      }
    }
    return CassetteError(
      kind: .invalidValue, jsonPath: JSONPathComponent.render(components), problem: problem,
      fix: fix)
  }

  // MARK: Values

  private func integer(_ value: Int) {
    var text = value.description
    text.withUTF8 { raw(UnsafeRawBufferPointer($0)) }
  }

  /// A number as `JSONEncoder` writes one: Swift's shortest form, without a trailing `.0`.
  private func number(_ value: Double) throws(CassetteError) {
    guard value.isFinite else {
      throw problem(
        "\(value) cannot be written to JSON",
        fix: "Use a finite number; HAR writes -1 for a timing that is not known.")
    }
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    text.withUTF8 { raw(UnsafeRawBufferPointer($0)) }
  }

  private func string(_ value: String) {
    #if DEBUG
      if value.utf8.count >= Self.encodedLength, let encoded = try? longStrings.encode(value) {
        encoded.withUnsafeBytes { raw($0) }
        return
      }
    #endif
    var value = value
    value.withUTF8 { escaped(UnsafeRawBufferPointer($0)) }
  }

  #if DEBUG
    /// How long a string is before `JSONEncoder` escapes it (a body, mostly), in a debug build:
    /// a JSON body has a quote every few bytes, and ``escaped(_:)`` handles each in Swift, which
    /// the debug build `swift test` compiles runs at about 270 instructions a byte, while
    /// Foundation's escaping is compiled already (about 35). It writes the escapes this writer
    /// writes, being the reference it is tested against; a short string is not worth its set-up.
    /// An optimised build keeps ``escaped(_:)``, about 11 instructions a byte there.
    private static let encodedLength = 4_096

    /// The encoder for strings of ``encodedLength`` bytes or more, made for the first.
    private lazy var longStrings = HAR.makeEncoder()
  #endif

  /// A body's text: as given, or from the bytes of the file it was read from (the text a
  /// `.decoded` body holds is those bytes decoded), without decoding them: copied as they are
  /// when every escape is one this writer writes, rewritten escape by escape otherwise.
  private func string(_ storage: HARTextStorage) {
    switch storage {
    case .string(let text):
      string(text)
    case .file(let bytes, let span), .decoded(_, let bytes, let span):
      bytes.withUnsafeBytes { file in
        let contents = UnsafeRawBufferPointer(rebasing: file[span.range])
        span.hasEscapes && !span.escapesAsWritten ? reescaped(contents) : quoted(contents)
      }
    }
  }

  /// Contents already escaped as this writer escapes (or holding no escape), in quotes.
  private func quoted(_ contents: UnsafeRawBufferPointer) {
    reserve(contents.count + 2)
    put(UInt8(ascii: "\""))
    raw(contents)
    put(UInt8(ascii: "\""))
  }

  /// Stores a byte in room already reserved.
  @inline(__always)
  private func put(_ value: UInt8) {
    buffer[count] = value
    count += 1
  }

  /// `text`'s UTF-8 as a JSON string: `"` and `\` escaped, control characters as `\n`, `\t`,
  /// `\b`, `\f`, `\r` or `\u00XX`, everything else (`/` and non-ASCII included) as it is.
  ///
  /// A JSON body recorded as text has a quote every few bytes: plain runs are stored a word at a
  /// time rather than copied by a call each.
  private func escaped(_ text: UnsafeRawBufferPointer) {
    // Room for the text as it is; each escape reserves what it adds.
    reserve(text.count + 2)
    put(UInt8(ascii: "\""))
    var index = 0
    while index < text.count {
      if index + 8 <= text.count {
        // The whole word is stored and `count` moves past its bytes before a special one; the
        // room reserved for the rest of the text covers the word.
        let word = text.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        UnsafeMutableRawPointer(buffer + count).storeBytes(of: word, as: UInt64.self)
        let plain = JSONScanner.specialByteOffset(word)
        index += plain
        count += plain
        if plain == 8 { continue }
      }
      let value = text[index]
      index += 1
      if value == 0x22 || value == 0x5C {
        // A JSON body has a quote every few bytes: its escape is written here, not by a call.
        reserve(text.count - index + 7)
        put(0x5C)
        put(value)
      } else if value < 0x20 {
        reserve(text.count - index + 7)
        escape(value)
      } else {
        put(value)
      }
    }
    put(UInt8(ascii: "\""))
  }

  private static let hexDigits: StaticString = "0123456789abcdef"

  /// The escape of one byte that cannot appear in a JSON string as it is, into room reserved
  /// for six bytes.
  private func escape(_ value: UInt8) {
    put(0x5C)
    switch value {
    case 0x22: put(0x22)
    case 0x5C: put(0x5C)
    case 0x08: put(UInt8(ascii: "b"))
    case 0x09: put(UInt8(ascii: "t"))
    case 0x0A: put(UInt8(ascii: "n"))
    case 0x0C: put(UInt8(ascii: "f"))
    case 0x0D: put(UInt8(ascii: "r"))
    default:
      put(UInt8(ascii: "u"))
      put(UInt8(ascii: "0"))
      put(UInt8(ascii: "0"))
      put(Self.hexDigits.utf8Start[Int(value >> 4)])
      put(Self.hexDigits.utf8Start[Int(value & 0x0F)])
    }
  }

  /// The contents of a checked JSON string (``JSONScanner/scanString()``) written again with
  /// this writer's escapes. Runs between backslashes hold no byte that needs one and are copied
  /// as they are; each escape is decoded and, when its character needs one, escaped again. No
  /// escape grows when rewritten, so the contents' length (and the quotes) is room enough.
  private func reescaped(_ contents: UnsafeRawBufferPointer) {
    reserve(contents.count + 2)
    put(UInt8(ascii: "\""))
    var position = 0
    while position < contents.count {
      if position + 8 <= contents.count {
        let word = contents.loadUnaligned(fromByteOffset: position, as: UInt64.self)
        // The whole word is stored, and `count` moves past its bytes before a backslash; the
        // room reserved for the contents covers the rest of the word.
        UnsafeMutableRawPointer(buffer + count).storeBytes(of: word, as: UInt64.self)
        let plain = JSONScanner.plainLength(word)
        position += plain
        count += plain
        if plain == 8 { continue }
      } else if contents[position] != 0x5C {
        put(contents[position])
        position += 1
        continue
      }
      let letter = contents[position + 1]
      position += 2
      switch letter {
      case UInt8(ascii: "/"):
        put(letter)
      case UInt8(ascii: "u"):
        let scalar = JSONScanner.escapedScalar(contents, at: &position)
        if scalar.value == 0x22 || scalar.value == 0x5C || scalar.value < 0x20 {
          escape(UInt8(scalar.value))
        } else {
          UTF8.encode(scalar) { put($0) }
        }
      default:  // " \ b f n r t, already as this writer writes them
        put(0x5C)
        put(letter)
      }
    }
    put(UInt8(ascii: "\""))
  }

  // MARK: The model, members in the byte order of their names

  private func write(_ har: HAR) throws(CassetteError) {
    try object { () throws(CassetteError) in
      try member("log") { () throws(CassetteError) in try write(har.log) }
    }
  }

  private func write(_ log: HAR.Log) throws(CassetteError) {
    try object { () throws(CassetteError) in
      member("_redactionDigestSeed", log.redactionDigestSeed)
      if let browser = log.browser { member("browser") { write(browser) } }
      member("comment", log.comment)
      member("creator") { write(log.creator) }
      try member("entries", log.entries) { (entry) throws(CassetteError) in try write(entry) }
      try member("pages", log.pages) { (page) throws(CassetteError) in try write(page) }
      member("version", log.version)
    }
  }

  private func write(_ creator: HAR.Creator) {
    object {
      member("comment", creator.comment)
      member("name", creator.name)
      member("version", creator.version)
    }
  }

  private func write(_ page: HAR.Page) throws(CassetteError) {
    try object { () throws(CassetteError) in
      member("comment", page.comment)
      member("id", page.id)
      try member("pageTimings") { () throws(CassetteError) in
        try object { () throws(CassetteError) in
          member("comment", page.pageTimings.comment)
          try member("onContentLoad", page.pageTimings.onContentLoad)
          try member("onLoad", page.pageTimings.onLoad)
        }
      }
      try member("startedDateTime", date: page.startedDateTime)
      member("title", page.title)
    }
  }

  private func write(_ entry: HAR.Entry) throws(CassetteError) {
    try object { () throws(CassetteError) in
      member("cache") { write(entry.cache) }
      member("comment", entry.comment)
      member("connection", entry.connection)
      member("pageref", entry.pageref)
      member("request") { write(entry.request) }
      try member("response") { () throws(CassetteError) in try write(entry.response) }
      member("serverIPAddress", entry.serverIPAddress)
      try member("startedDateTime", date: entry.startedDateTime)
      try member("time", entry.time)
      try member("timings") { () throws(CassetteError) in try write(entry.timings) }
    }
  }

  private func write(_ cache: HAR.Cache) {
    object {
      write(cache.afterRequest, as: "afterRequest")
      write(cache.beforeRequest, as: "beforeRequest")
      member("comment", cache.comment)
    }
  }

  private func write(_ state: HAR.Cache.State, as key: StaticString) {
    switch state {
    case .unknown:
      break
    case .absent:
      member(key) { raw("null") }
    case .present(let entry):
      member(key) {
        object {
          member("comment", entry.comment)
          member("eTag", entry.eTag)
          member("expires", entry.expires)
          member("hitCount", entry.hitCount)
          member("lastAccess", entry.lastAccess)
        }
      }
    }
  }

  private func write(_ request: HAR.Request) {
    object {
      member("bodySize", request.bodySize)
      member("comment", request.comment)
      member("cookies", request.cookies) { write($0) }
      member("headers", request.headers) { write($0) }
      member("headersSize", request.headersSize)
      member("httpVersion", request.httpVersion)
      member("method", request.method)
      if let postData = request.postData { member("postData") { write(postData) } }
      member("queryString", request.queryString) { write($0) }
      member("url", request.url)
    }
  }

  private func write(_ postData: HAR.PostData) {
    object {
      member("comment", postData.comment)
      member("encoding", postData.encoding)
      member("mimeType", postData.mimeType)
      member("params", postData.params) { parameter in
        object {
          member("comment", parameter.comment)
          member("contentType", parameter.contentType)
          member("fileName", parameter.fileName)
          member("name", parameter.name)
          member("value", parameter.value)
        }
      }
      member("text") { string(postData.textStorage) }
    }
  }

  private func write(_ response: HAR.Response) throws(CassetteError) {
    try object { () throws(CassetteError) in
      member("bodySize", response.bodySize)
      member("comment", response.comment)
      try member("content") { () throws(CassetteError) in try write(response.content) }
      member("cookies", response.cookies) { write($0) }
      member("headers", response.headers) { write($0) }
      member("headersSize", response.headersSize)
      member("httpVersion", response.httpVersion)
      member("redirectURL", response.redirectURL)
      member("status", response.status)
      member("statusText", response.statusText)
    }
  }

  private func write(_ content: HAR.Content) throws(CassetteError) {
    try object { () throws(CassetteError) in
      if let chunks = content.chunks {
        try member("_chunks", chunks) { (chunk) throws(CassetteError) in
          try object { () throws(CassetteError) in
            member("size", chunk.size)
            try member("time", chunk.time)
          }
        }
      }
      member("comment", content.comment)
      member("compression", content.compression)
      member("encoding", content.encoding)
      member("mimeType", content.mimeType)
      member("size", content.size)
      if let text = content.textStorage { member("text") { string(text) } }
    }
  }

  private func write(_ timings: HAR.Timings) throws(CassetteError) {
    try object { () throws(CassetteError) in
      try member("blocked", timings.blocked)
      member("comment", timings.comment)
      try member("connect", timings.connect)
      try member("dns", timings.dns)
      try member("receive", timings.receive)
      try member("send", timings.send)
      try member("ssl", timings.ssl)
      try member("wait", timings.wait)
    }
  }

  private func write(_ field: HAR.NameValue) {
    object {
      member("comment", field.comment)
      member("name", field.name)
      member("value", field.value)
    }
  }

  private func write(_ cookie: HAR.Cookie) {
    object {
      member("comment", cookie.comment)
      member("domain", cookie.domain)
      member("expires", cookie.expires)
      member("httpOnly", cookie.httpOnly)
      member("name", cookie.name)
      member("path", cookie.path)
      member("secure", cookie.secure)
      member("value", cookie.value)
    }
  }
}
