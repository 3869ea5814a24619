import Testing

@testable import Understudy

@Suite struct HeaderMatchingTests {
  let json = request("GET", "https://a.test/", headers: ["content-type": "application/json"])
  let none = request("GET", "https://a.test/")

  @Test func equalsComparesNamesCaseInsensitivelyAndValuesExactly() {
    let pattern = RequestPattern.header("Content-Type", "application/json")
    #expect(pattern.description == "header Content-Type == application/json")
    expectMatch(pattern, json)
    expectMismatch(
      pattern, request("GET", "https://a.test/", headers: ["Content-Type": "Application/JSON"]),
      field: "header Content-Type", expected: "== application/json", actual: "Application/JSON")
    expectMismatch(
      pattern, none, field: "header Content-Type", expected: "== application/json",
      actual: "absent")
  }

  @Test func repeatedHeaderMatchesAnyValue() {
    var headers = HTTPHeaders()
    headers.add(name: "Accept", value: "text/html")
    headers.add(name: "accept", value: "application/json")
    let repeated = request("GET", "https://a.test/", headers: headers)
    expectMatch(.header("ACCEPT", "application/json"), repeated)
    expectMismatch(
      .header("Accept", "text/plain"), repeated,
      field: "header Accept", expected: "== text/plain", actual: "text/html, application/json")
  }

  @Test func containsLooksInsideValues() {
    expectMatch(.header("content-type", containing: "json"), json)
    expectMismatch(
      .header("Content-Type", containing: "xml"), json,
      field: "header Content-Type", expected: "contains xml", actual: "application/json")
  }

  @Test func regexMatchesValues() {
    let pattern = RequestPattern.header("Authorization", matching: "^Bearer [a-z0-9]+$")
    let bearer = request("GET", "https://a.test/", headers: ["authorization": "Bearer abc123"])
    expectMatch(pattern, bearer)
    expectMismatch(
      pattern, request("GET", "https://a.test/", headers: ["Authorization": "Basic Zm9v"]),
      field: "header Authorization", expected: "matches regex ^Bearer [a-z0-9]+$",
      actual: "Basic Zm9v")
    expectInvalid(
      .header("Authorization", matching: "[a-"),
      problem: "The regular expression \"[a-\" for header Authorization does not compile; balance "
        + "its brackets and escape literal characters such as ( [ { . * + ? with \\.",
      against: bearer)
  }

  @Test func regexVerdictFollowsEachValue() {
    // The condition remembers its last verdict; alternating values must each get their own.
    let pattern = RequestPattern.header("Authorization", matching: "^Bearer [a-z0-9]+$")
    let values = ["Bearer abc", "Basic Zm9v", "Bearer abc", "Bearer abc", "Basic Zm9v", "Bearer x"]
    let matched = values.map { value in
      pattern.match(request("GET", "https://a.test/", headers: ["Authorization": value])) != nil
    }
    #expect(matched == [true, false, true, true, false, true])
  }

  @Test func presenceAndAbsence() {
    expectMatch(.header("CONTENT-TYPE"), json)
    expectMismatch(
      .header("X-Trace"), json, field: "header X-Trace", expected: "present", actual: "absent")
    expectMatch(.noHeader("Authorization"), json)
    expectMismatch(
      .noHeader("Content-Type"), json,
      field: "header Content-Type", expected: "absent", actual: "present: application/json")
  }

  /// A name no request can carry never matched (and `noHeader` always did), silently: a space
  /// or a colon copied from a raw request (`"X-Trace: "`), or an empty name.
  @Test(arguments: ["Bad Name", "X-Trace:", "", "Accept\n", "Ünïcode"])
  func aNameNoRequestCanCarryIsAProblem(name: String) {
    let problem =
      "The header name \(name.oneLine.quoted(limit: 40)) is not a valid HTTP field name (letters, "
      + "digits and !#$%&'*+-.^_`|~ only); write the name as the request sends it, such as "
      + "\"X-Request-ID\""
    let sent = request("GET", "https://a.test/", headers: ["X-Trace": "1"])
    for pattern in [
      RequestPattern.header(name, "1"), .header(name, containing: "1"),
      .header(name, matching: "1"), .header(name, matching: "[unbalanced"), .header(name),
      .noHeader(name),
    ] {
      expectInvalid(pattern, problem: problem, against: sent)
      expectInvalid(pattern, problem: problem, against: none)
    }
  }

  @Test func aStubOnAnInvalidNameIsReportedWhereItIsDeclared() {
    let registry = StubRegistry()
    withKnownIssue {
      registry.stub(.get("https://a.test/") && .header("Bad Name", "1"), .ok)
    } matching: { issue in
      issue.description.contains("is not a valid HTTP field name")
    }
  }
}
