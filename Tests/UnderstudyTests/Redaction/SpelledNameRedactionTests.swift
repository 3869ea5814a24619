import Foundation
import Testing

@testable import Understudy

/// Names and values hidden by how they are spelled, found by the held-out attack of 2026-12-06:
/// a pair's name behind `/` or `:` (`.npmrc`), names and values in HTML character references,
/// and Python's, TypeScript's and Kotlin's annotated assignments.
@Suite struct SpelledNameRedactionTests {
  /// The last word-run of a name that `/`, `:` or `@` divide is the name read.
  @Test(arguments: [
    "//registry.npmjs.org/:_authToken=", "//npm.pkg.github.com/:_password=", "db:password=",
    "@my-scope:_authToken=", "spring.datasource.password=", "redis://cache/0:token=",
    "prod:db:client_secret=",
  ])
  func aPairNameBehindSlashesOrColonsIsReadByItsLastRun(prefix: String) throws {
    let secret = plantedSecret("path-prefixed \(prefix)")
    for body in ["\(prefix)\(secret)\n", "always-auth=true\n\(prefix)\(secret)\nx=1\n"] {
      try SpelledSecretChecks.expectHidden(body, mimeType: "text/plain", secrets: [secret])
      try SpelledSecretChecks.expectHidden(
        body, mimeType: "application/octet-stream", secrets: [secret])
    }
  }

  @Test func aPathPrefixedNameThatIsNoCredentialsIsKept() {
    let body = "@my-scope:registry=https://r.test/\n//registry.npmjs.org/:email=ada@example.test\n"
    let entry = HAR.Entry.sample(
      method: "POST", postData: HAR.PostData(mimeType: "text/plain", text: body))
    #expect(Redaction.default.redact(entry).request.postData?.text == body)
  }

  /// Character references to letters and digits spell a name or a value as plainly as the
  /// letters do.
  @Test func characterReferencesSpellingANameAreRead() throws {
    let secret = plantedSecret("entity name")
    let spellings = [
      "<p>Use &#x74;oken=\(secret) now</p>", "<p>&#112;assword: \(secret)</p>",
      "<pre>&#97;&#112;&#105;&#95;&#107;&#101;&#121; = \"\(secret)\"</pre>",
      "<p>&#X61;pi_key=\(secret)&amp;x=1</p>",
    ]
    for body in spellings {
      try SpelledSecretChecks.expectHidden(body, mimeType: "text/html", secrets: [secret])
    }
  }

  @Test func aDeclaredValueSpelledInCharacterReferencesIsReplaced() throws {
    let secret = plantedSecret("entity value")
    let decimal = secret.unicodeScalars.map { "&#\($0.value);" }.joined()
    let hex = secret.unicodeScalars.map { "&#x\(String($0.value, radix: 16));" }.joined()
    for body in ["<p>\(decimal)</p>", "<p>key: \(hex) end</p>"] {
      try SpelledSecretChecks.expectHidden(
        body, mimeType: "text/html", secrets: [secret],
        redaction: .default.redactingValues(["deploy": secret]), masking: false)
    }
  }

  /// A reference to markup's own characters is no spelling of a name: the page is kept.
  @Test func referencesToMarkupCharactersAreKept() {
    let body = "<p>a &#60; b &#38; c &#x22;quoted&#x22;</p>"
    let entry = HAR.Entry.sample(
      method: "POST", postData: HAR.PostData(mimeType: "text/html", text: body))
    #expect(Redaction.default.redact(entry).request.postData?.text == body)
  }

  /// A type between the name and the `=`, then the value in quotes, over lines too.
  @Test(arguments: [
    "API_KEY: str = \"\"\"%@\"\"\"\n", "API_KEY: str = \"\"\"\n%@\n\"\"\"\n",
    "password: Final[str] = '''%@'''\n", "const apiKey: string = '%@';\n",
    "val clientSecret: String = \"%@\"\n", "token: Optional[str] = \"%@\"  # set in CI\n",
  ])
  func anAnnotatedAssignmentsValueIsReplaced(template: String) throws {
    let secret = plantedSecret("annotated \(template)")
    let body = template.replacingOccurrences(of: "%@", with: secret)
    for type in ["text/x-python", "text/plain"] {
      try SpelledSecretChecks.expectHidden(body, mimeType: type, secrets: [secret])
    }
  }
}
