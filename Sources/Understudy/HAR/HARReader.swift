import Foundation

/// Reads a cassette in one pass over its bytes, straight into the model, leaving body texts in
/// the file's bytes until they are used.
///
/// `JSONDecoder` builds a dictionary for every object before the model sees it and decodes every
/// body: 0.5 s for a 10,000-entry cassette, 0.84 s for a 50 MB body. This reader accepts only
/// what it is sure `JSONDecoder` accepts the same way (strict JSON in UTF-8, no repeated member
/// names, numbers each member can hold, dates, URLs and base64 that are valid) and builds the
/// same values. Anything else returns `nil`, and ``HAR/decode(_:source:)`` gives the bytes to
/// `JSONDecoder`, whose errors the loader turns into located messages; so every error, and the
/// model of any unusual file, is exactly what it was.
///
/// So each member is read twice over: here and in its type's `init(reference:)`. `HARReaderTests`
/// (every fixture, byte mutants) and `HARReaderMemberTests` (every member missing, `null` or of
/// another type) check that whatever this reader accepts is what `JSONDecoder` builds.
struct HARReader {
  private var scanner: JSONScanner
  /// The bytes the scanner reads, kept by the body texts that point into them.
  private let source: Data
  /// Header fields and media types read lately, for reading the next ones.
  private var recent = RecentStrings()

  /// The archive in `json`, or `nil` when the bytes need `JSONDecoder`'s judgement.
  static func read(_ json: Data) -> HAR? {
    json.withUnsafeBytes { bytes in
      var reader = HARReader(scanner: JSONScanner(bytes), source: json)
      guard let har = try? reader.archive() else { return nil }
      reader.scanner.skipWhitespace()
      return reader.scanner.isAtEnd ? har : nil
    }
  }

  // MARK: The model, member by member as each type's init(reference:) reads it

  private mutating func archive() throws(Refusal) -> HAR {
    var log: HAR.Log?
    try object(ArchiveMember.table) { reader, member throws(Refusal) in
      switch member {
      case .log: log = try reader.log()
      }
    }
    guard let log else { throw Refusal() }
    return HAR(log: log)
  }

  private mutating func log() throws(Refusal) -> HAR.Log {
    var log = HAR.Log(creator: HAR.Creator(name: "", version: ""))
    var hasEntries = false
    try object(LogMember.table) { reader, member throws(Refusal) in
      switch member {
      case .version:
        log.version = try reader.string(or: "1.2")
      case .creator:
        log.creator = try reader.null() ? HAR.Creator(name: "", version: "") : reader.creator()
      case .browser:
        log.browser = try reader.null() ? nil : reader.creator()
      case .pages:
        log.pages =
          try reader.null()
          ? []
          : reader.array { reader throws(Refusal) in
            try reader.page()
          }
      case .entries:
        hasEntries = true
        log.entries = try reader.array(reservingByFirst: true) { reader throws(Refusal) in
          try reader.entry()
        }
      case .comment:
        log.comment = try reader.optionalString()
      case .redactionDigestSeed:
        log.redactionDigestSeed = try reader.optionalString()
      }
    }
    guard hasEntries else { throw Refusal() }
    return log
  }

  private mutating func creator() throws(Refusal) -> HAR.Creator {
    var name: String?
    var version: String?
    var comment: String?
    try object(CreatorMember.table) { reader, member throws(Refusal) in
      switch member {
      case .name:
        name = try reader.string()
      case .version:
        version = try reader.string()
      case .comment:
        comment = try reader.optionalString()
      }
    }
    guard let name, let version else { throw Refusal() }
    return HAR.Creator(name: name, version: version, comment: comment)
  }

  private mutating func page() throws(Refusal) -> HAR.Page {
    var started: Date?
    var id: String?
    var title = ""
    var timings = HAR.PageTimings()
    var comment: String?
    try object(PageMember.table) { reader, member throws(Refusal) in
      switch member {
      case .startedDateTime:
        started = try reader.timestamp()
      case .id:
        id = try reader.string()
      case .title:
        title = try reader.string(or: "")
      case .pageTimings:
        timings = try reader.null() ? HAR.PageTimings() : reader.pageTimings()
      case .comment:
        comment = try reader.optionalString()
      }
    }
    guard let started, let id else { throw Refusal() }
    return HAR.Page(
      startedDateTime: started, id: id, title: title, pageTimings: timings, comment: comment)
  }

