import Testing

@testable import Understudy

@Suite struct URLMatchingTests {
  @Test func exactURLNormalisesCasePortsQueryOrderAndFragment() {
    let pattern = RequestPattern.url("https://API.example.com/search?q=swift&page=2")
    expectMatch(pattern, request("GET", "https://api.EXAMPLE.com:443/search?page=2&q=swift#x"))
    expectMatch(pattern, request("GET", "HTTPS://api.example.com/search?q=swift&page=2"))
    #expect(pattern.indexedPath == "/search")
    #expect(pattern.description == "url == https://API.example.com/search?q=swift&page=2")
  }

  @Test func exactURLSaysWhichPartDiffers() {
    let pattern = RequestPattern.url(URL(string: "https://a.test/users?tag=a&tag=b")!)
    let expected = "== https://a.test/users?tag=a&tag=b"
    expectMismatch(
      pattern, request("GET", "https://a.test/users?tag=a"),
      field: "url", expected: expected, actual: "https://a.test/users?tag=a (query differs)")
    expectMismatch(
      pattern, request("GET", "https://a.test:8443/users?tag=a&tag=b"),
      field: "url", expected: expected,
      actual: "https://a.test:8443/users?tag=a&tag=b (port differs)")
    expectMismatch(
      pattern, request("GET", "https://a.test/users/?tag=b&tag=a"),
      field: "url", expected: expected,
      actual: "https://a.test/users/?tag=b&tag=a (path differs)")
  }

  @Test func customSchemeURLIsClaimed() {
    #expect(RequestPattern.url("myapp://handoff/open").schemes == ["myapp"])
    #expect(RequestPattern.url("https://a.test/").schemes.isEmpty)
  }

  @Test func templateOrRelativeStringIsAProblem() {
    expectInvalid(
      .url("https://a.test/users/{id}"),
      problem: "URL \"https://a.test/users/{id}\" contains \"{\", but .url matches one exact URL; "
        + "use .get(\"https://a.test/users/{id}\") or .path(_:) for a template.",
      against: request("GET", "https://a.test/users/%7Bid%7D"))
    expectInvalid(
      .url("/users"),
      problem: "URL \"/users\" is not an absolute URL; write it with its scheme and host, as in "
        + "\"https://api.example.com/users\".",
      against: request("GET", "https://a.test/users"))
  }

  @Test func schemeIsCaseInsensitiveAndCustomSchemesAreClaimed() {
    let pattern = RequestPattern.scheme("MyApp")
    #expect(pattern.schemes == ["myapp"])
    expectMatch(pattern, request("GET", "myapp://x/y"))
    expectMismatch(
      pattern, request("GET", "https://x/y"), field: "scheme", expected: "== myapp", actual: "https"
    )
    #expect(RequestPattern.scheme("HTTPS").schemes.isEmpty)
  }

  @Test func hostIsCaseInsensitive() {
    let pattern = RequestPattern.host("API.Example.com")
    expectMatch(pattern, request("GET", "https://api.example.COM/x"))
    expectMismatch(
      pattern, request("GET", "https://www.example.com/x"),
      field: "host", expected: "== api.example.com", actual: "www.example.com")
  }

  @Test func portDefaultsFromTheScheme() {
    expectMatch(.port(443), request("GET", "https://a.test/"))
    expectMatch(.port(80), request("GET", "http://a.test/"))
    expectMatch(.port(8080), request("GET", "http://a.test:8080/"))
    expectMismatch(
      .port(8080), request("GET", "https://a.test/"), field: "port", expected: "== 8080",
      actual: "443")
    expectMismatch(
      .port(1), request("GET", "myapp://a/"), field: "port", expected: "== 1", actual: "none")
  }
}
