import Testing

@testable import Understudy

@Suite struct PathMatchingTests {
  @Test func exactPathIsIndexedAndTrailingSlashCounts() {
    let pattern = RequestPattern.path("/users")
    #expect(pattern.indexedPath == "/users")
    #expect(pattern.description == "path == /users")
    expectMatch(pattern, request("GET", "https://a.test/users?x=1"))
    expectMismatch(
      pattern, request("GET", "https://a.test/users/"),
      field: "path", expected: "== /users", actual: "/users/")
  }

  @Test func exactPathMayBeWrittenEncodedOrDecoded() {
    expectMatch(.path("/a%20b"), request("GET", "https://a.test/a%20b"))
    expectMatch(.path("/a b"), request("GET", "https://a.test/a%20b"))
    #expect(RequestPattern.path("/a%20b").indexedPath == "/a b")
  }

  @Test func emptyPathIsRoot() {
    expectMatch(.path("/"), request("GET", "https://a.test"))
  }

  @Test func templateCapturesPercentDecodedSegments() {
    let pattern = RequestPattern.path("/users/{id}/posts/{post}")
    #expect(pattern.indexedPath == nil)
    expectMatch(
      pattern, request("GET", "https://a.test/users/ann%20lee/posts/a%2Fb"),
      captures: ["id": "ann lee", "post": "a/b"])
    expectMismatch(
      pattern, request("GET", "https://a.test/users//posts/1"),
      field: "path", expected: "~ /users/{id}/posts/{post}", actual: "/users//posts/1")
    expectMismatch(
      pattern, request("GET", "https://a.test/users/1/posts/2/"),
      field: "path", expected: "~ /users/{id}/posts/{post}", actual: "/users/1/posts/2/")
  }

  @Test func restPlaceholderTakesSlashesButNotNothing() {
    let pattern = RequestPattern.path("/files/{path...}")
    expectMatch(
      pattern, request("GET", "https://a.test/files/a/b%20c.txt"), captures: ["path": "a/b c.txt"])
    expectMismatch(
      pattern, request("GET", "https://a.test/files/"),
      field: "path", expected: "~ /files/{path...}", actual: "/files/")
  }

  @Test func capturesReachExplanations() {
    let explanation = RequestPattern.path("/u/{id}").explain(request("GET", "https://a.test/u/9"))
    #expect(explanation.captures == ["id": "9"])
    #expect(explanation.matchedFields == ["path"])
  }

  @Test(arguments: [
    ("users/{id}", "must start with \"/\"; write \"/users/{id}\""),
    ("/users/{id", "has an unbalanced \"{\" in \"{id\"; close each placeholder, as in \"{id}\""),
    ("/users/id}", "has an unbalanced \"}\" in \"id}\"; open each placeholder, as in \"{id}\""),
    // A combining mark after the brace made one Character that is no `{`; found by
    // FuzzPatterns, the segment read as literal text.
    (
      "/users/{\u{35C}id",
      "has an unbalanced \"{\" in \"{\u{35C}id\"; close each placeholder, as in \"{id}\""
    ),
    (
      "/users/{\u{35C}id}",
      "has the invalid placeholder name \"\u{35C}id\"; use ASCII letters, digits, \"_\" and \"-\""
    ),
    (
      "/users/{{id}}",
      "has a \"{\" inside a placeholder in \"{{id}}\"; close each placeholder first"
    ),
    ("/users/{}", "has a placeholder without a name in \"{}\"; name it, as in \"{id}\""),
    ("/users/{...}", "has a placeholder without a name in \"{...}\"; name it, as in \"{id}\""),
    (
      "/users/{user id}",
      "has the invalid placeholder name \"user id\"; use ASCII letters, digits, \"_\" and \"-\""
    ),
    (
      "/users/{id}/{id}",
      "uses the placeholder name \"id\" twice; give each placeholder its own name"
    ),
    (
      "/files/{path...}/raw",
      "has \"{path...}\" before the last segment; a {name...} placeholder must end the template, "
        + "or use .path(matching:) for other shapes"
    ),
    (
      "/files/{name}.json",
      "puts a placeholder inside the segment \"{name}.json\"; a placeholder must fill a whole "
        + "segment between slashes, or use .path(matching:) for finer patterns"
    ),
  ])
  func invalidTemplateIsAProblemAndNeverMatches(template: String, reason: String) {
    expectInvalid(
      .path(template), problem: "Path template \"\(template)\" \(reason).",
      against: request("GET", "https://a.test/users/1"))
    #expect(throws: PathTemplate.Invalid.self) { try PathTemplate(template) }
  }

