import Testing

@testable import Understudy

@Suite struct RequestPatternCompositionTests {
  let request = InterceptedRequest(method: "get", url: URL(string: "https://api.test/users/7")!)

  @Test func customPredicateMatchesAndExplains() {
    let pattern = RequestPattern.custom("host is api.test") { $0.host == "api.test" }
    #expect(pattern.match(request) != nil)
    let other = InterceptedRequest(url: URL(string: "https://else.test/")!)
    #expect(pattern.match(other) == nil)
    #expect(
      pattern.explain(other).mismatches == [
        FieldMismatch(
          field: "custom", expected: "host is api.test", actual: "predicate returned false")
      ])
  }

  @Test func andOrNotCompose() {
    let yes = RequestPattern.custom("yes") { _ in true }
    let no = RequestPattern.custom("no") { _ in false }
    #expect((yes && yes).match(request) != nil)
    #expect((yes && no).match(request) == nil)
    #expect((no || yes).match(request) != nil)
    #expect((no || no).match(request) == nil)
    #expect((!no).match(request) != nil)
    #expect((!yes).match(request) == nil)
    #expect((yes && no).description == "custom yes && custom no")
    #expect((!yes).explain(request).mismatches.first?.field == "not")
  }

  @Test func explanationScoresPartialMatches() {
    let yes = RequestPattern.custom("yes") { _ in true }
    let no = RequestPattern.custom("no") { _ in false }
    let explanation = (yes && no && yes).explain(request)
    #expect(!explanation.isMatch)
    #expect(explanation.matchedFields.count == 2)
    #expect(abs(explanation.score - 2.0 / 3.0) < 0.0001)
  }
}
