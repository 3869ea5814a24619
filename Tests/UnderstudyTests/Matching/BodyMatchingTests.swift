import Testing

@testable import Understudy

@Suite struct BodyMatchingTests {
  let url = "https://a.test/upload"

  @Test func bytesReportSizesAndFirstDifferingOffset() {
    let pattern = RequestPattern.body(Data([1, 2, 3, 4]))
    #expect(pattern.description == "body == 4 bytes")
    expectMatch(pattern, request("POST", url, body: Data([1, 2, 3, 4])))
    expectMismatch(
      pattern, request("POST", url, body: Data([1, 2, 9, 4, 5])),
      field: "body", expected: "== 4 bytes", actual: "5 bytes, first difference at offset 2")
    expectMismatch(
      pattern, request("POST", url, body: Data([1, 2, 3])),
      field: "body", expected: "== 4 bytes", actual: "3 bytes, first difference at offset 3")
    expectMismatch(
      pattern, request("POST", url), field: "body", expected: "== 4 bytes", actual: "no body")
    expectMatch(.body(Data()), request("POST", url))
  }

  @Test func textComparesExactlyAndPointsAtTheDifference() {
    let pattern = RequestPattern.body("name=Ann")
    expectMatch(pattern, request(url, text: "name=Ann"))
    expectMismatch(
      pattern, request(url, text: "name=Anne"),
      field: "body", expected: #"== "name=Ann""#,
      actual: #""name=Anne", first difference at character 8"#)
    expectMismatch(
      pattern, request("POST", url, body: Data([0xFF, 0xFE])),
      field: "body", expected: #"== "name=Ann""#, actual: "2 bytes, not UTF-8")
    expectMismatch(
      pattern, request("POST", url), field: "body", expected: #"== "name=Ann""#, actual: "no body")
  }

  @Test func longBodiesAreClippedInReports() {
    let body = String(repeating: "a", count: 1_000)
    let explanation = RequestPattern.body(containing: "b").explain(request(url, text: body))
    #expect(
      explanation.mismatches.first?.actual == "\"" + String(repeating: "a", count: 117) + "…\"")
  }

  @Test func containing() {
    let pattern = RequestPattern.body(containing: "\"role\"")
    expectMatch(pattern, request(url, text: #"{"role": "admin"}"#))
    expectMismatch(
      pattern, request(url, text: "role=admin"),
      field: "body", expected: #"contains ""role"""#, actual: #""role=admin""#)
  }

  /// Foundation on Linux reads `"xa".contains("a\0")` as true and traps on
  /// `"éa".contains("a\0")`: a needle's trailing NUL ran past the end of the body.
  @Test func containingANulMatchesOnlyTheNul() {
    let pattern = RequestPattern.body(containing: "a\0")
    expectMatch(pattern, request(url, text: "éa\0"))
    expectMatch(pattern, request(url, text: "a\0b"))
    #expect(pattern.match(request(url, text: "éa")) == nil)
    #expect(pattern.match(request(url, text: "xa")) == nil)
  }

  @Test func regex() {
    let pattern = RequestPattern.body(matching: #"order-\d{4}"#)
    expectMatch(pattern, request(url, text: "id: order-1234, ok"))
    expectMismatch(
      pattern, request(url, text: "id: order-12"),
      field: "body", expected: #"matches regex order-\d{4}"#, actual: #""id: order-12""#)
    expectInvalid(
      .body(matching: "(?<open"),
      problem: "The regular expression \"(?<open\" for body does not compile; balance its "
        + "brackets and escape literal characters such as ( [ { . * + ? with \\.",
      against: request(url, text: "(?<open"))
  }
}