  @Test func prefixComparesDecodedText() {
    let pattern = RequestPattern.path(prefix: "/api/")
    expectMatch(pattern, request("GET", "https://a.test/api/v1"))
    expectMismatch(
      pattern, request("GET", "https://a.test/apiary"),
      field: "path", expected: "has prefix /api/", actual: "/apiary")
  }

  @Test func regexSearchesAnywhereAndCapturesNamedGroups() {
    let pattern = RequestPattern.path(matching: #"^/users/(?<id>\d+)/(?<tab>[a-z ]+)$"#)
    expectMatch(
      pattern, request("GET", "https://a.test/users/42/my%20posts"),
      captures: ["id": "42", "tab": "my posts"])
    expectMismatch(
      pattern, request("GET", "https://a.test/users/ann/posts"),
      field: "path", expected: #"matches regex ^/users/(?<id>\d+)/(?<tab>[a-z ]+)$"#,
      actual: "/users/ann/posts")
    expectMatch(.path(matching: "v[0-9]"), request("GET", "https://a.test/api/v2/x"))
  }

  @Test func invalidRegexIsAProblemAndNeverMatches() {
    expectInvalid(
      .path(matching: "/users/(\\d+"),
      problem: "The regular expression \"/users/(\\d+\" for path does not compile; balance its "
        + "brackets and escape literal characters such as ( [ { . * + ? with \\.",
      against: request("GET", "https://a.test/users/(1"))
  }
}

@Suite struct PathTemplateTests {
  @Test func exposesLiteralPrefixAndNames() throws {
    let template = try PathTemplate("/users/{id}/posts/{rest...}")
    #expect(template.literalPrefix == "/users/")
    #expect(template.parameterNames == ["id", "rest"])
    #expect(!template.isLiteral)
    #expect(try PathTemplate("/{id}").literalPrefix == "/")
    #expect(try PathTemplate("/a%20b/c").literalPrefix == "/a b/c")
    #expect(try PathTemplate("/users/").literalPrefix == "/users/")
    #expect(try PathTemplate("/users").isLiteral)
  }

  /// Found by FuzzPatterns: a slash followed by a combining mark is one Character, so a template
  /// split by Characters had one segment fewer than the path it was written for.
  @Test func splitsOnSlashBytesEvenBeforeCombiningMarks() throws {
    let template = try PathTemplate("/a/\u{35C}b%C3%A9/{rest...}")
    #expect(template.parameterNames == ["rest"])
    #expect(template.match("/a/\u{35C}b%C3%A9/r2/s") == ["rest": "r2/s"])
    #expect(template.match("/a/\u{35C}b%C3%A9") == nil)
    #expect(try PathTemplate("/\u{35C}x").match("/\u{35C}x") == [:])
  }

  @Test func matchesEncodedPaths() throws {
    let template = try PathTemplate("/a b/{x}")
    #expect(template.match("/a%20b/c%2Fd") == ["x": "c/d"])
    #expect(template.match("/a%20b") == nil)
    #expect(template.match("relative/c") == nil)
    #expect(try PathTemplate("/100%/{x}").match("/100%/1") == ["x": "1"])
  }
}
