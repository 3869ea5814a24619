import Foundation
import Testing

@testable import Understudy

/// Drift reports say what changed in a body, not only its size.
@Suite struct BodyDifferenceTests {
  @Test func jsonBodiesListTheMembersThatChanged() {
    let recorded = Data(#"{"name":"Ada","tags":["a","b"],"updated":"2024-01-01","old":1}"#.utf8)
    let live = Data(#"{"name":"Ada","tags":["a","c"],"updated":"2024-02-01","new":true}"#.utf8)
    let text = BodyDifference.describe(recorded: recorded, live: live)
    #expect(text.hasPrefix("body (\(recorded.count) bytes recorded, \(live.count) live): "))
    #expect(text.contains(#"$.tags[1] "b" → "c""#))
    #expect(text.contains(#"$.updated "2024-01-01" → "2024-02-01""#))
    #expect(text.contains("$.old removed (was 1)"))
    #expect(text.contains("$.new added: true"))
  }

  @Test func manyJSONDifferencesAreCounted() {
    let recorded = Data("[1,2,3,4,5,6,7,8]".utf8)
    let live = Data("[9,9,9,9,9,9,9,9]".utf8)
    let text = BodyDifference.describe(recorded: recorded, live: live)
    #expect(text.contains("$[0] 1 → 9"))
    #expect(text.hasSuffix(", and 3 more"))
  }

  @Test func textBodiesShowTheFirstDifferingLine() {
    let text = BodyDifference.describe(
      recorded: Data("<html>\n<h1>Old title</h1>\n</html>".utf8),
      live: Data("<html>\n<h1>New title</h1>\n</html>".utf8))
    #expect(text.hasSuffix("line 2 <h1>Old title</h1> → <h1>New title</h1>"))
  }

  @Test func binaryBodiesGiveTheFirstDifferingOffset() {
    let text = BodyDifference.describe(
      recorded: Data([0x89, 0x50, 0xFF, 0x00]), live: Data([0x89, 0x50, 0xFE, 0x00]))
    #expect(text.hasSuffix("bytes differ from offset 2"))
  }

  @Test func aKeyThatIsNotAnIdentifierIsQuoted() {
    let text = BodyDifference.describe(
      recorded: Data(#"{"a b":1}"#.utf8), live: Data(#"{"a b":2}"#.utf8))
    #expect(text.contains(#"$["a b"] 1 → 2"#))
  }
}
