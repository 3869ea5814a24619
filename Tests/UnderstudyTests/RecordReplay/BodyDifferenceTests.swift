import Foundation
import Testing

@testable import Understudy

/// Drift reports say what changed in a body, not only its size.
@Suite struct BodyDifferenceTests {
  @Test func jsonBodiesNameTheFirstValueThatChangedByItsPath() {
    let recorded = Data(#"{"name":"Ada","tags":["a","b"],"updated":"2024-01-01"}"#.utf8)
    let live = Data(#"{"name":"Ada","tags":["a","c"],"updated":"2024-02-01"}"#.utf8)
    let text = BodyDifference.describe(recorded: recorded, live: live)
    #expect(
      text
        == "body (\(recorded.count) bytes recorded, \(live.count) live), first difference at "
        + #"$.tags[1]: expected "b", got "c""#)
  }

  @Test func aMemberTheServerNoLongerSendsIsNamed() {
    let text = BodyDifference.describe(
      recorded: Data(#"{"id":1,"legacy":true}"#.utf8), live: Data(#"{"id":1}"#.utf8))
    #expect(text.hasSuffix(#"first difference at $: missing key "legacy""#))
  }

  @Test func textBodiesShowTheFirstDifferingLine() {
    let text = BodyDifference.describe(
      recorded: Data("<html>\n<h1>Old title</h1>\n</html>".utf8),
      live: Data("<html>\n<h1>New title</h1>\n</html>".utf8))
    #expect(
      text.hasSuffix(
        #"first difference at line 2: expected "<h1>Old title</h1>", got "<h1>New title</h1>""#))
  }

  @Test func aTextBodyThatEndsEarlierSaysSo() {
    let text = BodyDifference.describe(
      recorded: Data("a\nb\nc".utf8), live: Data("a\nb".utf8))
    #expect(text.hasSuffix(#"first difference at line 3: expected "c", got no line"#))
  }

  @Test func binaryBodiesGiveTheFirstDifferingByte() {
    let text = BodyDifference.describe(
      recorded: Data([0x89, 0x50, 0xFF, 0x00]), live: Data([0x89, 0x50, 0xFE, 0x00]))
    #expect(text.hasSuffix("first difference at byte 2"))
  }
}
