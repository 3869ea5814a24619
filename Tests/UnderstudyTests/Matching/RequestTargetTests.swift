import Testing

@testable import Understudy

@Suite struct RequestTargetTests {
  @Test func pathTargetMatchesMethodAndTemplateOnAnyHost() {
    let pattern = RequestPattern.get("/users/{id}")
    expectMatch(pattern, request("GET", "https://a.test/users/7"), captures: ["id": "7"])
    expectMatch(pattern, request("GET", "http://b.test:8080/users/8"), captures: ["id": "8"])
    expectMismatch(
      pattern, request("DELETE", "https://a.test/users/7"),
      field: "method", expected: "== GET", actual: "DELETE")
    #expect(pattern.description == "method == GET && path ~ /users/{id}")
  }

  @Test func everyConvenienceUsesItsMethod() {
    let patterns: [(RequestPattern, HTTPMethod)] = [
      (.post("/x"), "POST"), (.put("/x"), "PUT"), (.patch("/x"), "PATCH"),
      (.delete("/x"), "DELETE"), (.head("/x"), "HEAD"), (.options("/x"), "OPTIONS"),
      (.request("PURGE", "/x"), "PURGE"),
    ]
    for (pattern, method) in patterns {
      expectMatch(pattern, request(method, "https://a.test/x"))
      #expect(pattern.match(request("GET", "https://a.test/x")) == nil)
    }
  }

