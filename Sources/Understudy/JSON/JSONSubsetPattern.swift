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
    case object([(name: [UInt8], value: Expected)])
    case array([Expected])
    case string(String, utf8: [UInt8], isASCII: Bool)
    case number(Double)
    case bool(Bool)
    case null
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
      var expected: [(name: [UInt8], value: Expected)] = []
      for (name, member) in members {
        guard name.utf8.allSatisfy({ $0 < 0x80 }), let value = Self.expected(member) else {
          return nil
        }
        expected.append((Array(name.utf8), value))
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
      return .string(text, utf8: Array(text.utf8), isASCII: text.utf8.allSatisfy { $0 < 0x80 })
    case .number(let number): return .number(number)
    case .bool(let flag): return .bool(flag)
    case .null: return .null
    }
  }

  /// Whether `body` holds JSON containing the subset, as parsing it and comparing the values
  /// says; `nil` when the body needs the full parse to tell.
  func conforms(_ body: Data) -> Bool? {
    body.withUnsafeBytes { bytes in JSONTape(bytes).map { conforms($0, bytes) } }
  }

  /// Whether the body `bytes`, read into `tape`, contains the subset.
  func conforms(_ tape: JSONTape, _ bytes: UnsafeRawBufferPointer) -> Bool {
    Self.conforms(root, tape, at: 0, bytes)
  }

  private static func conforms(
    _ expected: Expected, _ tape: JSONTape, at index: Int, _ bytes: UnsafeRawBufferPointer
  ) -> Bool {
    let kind = tape.kind(at: index)
    switch expected {
    case .object(let members):
      guard kind == .object else { return false }
      let end = tape.end(at: index)
      // Names are unique on a tape, so the first one found is the member. Counted loops: a
      // debug build iterates an array of tuples through generic witnesses.
      var expected = 0
      while expected < members.count {
        let (name, value) = members[expected]
        var member = index + JSONTape.width
        while true {
          guard member < end else { return false }
          let range = tape.contents(at: member)
          if name.withUnsafeBytes({ JSONTape.bytes(bytes, range, equal: $0) }) { break }
          member = tape.end(at: member + JSONTape.width)
        }
        guard conforms(value, tape, at: member + JSONTape.width, bytes) else { return false }
        expected += 1
      }
      return true
    case .array(let elements):
      guard kind == .array else { return false }
      let end = tape.end(at: index)
      var element = index + JSONTape.width
      for value in elements {
        guard element < end, conforms(value, tape, at: element, bytes) else { return false }
        element = tape.end(at: element)
      }
      return element == end
    case .string(let text, let utf8, let isASCII):
      let range = tape.contents(at: index)
      switch kind {
      case .asciiString:
        if utf8.withUnsafeBytes({ JSONTape.bytes(bytes, range, equal: $0) }) { return true }
        // Different ASCII bytes are different strings; a non-ASCII text may still be equal
        // (U+212A KELVIN SIGN is "K").
        if isASCII { return false }
      case .string: break
      default: return false
      }
      return JSONScanner.decode(.init(range: range, hasEscapes: true), in: bytes) == text
    case .number(let number):
      guard kind == .number else { return false }
      return JSONScanner(bytes).double(tape.contents(at: index)) == number
    case .bool(let flag):
      return kind == (flag ? .true : .false)
    case .null:
      return kind == .null
    }
  }
}
