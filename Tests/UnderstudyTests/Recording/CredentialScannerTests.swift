import Foundation
import Testing

@testable import Understudy

extension RecordingTests {
  @Suite struct CredentialScannerTests {
    private let scanner = CredentialScanner()

    /// What `convert` and `redact` check before writing: the redaction's output, without running
    /// the rules again. On every fixture it finds what the full scan finds there.
    @Test(arguments: [
      "chrome-export.har", "firefox-export.har", "mitmproxy-export.har",
      "stub-edge-cases.har", "stub-redacted.har",
    ])
    func scanningRedactedOutputFindsWhatTheFullScanFinds(fixture: String) throws {
      let har = try HAR.load(contentsOf: HARFixtures.url(fixture))
      let redacted = Redaction.default.redact(har)
      #expect(scanner.scan(redacted: redacted) == scanner.scan(redacted))
    }

    @Test func scanningRedactedOutputReportsShapesAndNotWhatTheRulesWouldReplace() throws {
      let entry = HAR.Entry.sample(
        requestHeaders: [
          HAR.Header(name: "Authorization", value: "opaque"),
          HAR.Header(name: "X-Note", value: FakeSecret.gitHub),
        ],
        content: HAR.Content(
          body: Data(#"{"deploy":"\#(FakeSecret.slack)"}"#.utf8), mimeType: "application/json"))
      let findings = scanner.scan(redacted: HAR(entries: [entry]))
      #expect(findings.map(\.kind) == [.gitHubToken, .slackToken])
      #expect(
        findings.map(\.path) == [
          "log.entries[0].request.headers[1].value", "log.entries[0].response.content.text",
        ])
      #expect(scanner.scan(HAR(entries: [entry])).map(\.kind).contains(.redactionRule))
    }

    @Test(arguments: [
      (FakeSecret.bearer, CredentialKind.bearerToken),
      (FakeSecret.basic, .basicCredentials),
      (FakeSecret.jwt, .jsonWebToken),
      (FakeSecret.aws, .awsAccessKey),
      (FakeSecret.gitHub, .gitHubToken),
      ("github_pat_" + "11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", .gitHubToken),
      (FakeSecret.slack, .slackToken),
      (FakeSecret.stripe, .stripeKey),
      ("rk_live_" + "0123456789abcdef", .stripeKey),
      (FakeSecret.google, .googleAPIKey),
      (FakeSecret.gitLab, .gitLabToken),
      (FakeSecret.openAI, .openAIKey),
      ("sk-" + "abcdefghijklmnopqrstuvwx", .openAIKey),
      (FakeSecret.pemHeader + "\nMIIEow…", .privateKey),
    ])
    func eachKindIsFoundInAHeaderWithItsPath(value: String, kind: CredentialKind) throws {
      let entry = HAR.Entry.sample(requestHeaders: [
        HAR.Header(name: "Accept", value: "*/*"), HAR.Header(name: "X-Other", value: "plain"),
        HAR.Header(name: "X-Note", value: value),
      ])
      let findings = scanner.scan(HAR(entries: [entry]))
      let finding = try #require(findings.first)
      #expect(findings.count == 1)
      #expect(finding.kind == kind)
      #expect(finding.path == "log.entries[0].request.headers[2].value")
      let secret = value.split(separator: " ").last.map(String.init) ?? value
      #expect(!finding.excerpt.contains(secret))
      #expect(finding.excerpt.contains("…"))
    }

    @Test func findingsReadAsASentenceWithAMaskedExcerpt() throws {
      let finding = try #require(scanner.scan(FakeSecret.gitHub, at: "x").first)
      #expect(finding.description == "x: GitHub token (ghp_R4nd… (34 characters))")
    }

    @Test func aJWTInABearerHeaderIsReportedOnceAsAJWT() {
      let findings = scanner.scan("Bearer " + FakeSecret.jwt, at: "h")
      #expect(findings.map(\.kind) == [.jsonWebToken])
    }

    @Test func secretsAreFoundWhereverTheCassetteWouldWriteThem() throws {
      var entry = HAR.Entry.sample(
        url: "https://maps.example.com/geo?key=" + FakeSecret.google,
        postData: HAR.PostData(
          mimeType: "application/json", text: "{\"token\":\"\(FakeSecret.slack)\"}"))
      entry.request.cookies = [HAR.Cookie(name: "gh", value: FakeSecret.gitHub)]
      entry.response.content = HAR.Content(
        body: Data([0xFF, 0xFE]) + Data(FakeSecret.aws.utf8), mimeType: "application/octet-stream")
      entry.comment = "copied from " + FakeSecret.stripe
      let findings = scanner.scan(HAR(entries: [entry]))
      // The `key` parameter, the cookie and the `token` member are values the default
      // redaction replaces.
      #expect(
        Set(findings.map { "\($0.path) \($0.kind.rawValue)" }) == [
          "log.entries[0].comment stripeKey",
          "log.entries[0].request.url redactionRule",
          "log.entries[0].request.cookies[0].value redactionRule",
          "log.entries[0].request.postData.text redactionRule",
          "log.entries[0].response.content.text awsAccessKey",
        ])
      let shapesOnly = CredentialScanner(redaction: .none).scan(HAR(entries: [entry]))
      #expect(
        Set(shapesOnly.map { "\($0.path) \($0.kind.rawValue)" }) == [
          "log.entries[0].comment stripeKey",
          "log.entries[0].request.url googleAPIKey",
          "log.entries[0].request.cookies[0].value gitHubToken",
          "log.entries[0].request.postData.text slackToken",
          "log.entries[0].response.content.text awsAccessKey",
        ])
    }

