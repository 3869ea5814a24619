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

  /// What a pattern takes from a body is a secret wherever else it stands: a header, a
  /// `Location`, a later request's path and query, in any spelling an echo is searched in.
  @Test func whatAPatternTakesIsSearchedForElsewhere() throws {
    let value = "Rq7Zt2Wm9Kp4Xv8N"
    let pattern = try Redaction.BodyPattern(name: "ref", pattern: "ref-([A-Za-z0-9]+)")
    let first = HAR.Entry.sample(
      responseHeaders: [
        HAR.Header(name: "X-Note", value: "issued \(value)"),
        HAR.Header(name: "Location", value: "/orders/\(value)"),
      ],
      content: HAR.Content(body: Data("your ref-\(value) is ready".utf8), mimeType: "text/plain"))
    let later = HAR.Entry.sample(
      url: "https://api.example.com/orders/\(value)?again=\(Data(value.utf8).base64EncodedString())"
    )
    let text = try Redaction(bodyPatterns: [pattern]).redact(HAR(entries: [first, later]))
      .encodedText
    #expect(!text.contains(value), "\(text)")
    #expect(!text.contains(Data(value.utf8).base64EncodedString()), "\(text)")
    #expect(text.contains("<redacted:ref>") || text.contains("%3Credacted:ref%3E"), "\(text)")
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