  private mutating func pageTimings() throws(Refusal) -> HAR.PageTimings {
    var timings = HAR.PageTimings()
    try object(PageTimingsMember.table) { reader, member throws(Refusal) in
      switch member {
      case .onContentLoad:
        timings.onContentLoad = try reader.double(or: -1)
      case .onLoad:
        timings.onLoad = try reader.double(or: -1)
      case .comment:
        timings.comment = try reader.optionalString()
      }
    }
    return timings
  }

  private mutating func entry() throws(Refusal) -> HAR.Entry {
    var pageref: String?
    var started: Date?
    var time = -1.0
    var request: HAR.Request?
    var response: HAR.Response?
    var cache = HAR.Cache()
    var timings = HAR.Timings()
    var serverIPAddress: String?
    var connection: String?
    var comment: String?
    try object(EntryMember.table) { reader, member throws(Refusal) in
      switch member {
      case .pageref:
        pageref = try reader.optionalString()
      case .startedDateTime:
        started = try reader.timestamp()
      case .time:
        time = try reader.double(or: -1)
      case .request:
        request = try reader.request()
      case .response:
        response = try reader.response()
      case .cache:
        cache = try reader.null() ? HAR.Cache() : reader.cache()
      case .timings:
        timings = try reader.null() ? HAR.Timings() : reader.timings()
      case .serverIPAddress:
        serverIPAddress = try reader.optionalString()
      case .connection:
        connection = try reader.optionalString()
      case .comment:
        comment = try reader.optionalString()
      }
    }
    guard let started, let request, let response else { throw Refusal() }
    return HAR.Entry(
      pageref: pageref, startedDateTime: started, time: time, request: request,
      response: response, cache: cache, timings: timings, serverIPAddress: serverIPAddress,
      connection: connection, comment: comment)
  }

  private mutating func request() throws(Refusal) -> HAR.Request {
    var method: String?
    var url: String?
    var request = HAR.Request(method: "", url: "", httpVersion: "")
    try object(RequestMember.table) { reader, member throws(Refusal) in
      switch member {
      case .method:
        method = try reader.string()
      case .url:
        url = try reader.string()
      case .httpVersion:
        request.httpVersion = try reader.string(or: "")
      case .cookies:
        request.cookies =
          try reader.null()
          ? []
          : reader.array { reader throws(Refusal) in
            try reader.cookie()
          }
      case .headers:
        request.headers = try reader.nameValues()
      case .queryString:
        request.queryString = try reader.nameValues()
      case .postData:
        request.postData = try reader.null() ? nil : reader.postData()
      case .headersSize:
        request.headersSize = try reader.int(or: -1)
      case .bodySize:
        request.bodySize = try reader.int(or: -1)
      case .comment:
        request.comment = try reader.optionalString()
      }
    }
    // The URL is checked as init(reference:) checks it, so a bad one gets its located error there;
    // the parse is kept for replay.
    guard let method, let url, let parsed = URL(string: url) else { throw Refusal() }
    request.method = method
    request.url = url
    request.parsedURL = HAR.ParsedURL(parsed)
    return request
  }

  private mutating func response() throws(Refusal) -> HAR.Response {
    var status: Int?
    var response = HAR.Response(status: 0, httpVersion: "")
    try object(ResponseMember.table) { reader, member throws(Refusal) in
      switch member {
      case .status:
        status = try reader.int()
      case .statusText:
        response.statusText = try reader.string(or: "")
      case .httpVersion:
        response.httpVersion = try reader.string(or: "")
      case .cookies:
        response.cookies =
          try reader.null()
          ? []
          : reader.array { reader throws(Refusal) in
            try reader.cookie()
          }
      case .headers:
        response.headers = try reader.nameValues()
      case .content:
        response.content = try reader.null() ? HAR.Content() : reader.content()
      case .redirectURL:
        response.redirectURL = try reader.string(or: "")
      case .headersSize:
        response.headersSize = try reader.int(or: -1)
      case .bodySize:
        response.bodySize = try reader.int(or: -1)
      case .comment:
        response.comment = try reader.optionalString()
      }
    }
    guard let status else { throw Refusal() }
    response.status = status
    return response
  }

