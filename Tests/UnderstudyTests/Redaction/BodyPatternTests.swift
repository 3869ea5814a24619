import Foundation
import Testing

@testable import Understudy

/// A body pattern replaces what it matches once: never the placeholders it or another rule
/// wrote, never a match of no characters.
@Suite struct BodyPatternTests {
  private static func redacted(_ body: String, _ patterns: Redaction.BodyPattern...) -> String? {
    let entry = HAR.Entry.sample(
      content: HAR.Content(body: Data(body.utf8), mimeType: "text/plain"))
    return Redaction(bodyPatterns: patterns).redact(entry).response.content.text
  }

  @Test func aPatternNeverTakesTheLettersOfItsOwnPlaceholder() throws {
    let word = try Redaction.BodyPattern(name: "word", pattern: "[a-z]+")
    #expect(Self.redacted("alpha beta", word) == "<redacted:word> <redacted:word>")
    // Each character becomes one placeholder, not a placeholder of placeholders: before the
    // fix, each redaction round took every letter of the last round's placeholders, so two
    // characters grew past 100,000 in the four rounds the rules run.
    let any = try Redaction.BodyPattern(name: "c", pattern: ".")
    #expect(Self.redacted("ab", any) == "<redacted:c><redacted:c>")
  }

  @Test func aLaterPatternLeavesAnEarlierPlaceholderAlone() throws {
    let digits = try Redaction.BodyPattern(name: "pin", pattern: "\\d+")
    let tail = try Redaction.BodyPattern(name: "tail", pattern: "[a-z:>]+$")
    #expect(Self.redacted("pin 1234", digits, tail) == "pin <redacted:pin>")
    let around = try Redaction.BodyPattern(name: "x", pattern: "n <redacted")
    #expect(Self.redacted("pin 1234", digits, around) == "pin <redacted:pin>")
  }

  @Test func aMatchOfNoCharactersRedactsNothing() throws {
    let none = try Redaction.BodyPattern(name: "none", pattern: "x*")
    #expect(Self.redacted("abc", none) == "abc")
    let emptyGroup = try Redaction.BodyPattern(name: "group", pattern: "a(x?)b")
    #expect(Self.redacted("abc", emptyGroup) == "abc")
  }

  @Test func redactingAgainChangesNothing() throws {
    let patterns = [
      try Redaction.BodyPattern(name: "word", pattern: "\\w+"),
      try Redaction.BodyPattern(name: "gap", pattern: "\\W"),
    ]
    let redaction = Redaction(bodyPatterns: patterns)
    let entry = HAR.Entry.sample(
      content: HAR.Content(body: Data("token=abc; id 7 <b>".utf8), mimeType: "text/plain"))
    let once = redaction.redact(entry)
    #expect(redaction.redact(once) == once)
    #expect(once.response.content.text?.contains("abc") == false)
  }
}
