import Foundation
import Testing

@testable import Understudy

/// A value holding quotes, `<`, `>` or `&`, written by a page with those as numeric character
/// references (decimal, hex, either case of `x` and of the digits, leading zeros) or named ones:
/// a cassette replaces it and a report masks it, whether the rules found it (a password), a
/// test declared it (a known value) or a body pattern names it. One reading decodes them all
/// (``HTMLCharacterReferences/mappedReading(_:)``), so no spelling of a reference is listed.
@Suite struct CharacterReferenceEchoTests {
  private static let secrets = [#"Lp4B"Ns6'Yc3Hd8"#, "Kq7v&<Xm2R>zT9w"]

  /// Each way to write a reference to `byte`.
  private static let styles: [(String, @Sendable (UInt8) -> String)] = [
    ("decimal", { "&#\($0);" }),
    ("decimal, zeros", { "&#00\($0);" }),
    ("hex", { "&#x" + String($0, radix: 16) + ";" }),
    ("hex, capital X", { "&#X" + String($0, radix: 16) + ";" }),
    ("hex, upper digits", { "&#x" + String($0, radix: 16, uppercase: true) + ";" }),
    ("hex, no semicolon", { "&#x" + String($0, radix: 16) }),
    (
      "named",
      {
        ["\"": "&quot;", "'": "&apos;", "&": "&amp;", "<": "&lt;", ">": "&gt;"][
          Character(Unicode.Scalar($0))]!
      }
    ),
  ]

  private static func referenced(_ secret: String, style: Int) -> String {
    let special = Set("\"'&<>".utf8)
    return String(
      decoding: secret.utf8.flatMap {
        special.contains($0) ? Array(styles[style].1($0).utf8) : [$0]
      }, as: UTF8.self)
  }

  private static let cases = secrets.flatMap { secret in styles.indices.map { (secret, $0) } }

  @Test(arguments: cases)
  func aPasswordEchoedInCharacterReferencesIsReplacedAndMasked(secret: String, style: Int) throws {
    let echoed = Self.referenced(secret, style: style)
    let form =
      "user=ada&password=" + secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    let page = "<html><p>your password: \(echoed) (keep it)</p></html>"
    let entry = HAR.Entry.sample(
      method: "POST",
      postData: HAR.PostData(mimeType: "application/x-www-form-urlencoded", text: form),
      content: HAR.Content(body: Data(page.utf8), mimeType: "text/html"))
    let redacted = Redaction.default.redact(HAR(entries: [entry]))
    let body = try #require(redacted.log.entries[0].response.content.text)
    #expect(!body.contains(echoed), "\(Self.styles[style].0): \(body)")
    #expect(body.contains("redacted:password"), "\(body)")
    let masked = LogRedaction.mask(page, hiding: [secret])
    #expect(!masked.contains(echoed), "\(Self.styles[style].0): \(masked)")
  }

  @Test(arguments: cases)
  func aDeclaredValueInCharacterReferencesIsReplacedAndMasked(secret: String, style: Int) throws {
    let echoed = Self.referenced(secret, style: style)
    let page = "<html><p>deploy key \(echoed) here</p></html>"
    let entry = HAR.Entry.sample(
      content: HAR.Content(body: Data(page.utf8), mimeType: "text/html"))
    let redaction = Redaction.default.redactingValues(["deploy": secret])
    let body = try #require(
      redaction.redact(HAR(entries: [entry])).log.entries[0].response.content.text)
    #expect(!body.contains(echoed), "\(Self.styles[style].0): \(body)")
    #expect(body.contains("<redacted:deploy>"), "\(body)")
    // A report hides it as the known values of a file hide it.
    let masked = LogRedaction.mask(page, hiding: [secret])
    #expect(!masked.contains(echoed), "\(Self.styles[style].0): \(masked)")
  }

  /// A body pattern naming the quotes around a value finds it where the page wrote them as
  /// references, in the cassette and in a report that names the pattern.
  @Test(arguments: Self.styles.indices)
  func aBodyPatternWithQuotesFindsTheirReferences(style: Int) throws {
    let pattern = try Redaction.BodyPattern(
      name: "quoted-key", pattern: #"('ref [0-9]{4} [a-z]+')"#)
    let value = "'ref 4417 blue'"
    let echoed = Self.referenced(value, style: style)
    let page = "<p>motto: \(echoed)</p>"
    let entry = HAR.Entry.sample(
      content: HAR.Content(body: Data(page.utf8), mimeType: "text/html"))
    let redaction = Redaction.default.redactingBodies(pattern)
    let body = try #require(
      redaction.redact(HAR(entries: [entry])).log.entries[0].response.content.text)
    #expect(!body.contains("4417"), "\(Self.styles[style].0): \(body)")
    #expect(body.contains("<redacted:quoted-key>"), "\(body)")
  }
}
