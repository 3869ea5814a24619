import Foundation
import Testing

@testable import Understudy

extension RecordingTests {
  /// The scanner and the redactor share one rule set: every value redaction replaces is a
  /// finding, and nothing redaction leaves alone is reported by name.
  @Suite struct CredentialScannerRuleTests {
    private let scanner = CredentialScanner()
    private static let plain = "plain-value-7"

    /// Each default header name, as written and in other cases, is reported exactly when the
    /// redactor replaces it.
    private static let headerSpellings: [String] = Redaction.defaultHeaderNames.flatMap {
      [$0, $0.lowercased(), $0.uppercased()]
    }

    @Test(arguments: headerSpellings)
    func everyHeaderTheRedactorReplacesIsAFinding(name: String) throws {
      let entry = HAR.Entry.sample(requestHeaders: [
        HAR.Header(name: "Accept", value: "*/*"), HAR.Header(name: name, value: Self.plain),
      ])
      try expectAgreement(entry, at: "log.entries[0].request.headers[1].value")
    }

    @Test(arguments: Redaction.defaultQueryParameterNames)
    func everyQueryParameterTheRedactorReplacesIsAFinding(name: String) throws {
      var entry = HAR.Entry.sample(
        url: "https://api.example.com/items?page=2&\(name)=\(Self.plain)")
      entry.request.queryString = [
        HAR.NameValue(name: "page", value: "2"),
        HAR.NameValue(name: name, value: Self.plain),
      ]
      try expectAgreement(entry, at: "log.entries[0].request.url")
      try expectAgreement(entry, at: "log.entries[0].request.queryString[1].value")
    }

    @Test(arguments: Redaction.defaultJSONPaths.map(\.name))
    func everyJSONMemberTheRedactorReplacesIsAFinding(member: String) throws {
      let entry = HAR.Entry.sample(
        content: HAR.Content(
          body: Data(#"{"id": 7, "auth": {"\#(member)": "\#(Self.plain)"}}"#.utf8),
          mimeType: "application/json"))
      try expectAgreement(entry, at: "log.entries[0].response.content.text")
    }

    /// Names the rules do not know are not findings, and a value redaction leaves is only
    /// reported for its shape.
    @Test(arguments: ["X-Request-Id", "Accept", "If-None-Match", "User-Agent"])
    func headersTheRedactorLeavesAreNotFindings(name: String) {
      let entry = HAR.Entry.sample(requestHeaders: [HAR.Header(name: name, value: Self.plain)])
      #expect(Redaction.default.redact(entry) == entry)
      #expect(scanner.scan(HAR(entries: [entry])).isEmpty)
    }

    /// Rules added to the redaction are the scanner's rules too.
    @Test func rulesAddedToTheRedactionAreFindings() throws {
      let redaction = try Redaction.default.redactingHeaders("X-Shop-Ref")
        .redactingQueryParameters("ticket").redactingJSON(Redaction.JSONPath("$.user.ssn"))
        .redactingBodies(Redaction.BodyPattern(name: "pin", pattern: "PIN ([0-9]+)"))
      let entry = HAR.Entry.sample(
        url: "https://api.example.com/?ticket=T-1",
        requestHeaders: [HAR.Header(name: "X-Shop-Ref", value: "s1")],
        content: HAR.Content(
          body: Data(#"{"user": {"ssn": "078-05-1120"}, "note": "PIN 4321"}"#.utf8),
          mimeType: "application/json"))
      #expect(CredentialScanner(redaction: .default).scan(HAR(entries: [entry])).isEmpty)
      let findings = CredentialScanner(redaction: redaction).scan(HAR(entries: [entry]))
      #expect(
        findings.map(\.description) == [
          "log.entries[0].request.headers[0].value: value redaction replaces (<redacted:x-shop-ref> for 2 characters)",
          "log.entries[0].request.url: value redaction replaces (%3Credacted:ticket%3E for 3 characters)",
          "log.entries[0].response.content.text: value redaction replaces (<redacted:user.ssn> for 11 characters)",
          "log.entries[0].response.content.text: value redaction replaces (<redacted:pin> for 4 characters)",
        ])
    }

    @Test func findingsNeverHoldTheValueRedactionWouldRemove() {
      let secret = "correct-horse-battery"
      let entry = HAR.Entry.sample(
        url: "https://api.example.com/?password=\(secret)",
        requestHeaders: [HAR.Header(name: "Cookie", value: "sid=\(secret)")])
      let findings = scanner.scan(HAR(entries: [entry]))
      #expect(findings.count == 2)
      #expect(!findings.map(\.description).joined().contains("horse"))
    }

    @Test func valuesAlreadyRedactedAreNotFindings() {
      let entry = HAR.Entry.sample(
        url: "https://api.example.com/?token=t0&password=%3Credacted:password%3E",
        requestHeaders: [HAR.Header(name: "Authorization", value: "<redacted:authorization>")])
      let findings = scanner.scan(HAR(entries: [entry]))
      #expect(findings.map(\.excerpt) == ["%3Credacted:token%3E for 2 characters"])
    }

    @Test func allowedValuesAreNotFindingsEvenWhenARuleNamesThem() {
      let entry = HAR.Entry.sample(requestHeaders: [HAR.Header(name: "X-API-Key", value: "fixture")]
      )
      #expect(CredentialScanner(allowing: [.value("fixture")]).scan(HAR(entries: [entry])).isEmpty)
      #expect(scanner.scan(HAR(entries: [entry])).count == 1)
    }

    /// The finding is at `path`, and it is there exactly when the redactor changes the entry.
    private func expectAgreement(
      _ entry: HAR.Entry, at path: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
      let replaces = Redaction.default.redact(entry) != entry
      #expect(replaces, "the default redaction should replace this", sourceLocation: sourceLocation)
      let findings = scanner.scan(HAR(entries: [entry])).filter { $0.path == path }
      guard let finding = findings.first else {
        Issue.record("no finding at \(path)", sourceLocation: sourceLocation)
        return
      }
      #expect(finding.kind == CredentialKind.redactionRule, sourceLocation: sourceLocation)
      #expect(!finding.description.contains(Self.plain), sourceLocation: sourceLocation)
    }
  }
}
