import Foundation
import Testing

@testable import Understudy

/// Hippolyte's `StubRequestTests` compare the requests stubs describe: patterns are values, equal
/// when they check the same things, whatever order they were joined in.
@Suite struct PatternEqualityTests {
  private let apple = URL(string: "http://www.apple.com")!

  /// Pairs built separately from the same factories.
  static let alike: [(RequestPattern, RequestPattern)] = [
    (.get("/users/{id}"), .get("/users/{id}")),
    (
      .method(.get) && .url(URL(string: "http://www.apple.com")!),
      .method(.get) && .url(URL(string: "http://www.apple.com")!)
    ),
    (.header("X-Foo", "Bar"), .header("x-foo", "Bar")),
    (
      .header("Accept") && .noHeader("Authorization"),
      .noHeader("authorization") && .header("accept")
    ),
    (.query(containing: ["a": "1", "b": "2"]), .query(containing: ["b": "2", "a": "1"])),
    (
      .query(exactly: [URLQueryItem(name: "a", value: "1"), URLQueryItem(name: "b", value: nil)]),
      .query(exactly: [URLQueryItem(name: "b", value: ""), URLQueryItem(name: "a", value: "1")])
    ),
    (.jsonBody(["b": 2, "a": [1, true]]), .jsonBody(["a": [1, true], "b": 2])),
    (.body(Data("data".utf8)), .body(Data("data".utf8))),
    (
      .formBody(["user": "ann"]) && .formField("password"),
      .formField("password") && .formBody(["user": "ann"])
    ),
    (
      .multipartPart("file", filename: "a.png", contentType: "image/png"),
      .multipartPart("file", filename: "a.png", contentType: "IMAGE/PNG")
    ),
    (.path(matching: "^/v[12]/"), .path(matching: "^/v[12]/")),
    (
      (.get("/a") && .header("X", "1")) && .query("q", "s"),
      .get("/a") && (.header("X", "1") && .query("q", "s"))
    ),
    (.get("/a") || .post("/b"), .post("/b") || .get("/a")),
    (!.header("X-Debug"), !.header("X-Debug")),
    (.any, .any),
    // Invalid patterns compare too: the same mistake is the same pattern.
    (.path(matching: "(unclosed"), .path(matching: "(unclosed")),
  ]

  /// Pairs that differ in one thing a request could show.
  static let different: [(RequestPattern, RequestPattern)] = [
    (
      .method(.get) && .url(URL(string: "http://www.apple.com")!),
      .method(.post) && .url(URL(string: "http://www.apple.com")!)
    ),
    (.get("http://www.apple.com"), .get("http://www.google.com")),
    (.header("X-Foo", "Bar"), .header("X-Foo", "bar")),
    (.header("X-Foo", "Bar"), .header("X-Foo", containing: "Bar")),
    // Reports mask a credential's value and clip long ones; patterns still compare them whole.
    (.query(containing: ["token": "one"]), .query(containing: ["token": "two"])),
    (.formBody(["password": "one"]), .formBody(["password": "two"])),
    (
      .body(String(repeating: "x", count: 300) + "1"),
      .body(String(repeating: "x", count: 300) + "2")
    ),
    (.body(Data("abcd".utf8)), .body(Data("abce".utf8))),
    (
      .path(String(repeating: "/p", count: 100) + "/1"),
      .path(String(repeating: "/p", count: 100) + "/2")
    ),
    (
      .multipartPart("file", content: .data(Data("ab".utf8))),
      .multipartPart("file", content: .data(Data("ac".utf8)))
    ),
    (.get("/a") && .header("X", "1"), .get("/a") || .header("X", "1")),
    (.get("/a"), !.get("/a")),
    (.get("/a") && .query("q", "1"), .get("/a") && .query("q", "1") && .query("q", "1")),
  ]

  @Test(arguments: 0..<alike.count)
  func patternsBuiltAlikeAreEqualAndHashAlike(_ index: Int) {
    let (lhs, rhs) = Self.alike[index]
    #expect(lhs == rhs, "\(lhs) vs \(rhs)")
    #expect(lhs.hashValue == rhs.hashValue)
    #expect(Set([lhs, rhs]).count == 1)
  }

  @Test(arguments: 0..<different.count)
  func patternsThatCheckDifferentThingsDiffer(_ index: Int) {
    let (lhs, rhs) = Self.different[index]
    #expect(lhs != rhs, "\(lhs) vs \(rhs)")
    #expect(Set([lhs, rhs]).count == 2)
  }

  @Test func aClosureConditionEqualsOnlyItsOwnCopies() {
    let isLarge = RequestPattern.custom("large") { ($0.body?.count ?? 0) > 1_000 }
    let copy = isLarge
    #expect(isLarge == copy)
    #expect((.get("/upload") && isLarge) == (isLarge && .get("/upload")))
    // The same code written again is another closure, which Swift cannot compare.
    #expect(isLarge != RequestPattern.custom("large") { ($0.body?.count ?? 0) > 1_000 })
    let field = RequestPattern(field: "header X", expected: "set") { _ in .matched }
    #expect(field == field)
    #expect(field != RequestPattern(field: "header X", expected: "set") { _ in .matched })
  }

  @Test func equalPatternsMatchTheSameRequests() throws {
    let first: RequestPattern = .method(.get) && .url(apple) && .header("X-Foo", "Bar")
    let second: RequestPattern = .header("x-foo", "Bar") && .url(apple) && .method(.get)
    #expect(first == second)
    var request = URLRequest(url: apple)
    request.setValue("Bar", forHTTPHeaderField: "X-Foo")
    let intercepted = InterceptedRequest(request)
    #expect(first.match(intercepted) != nil)
    #expect(second.match(intercepted) != nil)
  }

  @Test func aStubsPatternComparesWithTheOneItWasGiven() {
    let registry = StubRegistry()
    let stub = registry.stub(.get("/users/{id}"), .ok)
    #expect(stub.pattern == .get("/users/{id}"))
    // Keeping the patterns of a registry's stubs in a set finds the duplicates among them.
    registry.stub(.get("/users/{id}"), .ok)
    #expect(Set(registry.stubs.map(\.pattern)).count == 1)
  }
}