  private mutating func content() throws(Refusal) -> HAR.Content {
    var size: Int?
    var content = HAR.Content()
    try object(ContentMember.table) { reader, member throws(Refusal) in
      switch member {
      case .size:
        size = try reader.null() ? nil : reader.int()
      case .compression:
        content.compression = try reader.null() ? nil : reader.int()
      case .mimeType:
        content.mimeType = try reader.null() ? "" : reader.recentString()
      case .text:
        content.textStorage = try reader.null() ? nil : reader.bodyText()
      case .encoding:
        content.encoding = try reader.optionalString()
      case .comment:
        content.comment = try reader.optionalString()
      case .chunks:
        content.chunks =
          try reader.null()
          ? nil
          : reader.array { reader throws(Refusal) in
            try reader.chunk()
          }
      }
    }
    if content.encoding != nil { try bodyDecodes(content.decodedBody) }
    // The spec requires a size; when an exporter leaves it out, the body knows it.
    content.size = size ?? (try? content.decodedBody())??.count ?? 0
    return content
  }

  private mutating func chunk() throws(Refusal) -> HAR.Content.Chunk {
    var size: Int?
    var time: Double?
    try object(ChunkMember.table) { reader, member throws(Refusal) in
      switch member {
      case .size:
        size = try reader.int()
      case .time:
        time = try reader.double()
      }
    }
    guard let size, let time else { throw Refusal() }
    return HAR.Content.Chunk(size: size, time: time)
  }

  private mutating func postData() throws(Refusal) -> HAR.PostData {
    var postData = HAR.PostData(mimeType: "")
    try object(PostDataMember.table) { reader, member throws(Refusal) in
      switch member {
      case .mimeType:
        postData.mimeType = try reader.null() ? "" : reader.recentString()
      case .params:
        postData.params =
          try reader.null()
          ? []
          : reader.array { reader throws(Refusal) in
            try reader.postParameter()
          }
      case .text:
        postData.textStorage = try reader.null() ? .string("") : reader.bodyText()
      case .encoding:
        postData.encoding = try reader.optionalString()
      case .comment:
        postData.comment = try reader.optionalString()
      }
    }
    if postData.encoding != nil { try bodyDecodes(postData.decodedBody) }
    return postData
  }

  private mutating func postParameter() throws(Refusal) -> HAR.PostParameter {
    var name: String?
    var parameter = HAR.PostParameter(name: "")
    try object(PostParameterMember.table) { reader, member throws(Refusal) in
      switch member {
      case .name:
        name = try reader.string()
      case .value:
        parameter.value = try reader.optionalString()
      case .fileName:
        parameter.fileName = try reader.optionalString()
      case .contentType:
        parameter.contentType = try reader.optionalString()
      case .comment:
        parameter.comment = try reader.optionalString()
      }
    }
    guard let name else { throw Refusal() }
    parameter.name = name
    return parameter
  }

  private mutating func nameValues() throws(Refusal) -> [HAR.NameValue] {
    if null() { return [] }
    return try array { reader throws(Refusal) in
      var name: String?
      var value: String?
      var comment: String?
      try reader.object(NameValueMember.table) { reader, member throws(Refusal) in
        switch member {
        case .name:
          name = try reader.recentString()
        case .value:
          value = try reader.recentString()
        case .comment:
          comment = try reader.optionalString()
        }
      }
      guard let name, let value else { throw Refusal() }
      return HAR.NameValue(name: name, value: value, comment: comment)
    }
  }

  private mutating func cookie() throws(Refusal) -> HAR.Cookie {
    var name: String?
    var value: String?
    var cookie = HAR.Cookie(name: "", value: "")
    try object(CookieMember.table) { reader, member throws(Refusal) in
      switch member {
      case .name:
        name = try reader.string()
      case .value:
        value = try reader.string()
      case .path:
        cookie.path = try reader.optionalString()
      case .domain:
        cookie.domain = try reader.optionalString()
      case .expires:
        cookie.expires = try reader.optionalString()
      case .httpOnly:
        cookie.httpOnly = try reader.null() ? nil : reader.bool()
      case .secure:
        cookie.secure = try reader.null() ? nil : reader.bool()
      case .comment:
        cookie.comment = try reader.optionalString()
      }
    }
    guard let name, let value else { throw Refusal() }
    cookie.name = name
    cookie.value = value
    return cookie
  }

  private mutating func cache() throws(Refusal) -> HAR.Cache {
    var cache = HAR.Cache()
    try object(CacheMember.table) { reader, member throws(Refusal) in
      switch member {
      case .beforeRequest:
        cache.beforeRequest = try reader.null() ? .absent : .present(reader.cacheEntry())
      case .afterRequest:
        cache.afterRequest = try reader.null() ? .absent : .present(reader.cacheEntry())
      case .comment:
        cache.comment = try reader.optionalString()
      }
    }
    return cache
  }

