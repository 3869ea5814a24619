import Foundation
import Testing

@testable import Understudy

/// Matching takes shortcuts the reports do not: a yes-or-no comparison, and one JSON reading of
/// the body shared by every stub the registry tries. Neither may change an answer.
@Suite struct JSONMatchingFastPathTests {
  /// Random documents and random expectations built from pieces of them: `conforms` says yes
  /// exactly when `find` finds no difference, in both modes.
  @Test(arguments: 0..<30) func conformsAgreesWithFind(seed: UInt64) {
    var random = SplitMix(seed: seed)
    func value(depth: Int) -> JSONValue {
      switch random.next() % (depth > 2 ? 4 : 6) {
      case 0: return .number(Double(random.next() % 3))
      case 1: return .string(["a", "b"][Int(random.next() % 2)])
      case 2: return .bool(random.next() % 2 == 0)
      case 3: return .null
      case 4:
        return .array((0..<Int(random.next() % 3)).map { _ in value(depth: depth + 1) })
      default:
        var members: [String: JSONValue] = [:]
        for _ in 0..<Int(random.next() % 4) {
          members[["k", "l", "m"][Int(random.next() % 3)]] = value(depth: depth + 1)
        }
        return .object(members)
      }
    }
    for _ in 0..<200 {
      let expected = value(depth: 0)
      let actual = random.next() % 3 == 0 ? expected : value(depth: 0)
      for mode in [JSONDifference.Mode.equal, .subset] {
        let difference = JSONDifference(mode: mode)
        #expect(
          difference.conforms(expected: expected, actual: actual)
            == (difference.find(expected: expected, actual: actual) == nil),
          "\(mode) \(expected) vs \(actual)")
      }
    }
  }

  /// Random bodies, written as text (spacing, number spellings, escapes, repeated and
  /// non-ASCII member names, canonically equal strings, numbers past `Double`, cut-short
  /// documents), against random subsets built from the same pieces: the walk over the bytes
  /// gives the verdict parsing and comparing the values gives whenever it gives one, and the
  /// matcher, walking or parsing, always does.
  @Test(arguments: 0..<20) func walkingASubsetAgreesWithParsing(seed: UInt64) {
    var random = SplitMix(seed: seed)
    func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }
    let names = ["k", "l", "m", #"\u006b"#, "é"]
    let strings = [
      #""a""#, #""b""#, #""\u0061""#, #""a\"b""#, "\"é\"", "\"e\u{301}\"", #""\u00e9""#, "\"K\"",
      "\"\u{212A}\"", #""\ud83d\ude00""#,
    ]
    let numbers = ["0", "-0", "1", "1.0", "10E-1", "0.5", "2", "1e400", "-1e999", "1e0"]
    func space() -> String { pick(["", "", " ", "\n  "]) }
    func body(depth: Int) -> String {
      switch random.next() % (depth > 2 ? 4 : 7) {
      case 0: return pick(numbers)
      case 1: return pick(strings)
      case 2: return pick(["true", "false"])
      case 3: return "null"
      case 4:
        let elements = (0..<Int(random.next() % 3)).map { _ in space() + body(depth: depth + 1) }
        return "[" + elements.joined(separator: ",") + space() + "]"
      default:
        let members = (0..<Int(random.next() % 4)).map { _ in
          space() + "\"\(pick(names))\"" + space() + ":" + space() + body(depth: depth + 1)
        }
        return "{" + members.joined(separator: ",") + space() + "}"
      }
    }
    func subset(depth: Int) -> JSONValue {
      switch random.next() % (depth > 2 ? 4 : 7) {
      case 0: return .number(pick([0, -0.0, 1, 0.5, 2]))
      case 1: return .string(pick(["a", "b", "a\"b", "é", "e\u{301}", "K", "\u{212A}", "😀"]))
      case 2: return .bool(random.next() % 2 == 0)
      case 3: return .null
      case 4: return .array((0..<Int(random.next() % 3)).map { _ in subset(depth: depth + 1) })
      default:
        var members: [String: JSONValue] = [:]
        for _ in 0..<Int(random.next() % 3) {
          members[pick(["k", "l", "m", "é"])] = subset(depth: depth + 1)
        }
        return .object(members)
      }
    }
    var walked = 0
    var matched = 0
    for _ in 0..<300 {
      var text = body(depth: 0)
      if random.next() % 10 == 0 { text = String(text.dropLast()) }
      let expected = subset(depth: 0)
      let data = Data(text.utf8)
      let reference =
        (try? JSONValue(parsing: data)).map {
          JSONDifference(mode: .subset).conforms(expected: expected, actual: $0)
        } ?? false
      if let verdict = JSONSubsetPattern(expected)?.conforms(data) {
        walked += 1
        #expect(verdict == reference, "\(expected) in \(text)")
      }
      matched += reference ? 1 : 0
      var probe = request("https://a.test/", text: text)
      #expect((RequestPattern.jsonBody(subset: expected).match(probe) != nil) == reference)
      probe.jsonCache = ParsedJSONBodyCache()
      #expect((RequestPattern.jsonBody(subset: expected).match(probe) != nil) == reference)
    }
    // Most pairs must be judged by the walk, and some must match, or the test proves little.
    #expect(walked > 100 && matched > 10, "walked \(walked), matched \(matched)")
  }

  @Test func changingTheBodyDropsTheSharedReading() {
    let pattern = RequestPattern.jsonBody(subset: ["kind": "book"])
    var probe = request("https://a.test/orders", text: #"{"kind":"book"}"#)
    probe.jsonCache = ParsedJSONBodyCache()
    #expect(pattern.match(probe) != nil)
    probe.body = Data(#"{"kind":"dvd"}"#.utf8)
    #expect(probe.jsonCache == nil)
    #expect(pattern.match(probe) == nil)
  }

  @Test func stubsTriedForOneRequestShareAReadingAndKeepPrecedence() async throws {
    let registry = StubRegistry()
    registry.stub(.post("/orders") && .jsonBody(subset: ["kind": "book"]), .text("book"))
    registry.stub(.post("/orders") && .jsonBody(subset: ["kind": "dvd"]), .text("dvd"))
    registry.stub(.post("/orders") && .jsonBody(["kind": "book", "rush": true]), .text("rush"))
    let session = registry.makeSession()
    func send(_ json: String) async throws -> String {
      var request = URLRequest(url: URL(string: "https://shop.test/orders")!)
      request.httpMethod = "POST"
      request.httpBody = Data(json.utf8)
      return String(decoding: try await session.data(for: request).0, as: UTF8.self)
    }
    #expect(try await send(#"{"kind":"book","rush":true}"#) == "rush")
    #expect(try await send(#"{"kind":"book","rush":false}"#) == "book")
    #expect(try await send(#"{"kind":"dvd"}"#) == "dvd")
    // What the journal keeps is the request alone, without the reading made while matching.
    #expect(registry.journal.allSatisfy { $0.request.jsonCache == nil })
  }
}
