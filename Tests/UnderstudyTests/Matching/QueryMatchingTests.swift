import Testing

@testable import Understudy

@Suite struct QueryMatchingTests {
  @Test func nameAndValueIsPercentDecodedAndOrderFree() {
    let pattern = RequestPattern.query("q", "swift testing")
    #expect(pattern.description == "query q == swift testing")
    expectMatch(pattern, request("GET", "https://a.test/s?page=2&q=swift%20testing"))
    expectMismatch(
      pattern, request("GET", "https://a.test/s?q=swift&page=2"),
      field: "query q", expected: "== swift testing", actual: "q=swift&page=2")
    expectMismatch(
      pattern, request("GET", "https://a.test/s"),
      field: "query q", expected: "== swift testing", actual: "no query")
  }

  @Test func plusIsASpaceInQueriesAsServersDecodeIt() {
    expectMatch(.query("q", "a b"), request("GET", "https://a.test/?q=a+b"))
    expectMatch(.query("q", "a+b"), request("GET", "https://a.test/?q=a%2Bb"))
  }

  @Test func presenceAcceptsAnyValueIncludingNone() {
    let pattern = RequestPattern.query("debug")
    expectMatch(pattern, request("GET", "https://a.test/?debug"))
    expectMatch(pattern, request("GET", "https://a.test/?debug=1"))
    expectMismatch(
      pattern, request("GET", "https://a.test/?verbose=1"),
      field: "query debug", expected: "present", actual: "verbose=1")
  }

  @Test func containingChecksEveryItemAndAllowsOthers() {
    let pattern = RequestPattern.query(containing: ["page": "2", "sort": "new"])
    expectMatch(pattern, request("GET", "https://a.test/?sort=new&x=y&page=2"))
    expectMismatch(
      pattern, request("GET", "https://a.test/?sort=old&page=2"),
      field: "query", expected: "contains page=2&sort=new", actual: "sort=old&page=2")
  }

  @Test func exactlyIsAnOrderFreeMultiset() {
    let pattern = RequestPattern.query(exactly: [
      URLQueryItem(name: "tag", value: "a"), URLQueryItem(name: "tag", value: "b"),
      URLQueryItem(name: "flag", value: nil),
    ])
    expectMatch(pattern, request("GET", "https://a.test/?flag&tag=b&tag=a"))
    expectMismatch(
      pattern, request("GET", "https://a.test/?tag=a&flag&tag=a"),
      field: "query", expected: "== tag=a&tag=b&flag=", actual: "tag=a&flag=&tag=a")
    expectMismatch(
      pattern, request("GET", "https://a.test/?tag=a&tag=b&flag&extra=1"),
      field: "query", expected: "== tag=a&tag=b&flag=", actual: "tag=a&tag=b&flag=&extra=1")
    expectMatch(.query(exactly: []), request("GET", "https://a.test/"))
  }

  @Test func longQueriesAreClipped() {
    let long = String(repeating: "x", count: 300)
    let explanation = RequestPattern.query("a", "1").explain(
      request("GET", "https://a.test/?b=\(long)"))
    let actual = explanation.mismatches.first?.actual ?? ""
    #expect(actual.count == 120)
    #expect(actual.hasPrefix("b=xxx"))
    #expect(actual.hasSuffix("x…"))
  }
}