    @Test func allowListedValuesAndPatternsAreNotReported() throws {
      let scanner = CredentialScanner(allowing: [
        .value(FakeSecret.stripe), try .pattern("ghp_R4nd0m[A-Za-z0-9]+"),
        .value(FakeSecret.bearer),
      ])
      let text = [FakeSecret.stripe, FakeSecret.gitHub, FakeSecret.bearer, FakeSecret.aws].joined(
        separator: " | ")
      #expect(scanner.scan(text, at: "t").map(\.kind) == [.awsAccessKey])
      #expect(throws: PatternSyntaxError.self) { try CredentialScanner.Allowance.pattern("(") }
    }

    @Test func placeholdersLeftByRedactionAreNeverReported() {
      let redacted = Redaction.default.redact(RedactionTests.leaky)
      #expect(scanner.scan(HAR(entries: [redacted])).isEmpty)
      #expect(
        scanner.scan("Bearer <redacted:authorization> and Basic <redacted:proxy>", at: "h").isEmpty)
    }

    @Test func defaultRedactionRemovesHeaderAndQueryCredentialsTheScannerFinds() {
      let entry = HAR.Entry.sample(
        url: "https://example.com/?access_token=" + FakeSecret.jwt,
        requestHeaders: [
          HAR.Header(name: "Authorization", value: FakeSecret.bearer),
          HAR.Header(name: "X-Api-Key", value: FakeSecret.openAI),
        ])
      let har = HAR(entries: [entry])
      #expect(scanner.scan(har).count == 3)
      #expect(scanner.scan(Redaction.default.redact(har)).isEmpty)
    }

    @Test(arguments: ["chrome-export.har", "mitmproxy-export.har"])
    func browserExportsHoldNoCredentialShapes(name: String) throws {
      let har = try HAR.load(contentsOf: HARFixtures.url(name))
      #expect(CredentialScanner(redaction: .none).scan(har).isEmpty)
      #expect(scanner.scan(Redaction.default.redact(har)).isEmpty)
    }

    /// The cookies these exports carry are what `redact` removes, so a scan must say so.
    @Test(arguments: [
      ("chrome-export.har", "log.entries[0].request.cookies[0].value", "<redacted:cookie>"),
      ("mitmproxy-export.har", "log.entries[0].response.cookies[0].value", "<redacted:set-cookie>"),
    ])
    func browserExportCookiesAreFindings(name: String, path: String, placeholder: String) throws {
      let findings = scanner.scan(try HAR.load(contentsOf: HARFixtures.url(name)))
      let finding = try #require(findings.first { $0.path == path })
      #expect(finding.kind == .redactionRule)
      #expect(finding.excerpt.hasPrefix(placeholder + " for "))
    }

    @Test func proseAboutCredentialsIsNotACredential() {
      let prose = """
        Use Basic authentication or a Bearer token. WWW-Authenticate: Bearer realm="api",
        Basic realm="x". The key is sk-short and AKIA is a prefix.
        """
      #expect(scanner.scan(prose, at: "p").isEmpty)
    }
  }
}
