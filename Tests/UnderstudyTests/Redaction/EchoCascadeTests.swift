import Foundation
import Testing

@testable import Understudy

/// A declared value that spells a credential's name (a test's secret is `api_key`, or
/// `other_token`): replacing it first turned the name into a placeholder, and a name holding a
/// placeholder is never read as a credential's, so the value after it was written
/// (held-out attack of 2026-12-06). A value that spelled `api_key` itself was just as bad.
@Suite struct EchoCascadeTests {
  static let bodies: [(String, String, @Sendable (String, String) -> String)] = [
    ("pair in text", "text/plain", { "user=ada \($0)=\($1) done" }),
    ("form", "application/x-www-form-urlencoded", { "a=1&\($0)=\($1)" }),
    ("JSON member", "application/json", { #"{"\#($0)": "\#($1)"}"# }),
    ("YAML", "application/yaml", { "\($0): \($1)\n" }),
    ("assignment", "text/plain", { "\($0) = \"\($1)\"\n" }),
    ("XML", "application/xml", { "<c><\($0)>\($1)</\($0)></c>" }),
  ]

  @Test(arguments: bodies.indices)
  func aDeclaredValueThatSpellsANameLeavesNoValueBehind(body index: Int) throws {
    let (_, type, write) = Self.bodies[index]
    // Names no other test uses: a declared value is kept out of every placeholder name in the
    // process (``KnownValues/keepOutOfNames(_:)``), so `api_key` itself would change theirs.
    for name in ["cascade_api_key", "cascade_other_token", "cascade_db_password"] {
      let secret = plantedSecret("cascade \(index) \(name)")
      try SpelledSecretChecks.expectHidden(
        write(name, secret), mimeType: type, secrets: [secret, name],
        redaction: .default.redactingValues(["spelled": name]), masking: false)
    }
  }

  /// The same through a header and a query, where the value is the header's or the
  /// parameter's name.
  @Test func aDeclaredValueThatIsAHeadersOrAParametersName() throws {
    let secret = plantedSecret("cascade header")
    var entry = HAR.Entry.sample(
      method: "GET", url: "https://api.test/x?session_token=\(secret)&page=2")
    entry.request.headers.append(.init(name: "X-Note", value: "cascade_session_token=\(secret)"))
    let redaction = Redaction.default.redactingValues(["spelled": "cascade_session_token"])
    let text = try HAR(entries: [redaction.redact(entry)]).encodedText
    #expect(!text.contains(secret))
    #expect(!text.contains("cascade_session_token"))
  }
}
