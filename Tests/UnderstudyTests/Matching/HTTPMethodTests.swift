import Testing

@testable import Understudy

@Suite struct HTTPMethodTests {
  @Test func upperCasesEveryWayOfWritingIt() {
    let literal: HTTPMethod = "purge"
    #expect(literal.rawValue == "PURGE")
    #expect(HTTPMethod(rawValue: "patch") == .patch)
    #expect(HTTPMethod(rawValue: "Delete") == .delete)
    #expect(HTTPMethod.options.description == "OPTIONS")
    #expect(
      [HTTPMethod.get, .post, .put, .head, .trace, .connect].map(\.rawValue) == [
        "GET", "POST", "PUT", "HEAD", "TRACE", "CONNECT",
      ])
  }

  @Test func methodMatcherComparesTheUpperCasedMethod() {
    let pattern = RequestPattern.method(.post)
    expectMatch(pattern, request("post", "https://api.test/users"))
    expectMismatch(
      pattern, request("GET", "https://api.test/users"),
      field: "method", expected: "== POST", actual: "GET")
    #expect(RequestPattern.method("purge").description == "method == PURGE")
  }
}
