import Testing

@testable import Understudy

@Suite struct MatcherCompositionTests {
  let url = "https://api.test/users"

  @Test func andReportsEveryFailingField() {
    let pattern: RequestPattern = .post("/users") && .jsonBody(subset: ["role": "admin"])
    #expect(
      pattern.description
        == #"method == POST && path == /users && body has JSON subset {"role":"admin"}"#)
    #expect(pattern.indexedPath == "/users")
    expectMatch(pattern, request(url, text: #"{"name":"Ann","role":"admin"}"#))
    let explanation = pattern.explain(request("PUT", url, body: Data(#"{"role":"user"}"#.utf8)))
    #expect(explanation.matchedFields == ["path"])
    #expect(
      explanation.mismatches == [
        FieldMismatch(field: "method", expected: "== POST", actual: "PUT"),
        FieldMismatch(
          field: "body", expected: #"has JSON subset {"role":"admin"}"#,
          actual: #"at $.role: expected "admin", got "user""#),
      ])
  }

  @Test func orTakesCapturesFromTheBranchThatMatched() {
    let pattern: RequestPattern = .get("/users/{id}") || .get("/people/{name}")
    #expect(
      pattern.description
        == "(method == GET && path ~ /users/{id}) || (method == GET && path ~ /people/{name})")
    expectMatch(pattern, request("GET", "https://a.test/people/ann"), captures: ["name": "ann"])
    expectMatch(pattern, request("GET", "https://a.test/users/1"), captures: ["id": "1"])
    expectMismatch(
      pattern, request("POST", "https://a.test/users/1"),
      field: "method", expected: "== GET", actual: "POST")
  }

  @Test func notExcludesRequests() {
    let pattern: RequestPattern = .path(prefix: "/api/") && !.header("Authorization")
    #expect(pattern.description == "path has prefix /api/ && !(header Authorization present)")
    expectMatch(pattern, request("GET", "https://a.test/api/x"))
    let signed = request("GET", "https://a.test/api/x", headers: ["authorization": "Bearer t"])
    expectMismatch(
      pattern, signed, field: "not", expected: "not (header Authorization present)",
      actual: "matched header Authorization")
  }

  @Test func problemsSurfaceThroughComposition() {
    let pattern: RequestPattern =
      .get("/ok") && (.path(matching: "(") || .header("X", matching: "["))
    #expect(pattern.problems.count == 2)
    #expect(pattern.match(request("GET", "https://a.test/ok", headers: ["X": "["])) == nil)
  }

  /// Found by FuzzPatterns: an invalid condition fails on its own, so under `!` it turned into a
  /// match, and beside a valid branch of `||` it was skipped.
  @Test func aPatternWithProblemsNeverMatchesEvenUnderNotOrBesideAValidBranch() {
    let invalid = RequestPattern.path(matching: "([unclosed")
    let sent = request("GET", "https://a.test/ok")
    for pattern in [
      !invalid, invalid || .any, .any || invalid, !(!invalid), .get("/ok") && !invalid,
    ] {
      #expect(pattern.problems.count == 1, "\(pattern)")
      #expect(pattern.match(sent) == nil, "\(pattern)")
      let explanation = pattern.explain(sent)
      #expect(!explanation.isMatch, "\(pattern)")
      #expect(explanation.mismatches.first?.field == "path", "\(pattern)")
      #expect(explanation.mismatches.first?.actual.hasPrefix("invalid pattern: ") == true)
    }
  }

  @Test func matchingTriesThePathFirstButReportsKeepTheWrittenOrder() {
    let calls = Locked<[String]>([])
    let pattern =
      RequestPattern.custom("first") { _ in
        calls.withLock { $0.append("custom") }
        return true
      } && .jsonBody(subset: ["kind": "book"]) && .path("/orders/{id}")
    let miss = request("https://a.test/other/7", text: #"{"kind":"dvd"}"#)
    #expect(pattern.match(miss) == nil)
    #expect(calls.current.isEmpty, "the path ruled the request out before anything else ran")
    #expect(
      pattern.explain(miss).mismatches.map(\.field) == ["body", "path"],
      "reports list fields as the pattern was written")
    let hit = request("https://a.test/orders/7", text: #"{"kind":"book"}"#)
    #expect(pattern.match(hit) == ["id": "7"])
  }
}
