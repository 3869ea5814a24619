import Testing

@testable import Understudy

/// Hippolyte's `RegexMatcherTests` (and stubs built with `withURLRegex`): a regular expression
/// over the whole URL, scheme, host, path and query together.
@Suite struct WholeURLRegexTests {
  @Test func anExpressionMatchesAnywhereInTheWholeURL() {
    let pattern = RequestPattern.url(matching: "Fo+")
    expectMatch(pattern, request("GET", "https://a.test/Foooo"))
    expectMatch(pattern, request("GET", "https://a.test/x?q=Fo"))
    expectMismatch(
      pattern, request("GET", "https://a.test/F"), field: "url",
      expected: "matches regex Fo+", actual: "https://a.test/F")
  }

  @Test func anAnchoredExpressionSeesSchemeHostAndQuery() {
    let pattern = RequestPattern.url(
      matching: #"^https://api\.example\.com/v[12]/users/(?<id>\d+)\?page=\d+$"#)
    expectMatch(
      pattern, request("GET", "https://api.example.com/v2/users/7?page=3"), captures: ["id": "7"])
    #expect(pattern.match(request("GET", "http://api.example.com/v2/users/7?page=3")) == nil)
    #expect(pattern.match(request("GET", "https://api.example.com/v2/users/7")) == nil)
  }

  @Test func anExpressionThatDoesNotCompileIsAProblem() {
    expectInvalid(
      .url(matching: "([unclosed"),
      problem: "The regular expression \"([unclosed\" for url does not compile; balance its "
        + "brackets and escape literal characters such as ( [ { . * + ? with \\.",
      against: request("GET", "https://a.test/([unclosed"))
  }

  @Test func aStubDeclaredWithAWholeURLExpressionAnswers() async throws {
    let registry = StubRegistry()
    registry.stub(.url(matching: #"^https://[^/]+\.test/img/.+\.png$"#), .text("png"))
    let (data, _) = try await registry.makeSession().data(
      from: URL(string: "https://cdn.test/img/a/b.png")!)
    #expect(String(decoding: data, as: UTF8.self) == "png")
  }
}
