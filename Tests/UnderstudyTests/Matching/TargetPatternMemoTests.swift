import Testing

@testable import Understudy

/// Targets declared again are found in `TargetPatternMemo` instead of parsed again; what they
/// match must not change.
@Suite struct TargetPatternMemoTests {
  @Test func aTargetDeclaredAgainMatchesAsWhenFirstDeclared() {
    let target = "https://memo.test/users/{id}?expand=1"
    for _ in 0..<2 {
      let pattern = RequestPattern.get(target)
      expectMatch(
        pattern, request("GET", "https://memo.test/users/7?expand=1"), captures: ["id": "7"])
      expectMismatch(
        pattern, request("POST", "https://memo.test/users/7?expand=1"),
        field: "method", expected: "== GET", actual: "POST")
    }
  }

  @Test func theSameTargetWithAnotherMethodIsAnotherPattern() {
    let get = RequestPattern.get("/memo/orders/{id}")
    let delete = RequestPattern.delete("/memo/orders/{id}")
    expectMatch(get, request("GET", "https://a.test/memo/orders/1"), captures: ["id": "1"])
    #expect(get.match(request("DELETE", "https://a.test/memo/orders/1")) == nil)
    expectMatch(delete, request("DELETE", "https://a.test/memo/orders/1"), captures: ["id": "1"])
    #expect(delete.match(request("GET", "https://a.test/memo/orders/1")) == nil)
  }

  @Test func anInvalidTargetKeepsItsProblemWhenDeclaredAgain() {
    let first = RequestPattern.get("memo.test/no-scheme")
    let again = RequestPattern.get("memo.test/no-scheme")
    #expect(!first.problems.isEmpty)
    #expect(again.problems == first.problems)
    #expect(again.match(request("GET", "https://memo.test/no-scheme")) == nil)
  }

  /// Declaring more targets than the memo holds starts it again: memory stays bounded and every
  /// pattern still matches its own target.
  @Test func theMemoStaysBoundedAndCorrectPastItsCapacity() {
    for index in 0..<1_100 {
      let pattern = RequestPattern.put("/memo/bounded/\(index)")
      if index % 100 == 0 {
        expectMatch(pattern, request("PUT", "https://a.test/memo/bounded/\(index)"))
        #expect(pattern.match(request("PUT", "https://a.test/memo/bounded/\(index + 1)")) == nil)
      }
    }
    #expect(TargetPatternMemo.count <= 1_024)
  }
}
