import Foundation
import Testing

@testable import Understudy

extension RecordingTests {
  /// Each credential shape the scanner knows, and values that look almost like one.
  @Suite struct CredentialShapeTests {
    private let scanner = CredentialScanner(redaction: .none)

    private static func base64URL(_ text: String) -> String {
      Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
    private static let awsSecret = "wJalrXUtnFEMI" + "/K7MDENG/bPxRfiCYEXAMPLEKEY"

    private static let shapes: [(String, CredentialKind)] = [
      ("AKIA" + "IOSFODNN7EXAMPLE", CredentialKind.awsAccessKey),
      ("ASIA" + "Y34FZKBOKMUTVV7A", .awsAccessKey),
      ("aws_secret_access_key=" + awsSecret, .awsSecretKey),
      (#"{"AwsSecretKey": ""# + awsSecret + #""}"#, .awsSecretKey),
      ("npm" + "_" + "abcdefghijklmnopqrstuvwxyz0123456789", .npmToken),
      ("gho" + "_" + "16C7e42F292c6912E7710c838347Ae178B4a", .gitHubToken),
      ("github_pat" + "_11ABCDEFG0123456789_abcdefghijklmnop", .gitHubToken),
      ("xoxp" + "-1234567890-0987654321-abcdef", .slackToken),
      ("sk_live" + "_4eC39HqLyjWDarjtT1zdp7dc", .stripeKey),
      ("rk_live" + "_4eC39HqLyjWDarjtT1zdp7dc", .stripeKey),
      ("AIza" + "SyA-abcdefghijklmnopqrstuvwxyz01234", .googleAPIKey),
      ("Token " + "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b", .tokenCredentials),
      ("Basic " + Data("user:pa55".utf8).base64EncodedString(), .basicCredentials),
      ("bearer " + "abcdefghijklmnop.qrst", .bearerToken),
      (base64URL(#"{"alg":"HS256"}"#) + "." + base64URL(#"{"sub":"1"}"#) + ".c2ln", .jsonWebToken),
      // A header with white space after the brace starts `ewog`, not `eyJ`.
      (
        base64URL("{\n  \"alg\": \"RS256\"\n}") + "." + base64URL("opaque payload") + ".",
        .jsonWebToken
      ),
      ("-----BEGIN " + "OPENSSH PRIVATE KEY-----\nb3Blbn", .privateKey),
      ("-----BEGIN " + "PRIVATE KEY-----", .privateKey),
      ("see https://ada:" + "hunter22@db.example.com/x", .urlUserinfo),
      ("git+https://" + "0123456789abcdef0123@github.com/o/r.git", .urlUserinfo),
      // Every first two letters a word-started shape can have, in each case the scan accepts.
      ("glpat" + "-xY12zW34vU56tS78rQ90", .gitLabToken),
      ("sk-proj" + "-abcdefghijklmnopqrstuvwx", .openAIKey),
      ("BEARER " + "abcdefghijklmnop.qrst", .bearerToken),
      ("bAsIc " + Data("user:pa55".utf8).base64EncodedString(), .basicCredentials),
      ("tOKEN " + "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b", .tokenCredentials),
      // No prefix the scanner lists, but a prefix and 24 random characters after a word.
      ("sk_prod" + "_4eC39HqLyjWDarjtT1zdp7dc", .vendorToken),
    ]

    private static let nearMisses: [String] = [
      "AKIA" + "IOSFODNN7EXAMPL",  // 15 characters after the prefix
      "AKIA" + "IOSFODNN7EXAMPLEX",  // 17
      "AKIA" + "IOSFODNN7EXAMPLEabc",  // run into lower-case
      "XAKIA" + "IOSFODNN7EXAMPLE",  // inside a word
      "client_secret=" + String(repeating: "0a1b2c3d4e", count: 4),  // hex, one case
      "build id " + awsSecret,  // no aws or secret nearby
      "npm_config_cache", "npm" + "_" + "short123",
      "ghp" + "_" + "short", "github_pat" + "_x",
      "xoxq" + "-1234567890-abcdef", "xoxb" + "-123",
      "sk_live" + "_abc",
      "AIza" + "SyA-abcdefghijklmnopqrstuvwxyz0123",  // 34 after the prefix
      "Token authentication is required", "token " + "abcdefghijklmnopqr",
      "Basic plan", "Basic " + Data("no colon here".utf8).base64EncodedString(),
      "Bearer realm=\"api\"", "bearer short",
      "eyes.open.now", "eyJ" + "notjson.payload.sig",
      "-----BEGIN " + "PUBLIC KEY-----", "-----BEGIN " + "CERTIFICATE-----",
      "https://example.com:8443/path?q=a@b", "https://ada@example.com", "ssh://git@github.com",
      "https://%3Credacted:userinfo%3E@example.com",
      "mail ada@example.com: fine",
    ]

    @Test(arguments: shapes)
    func eachShapeIsFound(text: String, kind: CredentialKind) throws {
      let findings = scanner.scan(text, at: "t")
      #expect(findings.map(\.kind) == [kind])
      let finding = try #require(findings.first)
      #expect(finding.excerpt.contains("…"))
      #expect(finding.excerpt.hasSuffix(" characters)"))
    }

    @Test(arguments: nearMisses)
    func nearMissesAreNotFound(text: String) {
      #expect(scanner.scan(text, at: "t").isEmpty, "\(text)")
    }

    @Test func anAWSSecretKeyIsFoundByItsHeaderName() {
      let entry = HAR.Entry.sample(requestHeaders: [
        HAR.Header(name: "X-Aws-Secret", value: Self.awsSecret),
        // Not alone in its value: alone, 40 such characters are a key whatever the name.
        HAR.Header(name: "X-Build", value: "build \(Self.awsSecret)"),
      ])
      let findings = scanner.scan(HAR(entries: [entry]))
      #expect(findings.map(\.path) == ["log.entries[0].request.headers[0].value"])
      #expect(findings.map(\.kind) == [.awsSecretKey])
    }

    /// The words that let 40 characters of base64 count as an AWS secret key are looked for
    /// eight positions at a time: each is found at every offset within a word, in any case,
    /// after look-alikes (`use`, `aw`) that only start one, and up to the end of the text.
    @Test func theWordsBeforeAnAWSSecretKeyAreFoundAtEveryOffset() {
      for padding in 0..<17 {
        let filler = String("use the row user sealed data ".prefix(padding))
        for keyword in ["aws", "AWS", "aWs", "secret", "SECRET", "Secret"] {
          let text = filler + keyword + "=" + Self.awsSecret
          #expect(scanner.scan(text, at: "t").map(\.kind) == [.awsSecretKey], "\(text)")
          #expect(
            CredentialShape.namesAWSSecret(filler + keyword), "\(filler + keyword)")
        }
        for nearMiss in ["awx", "a ws", "secre", "sekret", "se cret"] {
          let text = filler + nearMiss + "=" + Self.awsSecret
          #expect(scanner.scan(text, at: "t").isEmpty, "\(text)")
          #expect(!CredentialShape.namesAWSSecret(filler + nearMiss), "\(filler + nearMiss)")
        }
      }
    }

    @Test func placeholdersInsideTextAreSkipped() {
      #expect(
        scanner.scan("Token <redacted:authorization> and Token %3Credacted:x%3E", at: "t").isEmpty)
      #expect(scanner.scan("<redacted:ghp_abcdefghijklmnopqrstuvwxyz>", at: "t").isEmpty)
      #expect(scanner.scan("<REDACTED:ghp_abcdefghijklmnopqrstuvwxyz>", at: "t").isEmpty)
      #expect(scanner.scan("%3cREDACTED:ghp_abcdefghijklmnopqrstuvwxyz%3e", at: "t").isEmpty)
    }

    /// Log masking cuts out exactly the secret, after any non-ASCII text before it.
    @Test func secretRangesAreTheSecretsWithoutTheirLabels() {
      let text = "café ☕️ Authorization: Bearer abcdefghijklmnop, key " + FakeSecret.aws
      let secrets = CredentialScanner.secretRanges(in: text).map { String(text[$0]) }
      #expect(secrets == ["abcdefghijklmnop", "IOSFODNN7EXAMPLE"])
    }

    @Test func shapesInALargeBodyAreFoundWithTheirOffsetsIntact() {
      let filler = String(repeating: "Basic plan, the bearer of this token; ", count: 20_000)
      let text = filler + "ghp" + "_" + String(repeating: "Ab1", count: 12) + " " + filler
      #expect(scanner.scan(text, at: "t").map(\.kind) == [.gitHubToken])
    }
  }
}
