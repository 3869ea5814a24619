import Foundation

/// A `.jsonBody(subset:)` pattern compared with a body's ``JSONTape``: only the members the
/// pattern names are looked up, over their bytes, and only the values it names are compared.
///
/// Parsing a body into a ``JSONValue`` builds a dictionary for every object and a `String` for
/// every key and string, most of which a subset never looks at; with several JSON matchers on
/// one route that was most of a request's cost. The tape, made once per request whatever the
/// number of stubs, gives the verdict the full parse and
/// ``JSONDifference/conforms(expected:actual:)`` give; a body the tape declines is parsed in full
/// as before, so whatever `JSONDecoder` decides about such bodies still decides.
struct JSONSubsetPattern: Sendable {
  private indirect enum Expected: Sendable {
    /// Members with their names' UTF-8, in no particular order.
    case object([Member])
    case array([Expected])
    case string(String, utf8: OwnedBytes, isASCII: Bool)
    case number(Double)
    case bool(Bool)
    case null
  }

  /// One expected member. A class: a debug build (what `swift test` compiles) reads an array of
  /// tuples through generic witnesses, an array of references with a retain.
  private final class Member: Sendable {
    let name: OwnedBytes
    let value: Expected

    init(name: OwnedBytes, value: Expected) {
      self.name = name
      self.value = value
    }
  }

  /// Bytes in memory of their own, compared with `memcmp` without the generic closure
  /// `[UInt8].withUnsafeBytes` costs a debug build.
  private final class OwnedBytes: @unchecked Sendable {
    // Written once, here, before the pattern is shared.
    let base: UnsafeMutablePointer<UInt8>
    let count: Int

    init(_ bytes: some Collection<UInt8>) {
      count = bytes.count
      base = .allocate(capacity: max(count, 1))
      _ = UnsafeMutableBufferPointer(start: base, count: count).initialize(from: bytes)
    }

    deinit {
      base.deallocate()
    }
  }

  private let root: Expected

  /// The pattern for `subset`, or `nil` when a member name in it is not ASCII (the tape has no
  /// such names); such patterns are always compared with a full parse.
  init?(_ subset: JSONValue) {
    guard let root = Self.expected(subset) else { return nil }
    self.root = root
  }

  private static func expected(_ value: JSONValue) -> Expected? {
    switch value {
    case .object(let members):
      var expected: [Member] = []
      for (name, member) in members {
        guard name.utf8.allSatisfy({ $0 < 0x80 }), let value = Self.expected(member) else {
          return nil
        }
        expected.append(Member(name: OwnedBytes(name.utf8), value: value))
      }
      return .object(expected)
    case .array(let elements):
      var expected: [Expected] = []
      for element in elements {
        guard let value = Self.expected(element) else { return nil }
        expected.append(value)
      }
      return .array(expected)
    case .string(let text):
      return .string(
        text, utf8: OwnedBytes(text.utf8), isASCII: text.utf8.allSatisfy { $0 < 0x80 })
    case .number(let number): return .number(number)
    case .bool(let flag): return .bool(flag)
    case .null: return .null
    }
  }

  /// Whether `body` holds JSON containing the subset, as parsing it and comparing the values
  /// says; `nil` when the body needs the full parse to tell.
  func conforms(_ body: Data) -> Bool? {
    body.withUnsafeBytes { bytes in JSONTape(bytes).map { conforms($0) } }
  }

  /// Whether the body read into `tape` contains the subset.
  func conforms(_ tape: JSONTape) -> Bool {
    Self.conforms(root, tape, at: 0, tape.body)
  }

  private static func conforms(
    _ expected: Expected, _ tape: JSONTape, at index: Int, _ bytes: UnsafeRawBufferPointer
  ) -> Bool {
    // Kinds are told apart with `case` patterns: `==` on the enum is a generic call through
    // `RawRepresentable` in a debug build.
    let kind = tape.kind(at: index)
    switch expected {
    case .object(let members):
      guard case .object = kind else { return false }
      let end = tape.end(at: index)
      // Names are unique on a tape, so the first one found is the member. Counted loops: a
      // debug build builds iterators through generic metadata.
      // The entries are read in place and a name's length compared before `memcmp`: a call
      // per member passed cost a debug build a few hundred instructions.
      var expected = 0
      let width = JSONTape.width
      let entries = tape.entries
      let body = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 0x10)!
      while expected < members.count {
        let member = members[expected]
        let name = member.name
        var found = index + width
        while true {
          guard found < end else { return false }
          let start = entries[found + 1]
          if entries[found + 2] - start == name.count,
            memcmp(body + start, name.base, name.count) == 0
          {
            break
          }
          found = entries[found + width + 3]  // past the member's value
        }
        guard conforms(member.value, tape, at: found + width, bytes) else { return false }
        expected += 1
      }
      return true
    case .array(let elements):
      guard case .array = kind else { return false }
      let end = tape.end(at: index)
      var element = index + JSONTape.width
      for value in elements {
        guard element < end, conforms(value, tape, at: element, bytes) else { return false }
        element = tape.end(at: element)
      }
      return element == end
    case .string(let text, let utf8, let isASCII):
      switch kind {
      case .asciiString:
        if tape.contents(at: index, in: bytes, equal: utf8.base, count: utf8.count) { return true }
        // Different ASCII bytes are different strings; a non-ASCII text may still be equal
        // (U+212A KELVIN SIGN is "K").
        if isASCII { return false }
      case .string: break
      default: return false
      }
      let range = tape.contents(at: index)
      return JSONScanner.decode(.init(range: range, hasEscapes: true), in: bytes) == text
    case .number(let number):
      guard case .number = kind else { return false }
      return JSONScanner(bytes).double(tape.contents(at: index)) == number
    case .bool(let flag):
      switch kind {
      case .true: return flag
      case .false: return !flag
      default: return false
      }
    case .null:
      guard case .null = kind else { return false }
      return true
    }
  }
}
