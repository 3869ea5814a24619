import Testing

@testable import Understudy

@Suite struct FormBodyMatchingTests {
  let url = "https://a.test/login"

  @Test func decodesPlusAndPercentAndAllowsOtherFields() {
    let pattern = RequestPattern.formBody(["user": "Ann Lee", "note": "a&b=c"])
    #expect(pattern.description == "body has form fields note=a&b=c&user=Ann Lee")
    expectMatch(pattern, request(url, text: "remember=on&user=Ann+Lee&note=a%26b%3Dc"))
    expectMismatch(
      pattern, request(url, text: "user=Ann+Lee&note=x"),
      field: "body", expected: "has form fields note=a&b=c&user=Ann Lee",
      actual: "form fields user=Ann Lee&note=x")
  }

  @Test func noBodyOrBinaryBodyIsSaidSo() {
    let pattern = RequestPattern.formBody(["a": "1"])
    expectMismatch(
      pattern, request("POST", url), field: "body", expected: "has form fields a=1",
      actual: "no body")
    expectMismatch(
      pattern, request("POST", url, body: Data([0xC3])), field: "body",
      expected: "has form fields a=1", actual: "1 bytes, not UTF-8")
    expectMismatch(
      pattern, request(url, text: ""), field: "body", expected: "has form fields a=1",
      actual: "form fields (none)")
  }
}