  @Test func absoluteTargetPinsSchemeHostAndDefaultPort() {
    let pattern = RequestPattern.get("https://api.example.com/users/{id}")
    #expect(
      pattern.description
        == "method == GET && scheme == https && host == api.example.com && port == 443 "
        + "&& path ~ /users/{id}")
    expectMatch(
      pattern, request("GET", "HTTPS://API.Example.com/users/a%20b"), captures: ["id": "a b"])
    expectMatch(
      pattern, request("GET", "https://api.example.com:443/users/1"), captures: ["id": "1"])
    expectMismatch(
      pattern, request("GET", "https://api.example.com:8443/users/1"),
      field: "port", expected: "== 443", actual: "8443")
    expectMismatch(
      pattern, request("GET", "http://api.example.com/users/1"),
      field: "scheme", expected: "== https", actual: "http")
    expectMismatch(
      pattern, request("GET", "https://other.example.com/users/1"),
      field: "host", expected: "== api.example.com", actual: "other.example.com")
    #expect(pattern.schemes.isEmpty)
  }

  @Test func explicitPortAndExactPathAreKept() {
    let pattern = RequestPattern.post("http://localhost:8080/login")
    expectMatch(pattern, request("POST", "http://localhost:8080/login"))
    expectMismatch(
      pattern, request("POST", "http://localhost/login"),
      field: "port", expected: "== 8080", actual: "80")
    #expect(pattern.indexedPath == "/login")
  }

  @Test func customSchemeIsClaimedAndNeedsNoPort() {
    let pattern = RequestPattern.get("myapp://handoff/open")
    #expect(pattern.schemes == ["myapp"])
    expectMatch(pattern, request("GET", "myapp://handoff/open"))
    expectMismatch(
      pattern, request("GET", "myapp://handoff:9/open"),
      field: "port", expected: "absent", actual: "9")
  }

  @Test func ipv6HostsLoseTheirBrackets() {
    let pattern = RequestPattern.get("http://[::1]:8080/")
    expectMatch(pattern, request("GET", "http://[::1]:8080/"))
    expectMatch(pattern, request("GET", "http://[::1]:8080"))
  }

  @Test func queryInTargetMeansContainsTheseItems() {
    let pattern = RequestPattern.get("/search?q=swift%20testing&page=2#top")
    expectMatch(pattern, request("GET", "https://a.test/search?page=2&sort=new&q=swift%20testing"))
    expectMismatch(
      pattern, request("GET", "https://a.test/search?q=swift%20testing"),
      field: "query", expected: "contains q=swift testing&page=2", actual: "q=swift testing")
  }

  @Test func targetThatIsNeitherPathNorURLIsAProblem() {
    let pattern = RequestPattern.get("users/{id}")
    expectInvalid(
      pattern,
      problem: "Target \"users/{id}\" is neither a path starting with \"/\" nor an absolute URL; "
        + "write \"/users/{id}\" or \"https://host/users/{id}\".",
      against: request("GET", "https://a.test/users/7"))
  }

  @Test func invalidPortIsAProblem() {
    let pattern = RequestPattern.get("https://a.test:99999/x")
    expectInvalid(
      pattern,
      problem: "Target \"https://a.test:99999/x\" has the invalid port \"99999\"; write a number "
        + "from 0 to 65535, or leave it out for the scheme's default.",
      against: request("GET", "https://a.test/x"))
  }

  /// A slash too many leaves no host, which matched every host instead of failing.
  @Test(arguments: [
    ("https:///x", "write \"https://api.example.com/x\" with the host, or \"/x\" for any host."),
    ("https://", "write \"https://api.example.com/\" with the host, or \"/\" for any host."),
    (
      "http://:8080/a/b",
      "write \"http://api.example.com/a/b\" with the host, or \"/a/b\" for any host."
    ),
  ])
  func aTargetWithNoHostIsAProblem(target: String, fix: String) {
    expectInvalid(
      .get(target), problem: "Target \(target.quoted()) has no host after \"://\"; \(fix)",
      against: request("GET", "https://a.test/x"))
  }

  @Test func anEmptyHostAndAPortNoRequestHasAreProblems() {
    expectInvalid(
      .host(""),
      problem: "An empty host matches no request; write the host, as "
        + ".host(\"api.example.com\"), or leave the condition out to match any host.",
      against: request("GET", "https://a.test/x"))
    expectInvalid(
      .port(70_000),
      problem: "Port 70000 matches no request: a port is a number from 0 to 65535.",
      against: request("GET", "https://a.test:70000/x"))
    #expect(RequestPattern.port(65_535).problems.isEmpty)
  }

  /// A host or scheme written as part of a URL can never equal a request's, so it is reported
  /// instead of failing every request with "no stub matched".
  @Test(arguments: [
    (
      RequestPattern.host("https://a.test"), "https://a.test/x",
      "Host \"https://a.test\" matches no request: a host has no scheme, path or spaces; "
        + "write .host(\"a.test\"), or use .url(_:) to match the whole URL."
    ),
    (
      .host("a.test/v1"), "https://a.test/v1",
      "Host \"a.test/v1\" matches no request: a host has no scheme, path or spaces; write "
        + ".host(\"a.test\"), or use .url(_:) to match the whole URL."
    ),
    (
      .host("a.test:8080"), "https://a.test:8080/x",
      "Host \"a.test:8080\" matches no request: a request's host has no port; write "
        + ".host(\"a.test\") && .port(8080)."
    ),
    (
      .scheme("https://"), "https://a.test/x",
      "Scheme \"https://\" matches no request: a scheme is letters, digits, +, - and . only; "
        + "write \"https\" without \"://\"."
    ),
  ])
  func aHostOrSchemeWrittenAsPartOfAURLIsAProblem(
    pattern: RequestPattern, url: String, problem: String
  ) {
    expectInvalid(pattern, problem: problem, against: request("GET", url))
  }

  @Test func hostsAndSchemesARequestCanHaveAreNoProblem() {
    #expect(RequestPattern.host("[::1]").problems.isEmpty)
    #expect(RequestPattern.host("::1").problems.isEmpty)
    #expect(RequestPattern.scheme("x-my.app+v2").problems.isEmpty)
  }

  @Test func aTargetWithUserInformationIsAProblem() {
    expectInvalid(
      .get("https://user:pw@a.test/x"),
      problem: "Target \"https://user:pw@a.test/x\" has user information before its host, which "
        + "a target does not match on; leave it out, and match credentials with "
        + ".header(\"Authorization\", …).",
      against: request("GET", "https://user:pw@a.test/x"))
  }
}