  private mutating func cacheEntry() throws(Refusal) -> HAR.CacheEntry {
    var entry = HAR.CacheEntry(lastAccess: "", eTag: "", hitCount: 0)
    try object(CacheEntryMember.table) { reader, member throws(Refusal) in
      switch member {
      case .expires:
        entry.expires = try reader.optionalString()
      case .lastAccess:
        entry.lastAccess = try reader.string(or: "")
      case .eTag:
        entry.eTag = try reader.string(or: "")
      case .hitCount:
        entry.hitCount = try reader.int(or: 0)
      case .comment:
        entry.comment = try reader.optionalString()
      }
    }
    return entry
  }

  private mutating func timings() throws(Refusal) -> HAR.Timings {
    var timings = HAR.Timings()
    try object(TimingsMember.table) { reader, member throws(Refusal) in
      switch member {
      case .blocked:
        timings.blocked = try reader.double(or: -1)
      case .dns:
        timings.dns = try reader.double(or: -1)
      case .connect:
        timings.connect = try reader.double(or: -1)
      case .send:
        timings.send = try reader.double(or: 0)
      case .wait:
        timings.wait = try reader.double(or: 0)
      case .receive:
        timings.receive = try reader.double(or: 0)
      case .ssl:
        timings.ssl = try reader.double(or: -1)
      case .comment:
        timings.comment = try reader.optionalString()
      }
    }
    return timings
  }

  // MARK: JSON values, as the model's members take them

  /// Reads an object, calling `member` with each member the model reads; other members (custom
  /// `_` ones, members of later HAR versions) are checked and skipped.
  ///
  /// A member that appears twice is refused: which of the two `JSONDecoder` keeps is its
  /// business.
  private mutating func object<Name>(
    _ table: MemberTable<Name>, _ member: (inout HARReader, Name) throws(Refusal) -> Void
  ) throws(Refusal) {
    var seen: UInt32 = 0
    scanner.skipWhitespace()
    guard scanner.consume(UInt8(ascii: "{")) else { throw Refusal() }
    scanner.skipWhitespace()
    if scanner.consume(UInt8(ascii: "}")) { return }
    while true {
      scanner.skipWhitespace()
      guard scanner.current == UInt8(ascii: "\""), let name = scanner.scanString() else {
        throw Refusal()
      }
      let position = table.position(of: name, in: scanner.bytes)
      scanner.skipWhitespace()
      guard scanner.consume(UInt8(ascii: ":")) else { throw Refusal() }
      if let position {
        let bit: UInt32 = 1 << position
        guard seen & bit == 0 else { throw Refusal() }
        seen |= bit
        try member(&self, table.names[position])
      } else {
        try skip()
      }
      scanner.skipWhitespace()
      if scanner.consume(UInt8(ascii: "}")) { return }
      guard scanner.consume(UInt8(ascii: ",")) else { throw Refusal() }
    }
  }

  /// Reads an array; with `reservingByFirst`, room is made after the first element for as many
  /// more as the rest of the file holds at its size, since the entries of one cassette are
  /// alike: doubling took a 10,000-entry array to 16,384 places of 752 bytes, 4.8 MB unused.
  private mutating func array<Element>(
    reservingByFirst: Bool = false, _ element: (inout HARReader) throws(Refusal) -> Element
  ) throws(Refusal) -> [Element] {
    scanner.skipWhitespace()
    guard scanner.consume(UInt8(ascii: "[")) else { throw Refusal() }
    var elements: [Element] = []
    scanner.skipWhitespace()
    if scanner.consume(UInt8(ascii: "]")) { return elements }
    while true {
      let start = scanner.index
      elements.append(try element(&self))
      if reservingByFirst && elements.count == 1 {
        let size = max(scanner.index - start, 1)
        elements.reserveCapacity(1 + (scanner.bytes.count - scanner.index) / size)
      }
      scanner.skipWhitespace()
      if scanner.consume(UInt8(ascii: "]")) {
        // A first element much smaller than the rest (a large body later) overestimates:
        // give the room back then.
        if elements.capacity > elements.count + elements.count / 8 + 16 {
          return Array(unsafeUninitializedCapacity: elements.count) { buffer, count in
            count = buffer.initialize(from: elements).1
          }
        }
        return elements
      }
      guard scanner.consume(UInt8(ascii: ",")) else { throw Refusal() }
    }
  }

  /// Consumes `null` when it comes next: an absent optional, or the default of a member the
  /// model reads with a fallback.
  private mutating func null() -> Bool {
    scanner.skipWhitespace()
    return scanner.current == UInt8(ascii: "n") && scanner.scanLiteral("null")
  }

