/// An ordered list of HTTP header fields whose names compare case-insensitively.
///
/// Order is kept as given so that recorded traffic and reports read the way the request was sent;
/// lookups ignore case because FoundationNetworking canonicalises names (`x-id` arrives as `X-Id`).
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral,
  CustomStringConvertible
{
  /// One header field.
  public struct Field: Sendable, Hashable {
    /// The name as it was given.
    public var name: String
    /// The value.
    public var value: String

    /// Creates a field; users write a literal, and repeat a field with `.header(_:_:)`.
    package init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  /// The fields in the order they were added; users iterate the headers themselves.
  package private(set) var fields: [Field]

  /// Creates an empty header list; users write the literal `[:]`.
  package init() {
    fields = []
  }

  /// Creates a header list from fields, keeping their order.
  package init(_ fields: [Field]) {
    self.fields = fields
  }

  /// Creates a header list from a dictionary, sorted by name so the order is deterministic.
  public init(_ dictionary: [String: String]) {
    // Every intercepted request comes through here, most with no or one header: skip the sort
    // then, and otherwise lower-case each name once rather than in every comparison.
    guard dictionary.count > 1 else {
      fields = dictionary.map { Field(name: $0.key, value: $0.value) }
      return
    }
    fields = dictionary.map { Field(name: $0.key, value: $0.value) }
    fields.sort { $0.name.caseInsensitivelyPrecedes($1.name) }
  }

  /// Creates a header list from a response's header fields, sorted by name: Foundation hands
  /// them over as a dictionary, so their order is already lost.
  init(_ response: HTTPURLResponse) {
    var fields: [String: String] = [:]
    for (name, value) in response.allHeaderFields {
      fields[String(describing: name)] = String(describing: value)
    }
    self.init(fields)
  }

  /// Creates a header list from a literal, keeping the literal's order.
  public init(dictionaryLiteral elements: (String, String)...) {
    fields = elements.map { Field(name: $0.0, value: $0.1) }
  }

  /// The first value for `name`, compared case-insensitively; setting replaces every field of
  /// that name (or removes them all when set to `nil`).
  public subscript(name: String) -> String? {
    get { fields.first { $0.name.caseInsensitiveEquals(name) }?.value }
    set {
      guard let newValue else {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
        return
      }
      if let index = fields.firstIndex(where: { $0.name.caseInsensitiveEquals(name) }) {
        fields[index].value = newValue
        let kept = fields[index]
        fields.removeAll { $0.name.caseInsensitiveEquals(name) && $0 != kept }
      } else {
        fields.append(Field(name: name, value: newValue))
      }
    }
  }

  /// Every value for `name`, compared case-insensitively, in order.
  public func values(for name: String) -> [String] {
    fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
  }

  /// Whether any field is named `name`, compared case-insensitively; users ask
  /// `headers[name] != nil`.
  package func contains(_ name: String) -> Bool {
    contains(name) { _ in true }
  }

  /// Whether a field named `name` has a value `test` accepts. Header matchers ask this of every
  /// request they try, so the fields are read in place: copying each one out would retain and
  /// release both of its strings.
  func contains(_ name: String, where test: (String) -> Bool) -> Bool {
    // A counted loop: a debug build builds `indices` through generic metadata, and
    // `withUnsafeBufferPointer` cost it a generic call and a closure per header matcher tried.
    var index = 0
    let count = fields.count
    while index < count {
      if fields[index].name.caseInsensitiveEquals(name), test(fields[index].value) {
        return true
      }
      index += 1
    }
    return false
  }

  /// Appends a field, keeping any existing fields of the same name.
  package mutating func add(name: String, value: String) {
    fields.append(Field(name: name, value: value))
  }

  /// The fields as a dictionary; repeated names are joined with `, ` as RFC 9110 allows.
  var dictionary: [String: String] {
    // Built for every stubbed response, which then adds Content-Length: sized for one more
    // field so that insert does not grow the table.
    var result: [String: String] = Dictionary(minimumCapacity: fields.count + 1)
    for field in fields {
      if let key = result.keys.first(where: { $0.caseInsensitiveEquals(field.name) }) {
        result[key] = result[key]! + ", " + field.value
      } else {
        result[field.name] = field.value
      }
    }
    return result
  }

  /// Iterates the fields in order.
  public func makeIterator() -> IndexingIterator<[Field]> {
    fields.makeIterator()
  }

  /// Whether there are no fields.
  public var isEmpty: Bool { fields.isEmpty }

  /// `Name: value` lines, with credentials masked (`Authorization: Bearer ••••(42 chars)`),
  /// since descriptions end up in logs; iterate the fields for the values themselves.
  public var description: String {
    fields.map { "\($0.name): \(LogRedaction.mask(header: $0.name, value: $0.value))" }
      .joined(separator: "\n")
  }
}

extension String {
  /// Header-name equality ignoring case. Names are ASCII in practice, so compare bytes with ASCII
  /// case folding and lower-case whole strings (two allocations) only when a byte is not ASCII.
  /// Whether `text` occurs in the string, as Foundation's `contains` decides, but without its
  /// string search when both are ASCII (header values nearly always are), where comparing bytes
  /// gives the same answer.
  func containsText(_ text: String) -> Bool {
    var haystack = self
    var needle = text
    let fast = haystack.withUTF8 { hay in
      needle.withUTF8 { pin -> Bool? in
        // An empty needle is left to Foundation, whose answer is the one to keep.
        guard !pin.isEmpty, Self.isASCII(hay), Self.isASCII(pin) else { return nil }
        // `memmem`: the standard library's generic `firstRange(of:)` made the eight-stub
        // benchmark row 1.65x instead of 1.45x, and a scan in Swift costs a debug build a call
        // per byte.
        return ByteSearch.occurs(UnsafeRawBufferPointer(pin), inShort: UnsafeRawBufferPointer(hay))
      }
    }
    return fast ?? contains(text)
  }

  /// Whether every byte is ASCII, read eight at a time: a debug build pays a call per byte read.
  private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let raw = UnsafeRawBufferPointer(bytes)
    var offset = 0
    while offset + 8 <= raw.count {
      let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      if word & 0x8080_8080_8080_8080 != 0 { return false }
      offset += 8
    }
    while offset < raw.count {
      if raw[offset] >= 0x80 { return false }
      offset += 1
    }
    return true
  }

  /// Whether the string sorts before `other` once both are lower-cased, as
  /// `lowercased() < other.lowercased()` decides; comparing ASCII bytes in place, where names
  /// nearly always are, saves building both copies for every comparison of a sort.
  func caseInsensitivelyPrecedes(_ other: String) -> Bool {
    var lhs = self
    var rhs = other
    let inPlace = lhs.withUTF8 { lhs in
      rhs.withUTF8 { rhs -> Bool? in
        for index in 0..<Swift.min(lhs.count, rhs.count) {
          let (a, b) = (lhs[index], rhs[index])
          guard a < 0x80, b < 0x80 else { return nil }
          let (foldedA, foldedB) = (ASCIIFolding.lowered(a), ASCIIFolding.lowered(b))
          guard foldedA != foldedB else { continue }
          // A non-ASCII byte next may be a combining mark, which composes with this letter.
          let next = index + 1
          guard next >= lhs.count || lhs[next] < 0x80, next >= rhs.count || rhs[next] < 0x80
          else { return nil }
          return foldedA < foldedB
        }
        // One is a prefix of the other; the shorter sorts first unless the longer goes on with
        // a byte that may combine with the last character.
        let common = Swift.min(lhs.count, rhs.count)
        let next = lhs.count > common ? lhs[common] : rhs.count > common ? rhs[common] : 0
        return next < 0x80 ? lhs.count < rhs.count : nil
      }
    }
    return inPlace ?? (lowercased() < other.lowercased())
  }

  func caseInsensitiveEquals(_ other: String) -> Bool {
    // A stub nearly always spells a name as FoundationNetworking canonicalises it, and equal
    // short strings compare as two machine words: asked first, before the lengths (two calls).
    if self == other { return true }
    guard utf8.count == other.utf8.count else { return false }
    // Header names are compared for every field of every request a header matcher looks at;
    // walking both strings' bytes in place costs a few instructions a byte, where iterating two
    // UTF8Views together costs over a hundred.
    let inPlace = utf8.withContiguousStorageIfAvailable { lhs in
      other.utf8.withContiguousStorageIfAvailable { rhs in ASCIIFolding.compare(lhs, rhs) }
    }
    switch (inPlace ?? nil) ?? ASCIIFolding.compare(Array(utf8), Array(other.utf8)) {
    case .equal: return true
    case .different: return false
    case .needsUnicode: return lowercased() == other.lowercased()
    }
  }
}

/// Comparing bytes ignoring ASCII case.
private enum ASCIIFolding {
  case equal
  case different
  /// The runs differ at a non-ASCII byte, where only Unicode lowercasing can tell.
  case needsUnicode

  static func compare(
    _ lhs: some RandomAccessCollection<UInt8>, _ rhs: some RandomAccessCollection<UInt8>
  ) -> ASCIIFolding {
    for (a, b) in zip(lhs, rhs) where a != b {
      guard a < 0x80, b < 0x80 else { return .needsUnicode }
      if lowered(a) != lowered(b) { return .different }
    }
    return .equal
  }

  /// `byte` lower-cased when it is an ASCII capital letter.
  static func lowered(_ byte: UInt8) -> UInt8 {
    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
  }
}
