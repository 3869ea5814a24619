import Foundation
import Testing

@testable import Understudy

/// The byte searches that stand in for Foundation's on bodies answer as Foundation does, on
/// ASCII text (the needles are ASCII; Foundation's also match by Unicode equivalence, which no
/// caller wants for punctuation).
@Suite struct ByteSearchTests {
  @Test func containsBytesAnswersAsFoundationDoes() {
    var random = SplitMix(seed: 41)
    let needles: [StaticString] = ["-", "\":", "%", "</", "at $"]
    let plain: [String] = ["-", "\":", "%", "</", "at $"]
    for round in 0..<2_000 {
      let text = String(
        (0..<Int.random(in: 0...40, using: &random)).map { _ in
          "ab-\":%</t $".randomElement(using: &random)!
        })
      for (needle, spelled) in zip(needles, plain) {
        #expect(
          text.contains(bytes: needle) == (text.range(of: spelled) != nil),
          "round \(round): \(text.debugDescription) for \(spelled)")
        #expect(text.dropFirst().contains(bytes: needle) == text.dropFirst().contains(spelled))
      }
    }
  }

  /// Texts made of pieces of the needles in random case, so that whole needles, near misses
  /// and needles cut at the text's ends all come up.
  @Test func containsBytesIgnoringCaseAnswersAsFoundationDoes() {
    var random = SplitMix(seed: 42)
    let pieces = ["redacted:", "%3credacted%3a"]
    var found = 0
    for round in 0..<4_000 {
      var text = ""
      for _ in 0..<Int.random(in: 0...4, using: &random) {
        let piece = Array(pieces.randomElement(using: &random)!)
        let start = Int.random(in: 0..<piece.count, using: &random)
        let end = Int.random(in: start...piece.count, using: &random)
        text += String(
          piece[Bool.random(using: &random) ? 0..<piece.count : start..<end].map {
            Bool.random(using: &random) ? Character($0.uppercased()) : $0
          })
        if Bool.random(using: &random) {
          text += ["x", ":", "\u{1A}", "%"].randomElement(using: &random)!
        }
      }
      for needle in pieces {
        let expected = text.range(of: needle, options: .caseInsensitive) != nil
        if expected { found += 1 }
        let actual =
          needle == pieces[0]
          ? text.contains(bytesIgnoringCase: "redacted:")
          : text.contains(bytesIgnoringCase: "%3credacted%3a")
        #expect(actual == expected, "round \(round): \(text.debugDescription) for \(needle)")
      }
    }
    #expect(found > 1_000)
    #expect("x<REDACTED:token>".contains(bytesIgnoringCase: "redacted:"))
    #expect("%3CRedacted%3Aname%3E".contains(bytesIgnoringCase: "%3credacted%3a"))
    #expect(!"redacted\u{1A}".contains(bytesIgnoringCase: "redacted:"))
  }
}
