import Foundation
import Testing
import Understudy

/// Query values are compared as servers decode them: `+` is a space, `%2B` a plus.
@Suite struct QueryFormDecodingTests {
  private func matches(_ pattern: RequestPattern, _ url: String) -> Bool {
    pattern.explain(InterceptedRequest(url: URL(string: url)!)).isMatch
  }

  @Test func aPlusInTheQueryIsASpace() {
    #expect(matches(.query("q", "swift testing"), "https://api.test/search?q=swift+testing"))
    #expect(matches(.query("q", "swift testing"), "https://api.test/search?q=swift%20testing"))
    #expect(!matches(.query("q", "swift+testing"), "https://api.test/search?q=swift+testing"))
  }

  @Test func anEncodedPlusIsAPlus() {
    #expect(matches(.query("tz", "+01:00"), "https://api.test/t?tz=%2B01:00"))
    #expect(!matches(.query("tz", "+01:00"), "https://api.test/t?tz=+01:00"))
  }

  @Test func containingExactlyAndTargetQueriesDecodeTheSameWay() {
    let url = "https://api.test/search?q=swift+testing&page=2"
    #expect(matches(.query(containing: ["q": "swift testing"]), url))
    #expect(
      matches(
        .query(exactly: [
          URLQueryItem(name: "page", value: "2"), URLQueryItem(name: "q", value: "swift testing"),
        ]), url))
    #expect(matches(.get("/search?q=swift+testing"), url))
    #expect(matches(.get("/search?q=swift%20testing"), url))
  }
}