  private mutating func skip() throws(Refusal) {
    guard scanner.skipValue() else { throw Refusal() }
  }

  private mutating func stringSpan() throws(Refusal) -> JSONScanner.StringSpan {
    scanner.skipWhitespace()
    guard scanner.current == UInt8(ascii: "\""), let span = scanner.scanString() else {
      throw Refusal()
    }
    return span
  }

  private mutating func string() throws(Refusal) -> String {
    JSONScanner.decode(try stringSpan(), in: scanner.bytes)
  }

  /// A string that recurs from entry to entry (a header field, a media type), sharing the
  /// storage of the same string read lately.
  private mutating func recentString() throws(Refusal) -> String {
    let span = try stringSpan()
    return recent.string(span, in: scanner.bytes)
  }

  private mutating func string(or fallback: String) throws(Refusal) -> String {
    try null() ? fallback : string()
  }

  private mutating func optionalString() throws(Refusal) -> String? {
    try null() ? nil : string()
  }

  /// A body's text, left in the file's bytes.
  private mutating func bodyText() throws(Refusal) -> HARTextStorage {
    .file(source, try stringSpan())
  }

  /// Refuses a body marked with an encoding when it does not decode, as init(reference:) does (text
  /// that is the body itself needs no check: the scan checked it).
  private func bodyDecodes<Body>(_ decode: () throws(CassetteError) -> Body) throws(Refusal) {
    do {
      _ = try decode()
    } catch {
      throw Refusal()
    }
  }

  private mutating func timestamp() throws(Refusal) -> Date {
    let span = try stringSpan()
    // A timestamp is plain ASCII: read its bytes where they are, without a string in between.
    let parsed =
      span.hasEscapes
      ? HARTimestamp.parse(JSONScanner.decode(span, in: scanner.bytes))
      : HARTimestamp.parse(utf8: UnsafeRawBufferPointer(rebasing: scanner.bytes[span.range]))
    guard let date = parsed, HARTimestamp.isWritable(date) else { throw Refusal() }
    return date
  }

  private mutating func number() throws(Refusal) -> Range<Int> {
    scanner.skipWhitespace()
    guard let range = scanner.scanNumber() else { throw Refusal() }
    return range
  }

  private mutating func int() throws(Refusal) -> Int {
    guard let value = scanner.int(try number()) else { throw Refusal() }
    return value
  }

  private mutating func int(or fallback: Int) throws(Refusal) -> Int {
    try null() ? fallback : int()
  }

  private mutating func double() throws(Refusal) -> Double {
    guard let value = scanner.double(try number()) else { throw Refusal() }
    return value
  }

  private mutating func double(or fallback: Double) throws(Refusal) -> Double {
    try null() ? fallback : double()
  }

  private mutating func bool() throws(Refusal) -> Bool {
    scanner.skipWhitespace()
    if scanner.scanLiteral("true") { return true }
    if scanner.scanLiteral("false") { return false }
    throw Refusal()
  }
}

/// The last few long strings read from header fields and media types, so the 10,000 copies of
/// `application/json` in a cassette share one string's storage (64 bytes each otherwise); a
/// string of up to 15 bytes is held inline by `String` anyway.
private struct RecentStrings {
  private var strings: [String] = []
  private var next = 0

  mutating func string(_ span: JSONScanner.StringSpan, in bytes: UnsafeRawBufferPointer) -> String {
    let count = span.range.count
    guard count > 15, !span.hasEscapes else { return JSONScanner.decode(span, in: bytes) }
    let raw = UnsafeRawBufferPointer(rebasing: bytes[span.range])
    for index in strings.indices where strings[index].utf8.count == count {
      let same = strings[index].utf8.withContiguousStorageIfAvailable { utf8 in
        memcmp(utf8.baseAddress!, raw.baseAddress!, count) == 0
      }
      if same == true { return strings[index] }
    }
    let string = String(decoding: raw, as: UTF8.self)
    if strings.count < 16 {
      strings.append(string)
    } else {
      strings[next] = string
      next = (next + 1) % 16
    }
    return string
  }
}

/// What the reader throws to hand the bytes to `JSONDecoder`.
private struct Refusal: Error {}

/// The names of the members one model type reads.
private protocol MemberName: RawRepresentable<String>, CaseIterable, Sendable {}

