import Testing

@testable import Understudy

/// Header names compare case-insensitively, byte by byte for ASCII.
@Suite struct HTTPHeadersTests {
  @Test func namesCompareIgnoringASCIICaseOnly() {
    #expect("Content-Type".caseInsensitiveEquals("content-TYPE"))
    #expect(!"Content-Type".caseInsensitiveEquals("Content-Typf"))
    #expect(!"a@".caseInsensitiveEquals("a`"))  // '@' and '`' differ by the case bit
    #expect(!"X-1".caseInsensitiveEquals("X-2"))
    #expect("X-Ünï".caseInsensitiveEquals("x-ünÏ"))
    #expect(!"Accept".caseInsensitiveEquals("Accepts"))
  }

  /// The order a dictionary's names are sorted into is the order of their lower-cased forms,
  /// whether the bytes are compared in place (ASCII) or the strings lower-cased (anything else).
  @Test func namesSortAsTheirLowerCasedForms() {
    let names = [
      "Accept", "accept", "Accept-Encoding", "X-Id", "x-ID", "X-1", "X_1", "x[", "X@", "a`", "A@",
      "", "Z", "z", "Ünï", "ünï", "X-Ünï", "x-é", "x-e\u{301}", "x-e", "x-ez", "x-e\u{301}z",
      "X-Éa", "x-f", "X-E", "x-d\u{301}",
    ]
    for lhs in names {
      for rhs in names {
        #expect(
          lhs.caseInsensitivelyPrecedes(rhs) == (lhs.lowercased() < rhs.lowercased()),
          "\(lhs.debugDescription) before \(rhs.debugDescription)")
      }
    }
  }

  @Test func theDictionaryJoinsRepeatedNamesUnderTheFirstSpelling() {
    var headers: HTTPHeaders = ["Accept": "a", "X-Id": "1"]
    headers.add(name: "accept", value: "b")
    #expect(headers.dictionary == ["Accept": "a, b", "X-Id": "1"])
    #expect(HTTPHeaders(["b": "2", "A": "1", "c": "3"]).fields.map(\.name) == ["A", "b", "c"])
  }
}

/// The byte search behind `.header(_:contains:)` agrees with Foundation's `contains`.
@Suite struct HeaderTextSearchTests {
  @Test(arguments: [
    ("application/json; charset=utf-8", "json"), ("application/json", "application/json"),
    ("text/plain", "json"), ("ab", "abc"), ("aaab", "aab"), ("", "x"), ("x", ""),
    ("Bearer token", "bearer"), ("café au lait", "é a"), ("cafe\u{301}", "é"), ("naïve", "ive"),
  ])
  func agreesWithFoundation(haystack: String, needle: String) {
    #expect(haystack.containsText(needle) == Self.foundationContains(haystack, needle))
  }

  /// Foundation's `contains(_:)`: generic over `StringProtocol`, out of reach of the suite's
  /// byte search on `String` (ByteContains.swift).
  private static func foundationContains(_ haystack: some StringProtocol, _ needle: String) -> Bool
  {
    haystack.contains(needle)
  }

  @Test func headerContainsMatchesAndReports() {
    let pattern = RequestPattern.header("Content-Type", containing: "json")
    expectMatch(
      pattern, request("POST", "https://a.test/x", headers: ["content-type": "text/json"]))
    expectMismatch(
      pattern, request("POST", "https://a.test/x", headers: ["Content-Type": "text/plain"]),
      field: "header Content-Type", expected: "contains json", actual: "text/plain")
    expectMismatch(
      pattern, request("POST", "https://a.test/x"),
      field: "header Content-Type", expected: "contains json", actual: "absent")
  }
}
