import Foundation
import Testing

@testable import Understudy

/// A name, a separator and a value as languages print them in text (the thirteenth blind
/// attack): an object dump's nested line, Java's `Map.toString()`, PHP's `var_dump` and
/// `print_r`, a Python bytes dict and Markdown code spans.
@Suite struct PrintedPairShapesTests {
  static let names = ["password", "api_key", "clientSecret", "db.password", "X-Auth-Token"]

  /// Each printed form, as a function of the name and the value.
  static let shapes: [(String, @Sendable (String, String) -> String)] = [
    (
      "object dump, nested",
      {
        "AxiosError: Request failed\n  config: {\n    auth: { username: 'ada', \($0): '\($1)' },\n    url: '/x'\n  }\n"
      }
    ),
    ("object literal", { "config: { username: 'ada', \($0): '\($1)' }\n" }),
    ("Map.toString, first", { "params={\($0)=\($1), user=ada}\n" }),
    ("Properties.toString", { "Loaded config {\($0)=\($1), db.user=ada}\n" }),
    (
      "var_dump",
      {
        "<pre>array(2) {\n  [\"user\"]=>\n  string(3) \"ada\"\n  [\"\($0)\"]=>\n  string(\($1.utf8.count)) \"\($1)\"\n}\n</pre>"
      }
    ),
    ("print_r", { "Array\n(\n    [user] => ada\n    [\($0)] => \($1)\n)\n" }),
    ("Python bytes", { "{b'user': b'ada', b'\($0)': b'\($1)'}\n" }),
    ("Markdown code spans", { "## Staging\n\n- `user`: `ada`\n- `\($0)`: `\($1)`\n" }),
  ]

  @Test func everyPrintedFormOfANamedValueIsHidden() throws {
    var checked = 0
    for (index, (label, write)) in Self.shapes.enumerated() {
      for (nameIndex, name) in Self.names.enumerated() {
        let secret = "Foxglove\(1900 + index * 10 + nameIndex)."
        let body = write(name, secret)
        for type in ["text/plain", "text/html"] {
          try SpelledSecretChecks.expectHidden(body, mimeType: type, secrets: [secret])
        }
        #expect(!LogRedaction.mask(body).contains(secret), "\(label): report \(body)")
        checked += 1
      }
    }
    #expect(checked == Self.shapes.count * Self.names.count)
  }
}
