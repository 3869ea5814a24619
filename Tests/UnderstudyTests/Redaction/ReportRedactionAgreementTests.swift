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
}
