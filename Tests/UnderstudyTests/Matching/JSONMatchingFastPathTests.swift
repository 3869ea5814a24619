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
