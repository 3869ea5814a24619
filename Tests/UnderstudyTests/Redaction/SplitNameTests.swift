import Foundation
import Testing

@testable import Understudy

/// A name a structure holds apart from its value, or splits over lines: YAML's explicit key,
/// a `.properties` key continued over a backslash, a protocol 0 pickle's dictionary (the
/// fourteenth blind attack found each written to the cassette, the attachment and reports).
@Suite struct SplitNameTests {
  /// Bodies as a function of the value, with their type.
  static let bodies: [(String, @Sendable (String) -> String)] = [
    ("application/yaml", { "db:\n  ? password\n  : \($0)\n  host: db.local\n" }),
    ("application/yaml", { "? api_token\n: '\($0)'  # rotated\n" }),
    ("text/x-java-properties", { "db.host=db.local\ndb.pass\\\n    word=\($0)\n" }),
    ("text/plain", { "client.sec\\\n  ret = \($0)\nretries = 3\n" }),
    (
      "text/plain",
      { "(dp0\nS'user'\np1\nS'ada'\np2\nsS'password'\np3\nS'\($0)'\np4\ns." }
    ),
    ("text/plain", { "(dp0\nVapi_key\np1\nV\($0)\np2\ns." }),
  ]

  @Test func aNameHeldApartOrSplitNamesItsValueInEveryOutput() throws {
    for (index, (mimeType, write)) in Self.bodies.enumerated() {
      let secret = "Xylophone\(1970 + index)."
      let body = write(secret)
      try SpelledSecretChecks.expectHidden(body, mimeType: mimeType, secrets: [secret])
      #expect(!LogRedaction.mask(body).contains(secret), "report: \(body)")
    }
  }

  /// Everyday keys held or split the same ways are kept byte for byte.
  @Test(arguments: [
    "db:\n  ? host\n  : db.local\n", "? password\nis asked for below\n",
    "db.ho\\\n  st=db.local\n", "message=first line\\\n  second line\n",
    "(dp0\nS'user'\np1\nS'ada'\np2\ns.", "Who? Me\n: no\n",
  ])
  func everydayKeysAreKept(body: String) {
    #expect(RedactionPlacesTests.redactedBody(body, "text/plain") == body)
    #expect(LogRedaction.mask(body) == body)
  }
}
