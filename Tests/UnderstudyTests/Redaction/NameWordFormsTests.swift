import Foundation
import Testing

@testable import Understudy

/// Forms of a credential's name the judgement reads as the word itself (the thirteenth blind
/// attack): the plural of any credential word (`signatures`, `passphrases`, `jwts`, `pins`), a
/// spelling word run on (`pwdhash`), a qualifier that starts with its number (`X-Token-2FA`),
/// and a word written without its diacritics or with them (`parolă`, `contrasena`).
@Suite struct NameWordFormsTests {
  /// Names in each form, with the word each is a form of.
  static let names = [
    "signatures", "passphrases", "jwts", "pins", "sessions", "hmacs", "apiSecrets", "db_pwds",
    "pwdhash", "passhash", "X-Token-2FA", "pin_3ds", "secret2fa", "Token2FA", "parolă",
    "Parolă", "contrasena", "lösenord", "losenord", "jelszó", "şifre", "κωδικος", "パスワード",
  ]

  /// Each name as a JSON member (its value alone and in a list), a form's field, a header and
  /// (in ASCII) a YAML key: the value is replaced in the cassette and masked in a report, a near-miss
  /// report's header and a traffic attachment.
  @Test func everyFormIsACredentialsNameInEveryPlaceAndOutput() throws {
    for (index, name) in Self.names.enumerated() {
      let secret = "Driftwood\(1900 + index)*"
      // Text names its values with ASCII names (`[A-Za-z_][\w.-]*`); JSON and headers spell
      // any name.
      let isASCII = name.utf8.allSatisfy { $0 < 0x80 }
      #expect(CredentialWords.isCredential(name, at: .jsonMember), "\(name)")
      #expect(CredentialWords.isCredential(name, at: .header), "\(name)")
      for (body, type) in [
        (#"{"user": "ada", "\#(name)": "\#(secret)"}"#, "application/json"),
        (#"{"user": "ada", "\#(name)": ["\#(secret)"]}"#, "application/json"),
        ("user=ada&\(name)=\(secret)", "application/x-www-form-urlencoded"),
      ] + (isASCII ? [("user: ada\n\(name): \(secret)\n", "application/yaml")] : []) {
        try SpelledSecretChecks.expectHidden(body, mimeType: type, secrets: [secret])
      }
      let entry = HAR.Entry.sample(requestHeaders: [HAR.Header(name: name, value: secret)])
      let text = try Redaction.default.redact(HAR(entries: [entry])).encodedText
      #expect(!text.contains(secret), "\(name) header")
      #expect(!LogRedaction.mask(header: name, value: secret).contains(secret), "\(name) mask")
      if isASCII {
        #expect(!LogRedaction.mask("\(name): \(secret)\n").contains(secret), "\(name) report")
      }
    }
  }

  /// Everyday plurals and words stay everyday: a road's `signs`, a pass's `passes`, a map's
  /// `hairpins`, `spins`, `sides` (not `sid`s), `status`, and a number-led word that is not a
  /// qualifier of a credential (`version_2nd`).
  @Test func everydayWordsInTheseFormsAreKept() {
    for name in [
      "signs", "passes", "seeds", "pats", "hairpins", "spins", "sides", "status", "tokens",
      "cookies", "keys", "max_tokens", "compasses", "bypasses", "obsessions", "version_2nd",
      "design2fa", "parolable",
    ] {
      #expect(!CredentialWords.isCredential(name, at: .jsonMember), "\(name)")
    }
  }
}
