import Foundation
import Testing

@testable import Understudy

/// A near-miss report masks every value the cassette's redaction would remove from its request,
/// wherever else the report shows it: a stub's `body(containing:)` that quotes the request's
/// multipart text, XML or `.env` body prints none of it (second blind attack, 2026-12-06).
@Suite struct ReportRedactionAgreementTests {
  static let secret = "KyQQ2w0Lj8qabOYAYxIwYqAy"

  static let bodies: [(contentType: String, body: String)] = [
    (
      "multipart/form-data; boundary=----b7",
      "------b7\r\nContent-Disposition: form-data; "
        + "name=\"user[password]\"\r\n\r\n\(secret)\r\n------b7--\r\n"
    ),
    (
      "multipart/form-data; boundary=----b7",
      "------b7\r\nContent-Disposition: form-data; "
        + "name=API_KEY\r\n\r\n\(secret)\r\n------b7--\r\n"
    ),
    (
      "multipart/form-data; boundary=\"----b7\"",
      "------b7\r\nContent-Disposition: form-data; "
        + "name=\"password\"\r\n\r\n\(secret)\r\n------b7--\r\n"
    ),
    ("application/xml", "<login><user>ada</user><password>\(secret)</password></login>"),
    ("text/plain", "user=ada\nAPI_TOKEN=\(secret)\n"),
  ]

  @Test(arguments: bodies.indices)
  func aStubQuotingTheRequestBodyPrintsNoneOfItsSecrets(index: Int) {
    let (contentType, body) = Self.bodies[index]
    let registry = StubRegistry()
    registry.stub(.post("https://api.test/other") && .body(containing: body), .ok)
    registry.stub(.post("https://api.test/up") && .body(containing: Self.secret + "x"), .ok)
    let request = InterceptedRequest(
      method: .post, url: URL(string: "https://api.test/up")!,
      headers: ["Content-Type": contentType], body: Data(body.utf8))
    let report = NearMissReport(request: request, stubs: registry.stubs).description
    #expect(!report.contains(Self.secret), "\(report)")
    #expect(report.contains("Closest stubs"), "\(report)")
  }

  /// User information inside a percent-encoded URL in a query value is masked in the request's
  /// URL as the cassette redacts it there (second blind attack, P051).
  @Test func userinfoInsideAnEncodedQueryValueIsMaskedInTheURL() {
    let url =
      "http://127.0.0.1:8080/p/q?return_to=http%3A%2F%2Fsvc%3A\(Self.secret)%40127.0.0.1%2Fhome"
    #expect(!LogRedaction.mask(url: url).contains(Self.secret), "\(LogRedaction.mask(url: url))")
    let report = NearMissReport(
      request: InterceptedRequest(url: URL(string: url)!), stubs: []
    ).description
    #expect(!report.contains(Self.secret), "\(report)")
  }

  /// A tool that prints the traffic it serves (`understudy record`, `serve`) masks in each line
  /// what redaction took out of the exchanges before it: a cookie one answer set, sent back in
  /// a later request's query or path (second blind attack, P034 and P197).
  @Test func aValueAnEarlierExchangeCarriedIsMaskedInALaterLine() async throws {
    let registry = StubRegistry()
    registry.stub(
      .get("https://api.test/login"),
      .text("ok", headers: ["Set-Cookie": "auth=\(Self.secret); Path=/"]))
    registry.stub(.get("https://api.test/files/{id}"), .ok)
    let session = registry.makeSession()
    _ = try await session.data(from: URL(string: "https://api.test/login")!)
    _ = try await session.data(from: URL(string: "https://api.test/files/\(Self.secret)?s=1")!)
    var secrets: Set<String> = []
    var lines: [String] = []
    for entry in registry.journal {
      secrets.formUnion(entry.removedValues(by: CompiledRedaction(.default)))
      lines.append(LogRedaction.mask("\(entry.request)", hiding: secrets))
    }
    #expect(lines.count == 2)
    #expect(!lines.joined().contains(Self.secret), "\(lines)")
  }

  /// A stub's description (a "was never used" failure has no request to compare with) masks
  /// what the cassette would redact in the body it expects, a needle too long to show whole
  /// masked before it is cut.
  @Test(arguments: bodies.indices)
  func aStubsDescriptionMasksTheBodyItExpects(index: Int) {
    let body = Self.bodies[index].body
    // As it is, and after padding that brings it to each side of the 120 characters a
    // condition shows.
    let paddings = [0, 1, 20, 40, 90].map { String(repeating: "x", count: $0) + "\r\n" }
    for needle in [body] + paddings.map({ $0 + body }) {
      for pattern in [RequestPattern.body(containing: needle), .body(needle)] {
        #expect(!pattern.description.contains(Self.secret), "\(pattern.description)")
      }
    }
  }

  /// A name a test gives a declared value is a placeholder's name only when it is no secret
  /// itself: a `ghp_…` token passed as the name by mistake becomes a generic one.
  @Test func aDeclaredValuesNameShapedLikeASecretIsNotWritten() throws {
    let name = "ghp_" + "Zq7wX2mN9pL4kR8tV1bC6yH3jF5dS0aE1gU7"
    let value = "declared-value-7Hq2Zx9Lp4"
    let entry = HAR.Entry.sample(url: "https://api.test/files/\(value)")
    let text = try Redaction.default.redactingValues([name: value]).redact(HAR(entries: [entry]))
      .encodedText
    #expect(!text.contains(value))
    #expect(!text.contains(name), "\(text)")
  }

  /// A known value standing where the method goes is masked in the request's description.
  @Test func aKnownValueAsTheMethodIsMaskedInTheDescription() {
    let value = "KNOWNMETHODVALUEQZX"
    KnownValues.declare(["method-value": value])
    let request = InterceptedRequest(
      method: HTTPMethod(rawValue: value), url: URL(string: "https://api.test/a")!)
    #expect(!request.description.uppercased().contains(value), "\(request.description)")
  }
}
