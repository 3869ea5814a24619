import Foundation
import Testing

@testable import Understudy

/// A credential's YAML scalar in every spelling YAML has for it: the held-out attack of
/// 2026-12-06 found block scalars after a tag or with `>`, values on the next line, anchors,
/// and quoted or plain scalars over lines written to cassettes and reports.
@Suite struct YAMLScalarRedactionTests {
  static let names = ["password", "api_key", "clientSecret", "X-Auth-Token", "db_pass"]

  /// Each spelling, as a function of the name and the secret.
  static let spellings: [(String, @Sendable (String, String) -> String)] = [
    ("literal block", { "\($0): |\n  \($1)\n  second line\nnext: 1\n" }),
    ("folded block", { "\($0): >\n  \($1)\n  more\nnext: 1\n" }),
    ("folded block, chomping", { "\($0): >-\n    \($1)\nnext: 1\n" }),
    ("tagged block", { "\($0): !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  \($1)\nnext: 1\n" }),
    ("tagged plain", { "\($0): !!str \($1)\nnext: 1\n" }),
    ("tagged quoted", { "\($0): !!str \"\($1)\"\nnext: 1\n" }),
    ("anchored plain", { "\($0): &creds \($1)\nnext: 1\n" }),
    ("anchored block", { "\($0): &creds |\n  \($1)\nnext: 1\n" }),
    ("next line", { "\($0):\n  \($1)\nnext: 1\n" }),
    ("next line, tagged", { "\($0): !!str\n  \($1)\nnext: 1\n" }),
    ("double-quoted over lines", { "\($0): \"first\n  \($1)\"\nnext: 1\n" }),
    ("single-quoted over lines", { "\($0): 'it''s\n  \($1)'\nnext: 1\n" }),
    ("plain over lines", { "\($0): first\n  \($1)\nnext: 1\n" }),
    ("nested, next line", { "db:\n  \($0):\n    \($1)\n  host: x\n" }),
    ("in a list item", { "- \($0): >\n    \($1)\n- other: 1\n" }),
  ]

  @Test(arguments: spellings.indices)
  func everySpellingOfACredentialsScalarIsReplaced(spelling: Int) throws {
    let (_, write) = Self.spellings[spelling]
    for name in Self.names {
      let secret = plantedSecret("yaml \(spelling) \(name)")
      for type in ["application/yaml", "text/plain"] {
        try SpelledSecretChecks.expectHidden(
          write(name, secret), mimeType: type, secrets: [secret])
      }
    }
  }

  /// An alias under a credential's name (`password: *dbpw`) stands for the value anchored
  /// `&dbpw` elsewhere in the document, under a name that is no credential's: that value is
  /// the credential, in every spelling an anchored value has, before the alias or after it.
  static let anchorings: [(String, @Sendable (String, String) -> String)] = [
    ("plain", { "defaults: &dbpw \($1)\ndb:\n  user: ada\n  \($0): *dbpw\n" }),
    ("quoted", { "defaults: &dbpw \"\($1)\"\ndb:\n  \($0): *dbpw # shared\n" }),
    ("single-quoted", { "x: &dbpw '\($1)'\n\($0): *dbpw\n" }),
    ("tagged", { "base: &dbpw !!str \($1)\n\($0): *dbpw\n" }),
    ("block", { "base: &dbpw |\n  \($1)\nnext: 1\n\($0): *dbpw\n" }),
    ("next line", { "base: &dbpw\n  \($1)\nnext: 1\n\($0): *dbpw\n" }),
    ("list item", { "values:\n  - &dbpw \($1)\n  - other\n\($0): *dbpw\n" }),
    ("after the alias", { "\($0): *dbpw\nlater: &dbpw \($1)\n" }),
  ]

  @Test(arguments: anchorings.indices)
  func anAliasedCredentialIsReplacedWhereItIsAnchored(anchoring: Int) throws {
    let (_, write) = Self.anchorings[anchoring]
    for name in Self.names {
      let secret = plantedSecret("yaml anchor \(anchoring) \(name)")
      for type in ["application/yaml", "text/plain"] {
        try SpelledSecretChecks.expectHidden(
          write(name, secret), mimeType: type, secrets: [secret])
      }
    }
  }

  /// The anchor and the other keys stay; the value takes the aliasing key's placeholder.
  @Test func anAnchoredValueTakesTheAliasingKeysPlaceholder() {
    let body = "defaults: &dbpw hunter2hunter2\nuser: ada\npassword: *dbpw\nport: 5432\n"
    let entry = HAR.Entry.sample(
      method: "POST", postData: HAR.PostData(mimeType: "application/yaml", text: body))
    let written = Redaction.default.redact(entry).request.postData?.text ?? ""
    #expect(written.hasPrefix("defaults: &dbpw %3Credacted:password%3E\nuser: ada\n"))
    #expect(written.hasSuffix("\nport: 5432\n"))
    // An alias under a name that is no credential's leaves its anchor alone.
    let plain = "defaults: &base hunter2hunter2\nretries: *base\n"
    let kept = HAR.Entry.sample(
      method: "POST", postData: HAR.PostData(mimeType: "application/yaml", text: plain))
    #expect(Redaction.default.redact(kept).request.postData?.text == plain)
  }

  /// A key in double quotes is read with YAML's escapes undone (`"p\x61ssword"` is
  /// `password`), as YAML reads it.
  @Test(arguments: [
    #""p\x61ssword": SECRET"#, #""p\u0061ssword": SECRET"#, #""\U00000070assword": SECRET"#,
    #""api\x5Fkey": SECRET"#, #""client\x5fsecret": "SECRET""#, #""passw\x6Frd" : SECRET"#,
  ])
  func aDoubleQuotedKeysEscapesAreUndone(line: String) throws {
    let secret = plantedSecret("yaml escaped key \(line)")
    let body = line.replacing("SECRET", with: secret) + "\nuser: ada\n"
    for type in ["application/yaml", "text/plain"] {
      try SpelledSecretChecks.expectHidden(body, mimeType: type, secrets: [secret])
    }
  }

  /// A mapping under a credential's name is no scalar: its keys are read one by one, so a
  /// username stays and the password goes.
  @Test func aMappingUnderACredentialsNameKeepsItsOtherKeys() throws {
    let secret = plantedSecret("yaml mapping")
    let body = "credentials:\n  username: ada\n  password: \(secret)\nport: 5432\n"
    try SpelledSecretChecks.expectHidden(body, mimeType: "application/yaml", secrets: [secret])
    let entry = HAR.Entry.sample(
      method: "POST", postData: HAR.PostData(mimeType: "application/yaml", text: body))
    let written = Redaction.default.redact(entry).request.postData?.text ?? ""
    #expect(written.contains("username: ada"))
    #expect(written.contains("port: 5432"))
  }

  /// A name that is no credential's keeps its block, and the lines after a credential's value
  /// that are not under its key stay.
  @Test func otherScalarsAndLaterKeysStay() {
    let body = "description: |\n  a long text\n  over lines\npassword: >\n  x\nport: 5432\n"
    let entry = HAR.Entry.sample(
      method: "POST", postData: HAR.PostData(mimeType: "application/yaml", text: body))
    let written = Redaction.default.redact(entry).request.postData?.text ?? ""
    #expect(written.contains("description: |\n  a long text\n  over lines\n"))
    #expect(written.hasSuffix("\nport: 5432\n"))
    #expect(!written.contains("  x\n"))
  }
}
