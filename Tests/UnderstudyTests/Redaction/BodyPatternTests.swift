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

  /// A pattern describes a value wherever it stands, so a match that stands only in a header
  /// (sent in a request, answered in a response, in a `Location`) is taken there too; the headers
  /// that frame a message are not the user's data, and a pattern of digits leaves their lengths.
  @Test func aPatternReadsHeadersButNotTheFramingOnes() throws {
    let pattern = try Redaction.BodyPattern(name: "ref", pattern: "ref-[A-Za-z0-9]{12,}")
    let digits = try Redaction.BodyPattern(name: "digits", pattern: "[0-9]{2,}")
    let entry = HAR.Entry.sample(
      url: "https://api.example.com/orders",
      requestHeaders: [HAR.Header(name: "X-Order-Ref", value: "ref-Qw3Ez7Rt9Yu2")],
      responseHeaders: [
        HAR.Header(name: "X-Next", value: "use ref-Kp4Xv8NmZ2Lw next"),
        HAR.Header(name: "Location", value: "/orders/ref-Hs6Jd1Fg5Ka8"),
        HAR.Header(name: "Content-Length", value: "42"),
        HAR.Header(name: "Content-Type", value: "text/plain; v=20"),
        HAR.Header(name: "X-Count", value: "37"),
      ],
      content: HAR.Content(body: Data("nothing here".utf8), mimeType: "text/plain"))
    let text = try Redaction(bodyPatterns: [pattern, digits]).redact(HAR(entries: [entry]))
      .encodedText
    for value in ["Qw3Ez7Rt9Yu2", "Kp4Xv8NmZ2Lw", "Hs6Jd1Fg5Ka8"] {
      #expect(!text.contains(value), "\(value) in \(text)")
    }
    let redacted = Redaction(bodyPatterns: [pattern, digits]).redact(entry)
    #expect(redacted.response.httpHeaders["Content-Length"] == "42")
    #expect(redacted.response.httpHeaders["Content-Type"] == "text/plain; v=20")
    #expect(redacted.response.httpHeaders["X-Count"] == "<redacted:digits>")
    // Replay compares a request as redaction would write it.
    let request = InterceptedRequest(
      method: .get, url: try #require(URL(string: "https://api.example.com/orders")),
      headers: HTTPHeaders(["X-Order-Ref": "ref-Qw3Ez7Rt9Yu2"]), body: nil)
    #expect(CompiledRedaction(Redaction(bodyPatterns: [pattern])).mayChange(request))
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
