import Foundation
import Testing

@testable import Understudy

/// Text an error or a report cuts is never cut inside a token (held-out attack of 2026-12-06:
/// a malformed cassette's error quoted the first characters of a URL's secret path segment).
@Suite struct CutTextMaskingTests {
  @Test func aMalformedCassettesErrorShowsNoPartOfAToken() throws {
    let secret = "Zq7SecretValue93xQ"
    for url in ["https://h.test/f/\(secret)", "http://a.test/\(secret)/x", "//h/\(secret)"] {
      let json = #"{"log": {"entries": [{"request": {"url": \#(url)}}]}}"#
      var problem = ""
      do {
        _ = try JSONNode.parse(Array(json.utf8), strict: true)
      } catch {
        problem = error.problem
      }
      #expect(!problem.isEmpty)
      #expect(!problem.contains("Zq7"), "\(problem)")
    }
  }

  /// Plain words are still cut where the limit falls; a token is left out whole.
  @Test func clippingLeavesOutATokenWholeAndCutsWords() {
    #expect("hello wonderful world".clipped(to: 10) == "hello won…")
    let token = "see https://h.test/files/Zq7SecretValue93xQ now"
    let clipped = token.clipped(to: 30)
    #expect(clipped == "see https://h.test/files/…")
  }
}
