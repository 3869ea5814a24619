import Foundation
import Testing

@testable import Understudy

/// A heredoc assigned to a credential's name (HCL's `password = <<EOT` … `EOT`): the thirteenth
/// blind attack found a passphrase of words there written, and the `<<EOT` mangled to
/// `%3Credacted:password%3E<EOT`.
@Suite struct HeredocValueTests {
  static let names = ["password", "api_key", "clientSecret", "db_pass"]

  static let layouts: [@Sendable (String, String) -> String] = [
    {
      "resource \"aws_db_instance\" \"db\" {\n  username = \"ada\"\n  \($0) = <<EOT\n\($1)\nEOT\n}\n"
    },
    { "locals {\n  \($0) = <<-EOT\n    \($1)\n    second line\n  EOT\n  region = \"eu\"\n}\n" },
    { "\($0) = <<'END_OF_SECRET'\r\n\($1)\r\nEND_OF_SECRET\r\nuser = \"ada\"\r\n" },
  ]

  @Test func aHeredocsLinesAreTheValueAndTheFileStaysValid() throws {
    var checked = 0
    for (layout, write) in Self.layouts.enumerated() {
      for (index, name) in Self.names.enumerated() {
        let secret = "koala upland walnut \(layout)\(index)"
        let body = write(name, secret)
        for type in ["text/plain", "application/octet-stream"] {
          try SpelledSecretChecks.expectHidden(
            body, mimeType: type, secrets: ["koala upland walnut"])
        }
        let (_, redacted) = redactedResponse(body, mimeType: "text/plain")
        #expect(redacted.contains("= <<"), "\(redacted)")
        #expect(!redacted.contains("%3C"), "\(redacted)")
        #expect(redacted.contains("<redacted:"), "\(redacted)")
        checked += 1
      }
    }
    #expect(checked == Self.layouts.count * Self.names.count)
  }
}