/// A model type's member names, each held as its length and its bytes in two words, so a member
/// name in the file is recognised by comparing words, without building a string.
private struct MemberTable<Name: MemberName>: Sendable {
  let names: [Name]
  /// Per name: its length in bytes, then its first 16 bytes as two little-endian words, zero
  /// past the end. A longer name is found by the slow path, which compares strings.
  private let keys: [(count: Int, low: UInt64, high: UInt64)]

  init() {
    names = Array(Name.allCases)
    keys = names.map { name in
      let utf8 = Array(name.rawValue.utf8)
      var words: (UInt64, UInt64) = (0, 0)
      withUnsafeMutableBytes(of: &words) { $0.copyBytes(from: utf8.prefix(16)) }
      return (utf8.count, UInt64(littleEndian: words.0), UInt64(littleEndian: words.1))
    }
  }

  /// The position in ``names`` of the name `span` holds, or `nil` for a member the model
  /// ignores.
  func position(of span: JSONScanner.StringSpan, in bytes: UnsafeRawBufferPointer) -> Int? {
    let count = span.range.count
    let start = span.range.lowerBound
    if span.hasEscapes || count > 16 || start + 16 > bytes.count {
      // Rare: an escaped or long name, or one in the file's last 16 bytes.
      let name = JSONScanner.decode(span, in: bytes)
      return names.firstIndex { $0.rawValue == name }
    }
    // The name is followed by at least its closing quote, so both words can be loaded; the
    // bytes past its end are masked off.
    var low = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: start, as: UInt64.self))
    var high = UInt64(
      littleEndian: bytes.loadUnaligned(fromByteOffset: start + 8, as: UInt64.self))
    if count < 8 {
      low &= (1 << (count * 8)) &- 1
      high = 0
    } else if count < 16 {
      high &= (1 << ((count - 8) * 8)) &- 1
    }
    for index in keys.indices {
      let key = keys[index]
      if key.count == count && key.low == low && key.high == high { return index }
    }
    return nil
  }
}

// The members each model type reads, as its init(reference:) names them.

private enum ArchiveMember: String, MemberName {
  case log
  static let table = MemberTable<Self>()
}

private enum LogMember: String, MemberName {
  case version, creator, browser, pages, entries, comment
  case redactionDigestSeed = "_redactionDigestSeed"
  static let table = MemberTable<Self>()
}

private enum CreatorMember: String, MemberName {
  case name, version, comment
  static let table = MemberTable<Self>()
}

private enum PageMember: String, MemberName {
  case startedDateTime, id, title, pageTimings, comment
  static let table = MemberTable<Self>()
}

private enum PageTimingsMember: String, MemberName {
  case onContentLoad, onLoad, comment
  static let table = MemberTable<Self>()
}

private enum EntryMember: String, MemberName {
  case pageref, startedDateTime, time, request, response, cache, timings, serverIPAddress,
    connection, comment
  static let table = MemberTable<Self>()
}

private enum RequestMember: String, MemberName {
  case method, url, httpVersion, cookies, headers, queryString, postData, headersSize, bodySize,
    comment
  static let table = MemberTable<Self>()
}

private enum ResponseMember: String, MemberName {
  case status, statusText, httpVersion, cookies, headers, content, redirectURL, headersSize,
    bodySize, comment
  static let table = MemberTable<Self>()
}

private enum ContentMember: String, MemberName {
  case size, compression, mimeType, text, encoding, comment
  case chunks = "_chunks"
  static let table = MemberTable<Self>()
}

private enum ChunkMember: String, MemberName {
  case size, time
  static let table = MemberTable<Self>()
}

private enum PostDataMember: String, MemberName {
  case mimeType, params, text, encoding, comment
  static let table = MemberTable<Self>()
}

private enum PostParameterMember: String, MemberName {
  case name, value, fileName, contentType, comment
  static let table = MemberTable<Self>()
}

private enum NameValueMember: String, MemberName {
  case name, value, comment
  static let table = MemberTable<Self>()
}

private enum CookieMember: String, MemberName {
  case name, value, path, domain, expires, httpOnly, secure, comment
  static let table = MemberTable<Self>()
}

private enum CacheMember: String, MemberName {
  case beforeRequest, afterRequest, comment
  static let table = MemberTable<Self>()
}

private enum CacheEntryMember: String, MemberName {
  case expires, lastAccess, eTag, hitCount, comment
  static let table = MemberTable<Self>()
}

private enum TimingsMember: String, MemberName {
  case blocked, dns, connect, send, wait, receive, ssl, comment
  static let table = MemberTable<Self>()
}
