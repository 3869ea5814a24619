import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Spellings of a named secret that an audit (2026-11-27) found reaching a written cassette or
/// an attachment. Each test greps the whole encoded document, not the one field it planted in.
@Suite struct RedactionSpellingsTests {
  @Test func aCDATASectionInACredentialElementIsRedactedAndSoAreItsEchoes() throws {
    let key = plantedSecret("cdata")
    let entry = HAR.Entry.sample(
      responseHeaders: [HAR.Header(name: "X-Echo", value: key)],
      content: HAR.Content(
        body: Data("<r><apiKey><![CDATA[\(key)]]></apiKey><n>1</n></r>".utf8),
        mimeType: "application/xml"))
    let redacted = Redaction.default.redact(HAR(entries: [entry]))
    let text = try redacted.encodedText
    #expect(!text.contains(key))
    #expect(text.contains("<apiKey>%3Credacted:apiKey%3E</apiKey><n>1</n>"))
    #expect(try Redaction.default.redact(redacted).encodedText == text)
  }

  @Test func anEchoOfAQueryValueHoldingAQuoteIsReplacedWhole() throws {
    let token = "ab'" + plantedSecret("quote")
    // As a server that echoes its query string answers: the pairs inside a JSON string, where
    // the pair rule for URLs in text stops at the `'` an HTML attribute would end at.
    let entry = HAR.Entry.sample(
      url: "https://api.test/q?page=1&token=\(token)&x=1",
      content: HAR.Content(
        body: Data(#"{"query":"page=1&token=\#(token)&x=1"}"#.utf8), mimeType: "application/json"))
    let redacted = Redaction.default.redact(HAR(entries: [entry]))
    let text = try redacted.encodedText
    #expect(!text.contains(String(token.dropFirst(3))))
    #expect(
      redacted.log.entries[0].response.content.text
        == #"{"query":"page=1&token=<redacted:token>&x=1"}"#)
    #expect(try Redaction.default.redact(redacted).encodedText == text)
  }

  @Test func aCredentialInAURLThatIsAQueryValueIsRedactedInEverySpelling() throws {
    let token = plantedSecret("nested")
    let callback = "https://app.test/cb?access_token=\(token)&x=1"
    let encoded = callback.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    var entry = HAR.Entry.sample(
      url: "https://api.test/authorize?redirect_uri=\(encoded)&state=2",
      content: HAR.Content(
        body: Data(#"{"next":"\#(callback)"}"#.utf8), mimeType: "application/json"))
    entry.request.queryString = [
      HAR.NameValue(name: "redirect_uri", value: callback),
      HAR.NameValue(name: "state", value: "2"),
    ]
    let redacted = Redaction.default.redact(HAR(entries: [entry]))
    let text = try redacted.encodedText
    #expect(!text.contains(token))
    let request = redacted.log.entries[0].request
    #expect(
      request.url.contains("redirect_uri=https%3A%2F%2Fapp%2Etest")
        && request.url.hasSuffix("&state=2"))
    #expect(
      request.queryString.first { $0.name == "redirect_uri" }?.value
        == "https://app.test/cb?access_token=<redacted:access_token>&x=1")
    #expect(URL(string: request.url) != nil)
    #expect(try Redaction.default.redact(redacted).encodedText == text)
  }

  @Test(arguments: [
    ("ghp" + "_" + "R4nd0mT0k3nV4lu3F0rT3st1ngOnly0123", "state=Bearer%20"),
    ("eyJ" + "hbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJlc2lnbmF0dXJl", "next=%2Fcb%3Fq%3D"),
    ("AKIA" + "Z7QK2MV9PR4TW8ZB", "ref=%22"),
    ("-----BEGIN%20RSA%20" + "PRIVATE%20KEY-----%0AMIIEow", "key="),
    ("-----BEGIN+RSA+" + "PRIVATE+KEY-----%0AMIIEow", "key="),
  ])
  func theScannerSeesATokenAfterAPercentEscape(token: String, before: String) {
    let entry = HAR.Entry.sample(url: "https://api.test/cb?\(before)\(token)")
    let findings = CredentialScanner().scan(HAR(entries: [entry]))
    #expect(findings.contains { $0.path == "log.entries[0].request.url" })
    let masked = LogRedaction.mask(url: "https://api.test/cb?\(before)\(token)")
    #expect(!masked.contains(token.suffix(12)))
  }

  @Test func theTrafficAttachmentAppliesTheJSONMemberRules() async throws {
    let access = plantedSecret("access")
    let password = plantedSecret("password")
    let refresh = "9081726354\(Int.random(in: 10_000_000...99_999_999))"
    let registry = StubRegistry()
    registry.stub(
      .post("https://api.test/oauth/token"),
      .json(string: #"{"access_token":"\#(access)","refresh_token":\#(refresh)}"#))
    registry.stub(.get("https://api.test/me"), .ok)
    let session = registry.makeSession()
    var login = URLRequest(url: URL(string: "https://api.test/oauth/token")!)
    login.httpMethod = "POST"
    login.setValue("application/json", forHTTPHeaderField: "Content-Type")
    login.httpBody = Data(#"{"password":["\#(password)"]}"#.utf8)
    _ = try await session.data(for: login)
    var me = URLRequest(url: URL(string: "https://api.test/me?ref=\(access)")!)
    me.setValue(access, forHTTPHeaderField: "X-Client-Ref")
    _ = try await session.data(for: me)

    let attached = String(
      decoding: try #require(TrafficAttachmentWriter.attachmentBytes(of: registry, testName: "t")),
      as: UTF8.self)
    let exported = try HAR(journal: registry.journal, name: "t").encodedText
    for text in [attached, exported] {
      #expect(!text.contains(access))
      #expect(!text.contains(password))
      #expect(!text.contains(refresh))
      #expect(text.contains("<redacted:refresh_token>"))
    }
  }

  @Test func aMultipartBodyWithAQuotedBoundaryOrAnExtendedNameIsReadAndRedacted() throws {
    let secret = plantedSecret("multipart")
    let extended = plantedSecret("extended")
    let body =
      "--a;b\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\n\(secret)\r\n"
      + "--a;b\r\nContent-Disposition: form-data; name*=UTF-8''client_secret\r\n\r\n"
      + "\(extended)\r\n--a;b--\r\n"
    let type = #"multipart/form-data; boundary="a;b""#
    var request = URLRequest(url: URL(string: "https://api.test/upload")!)
    request.setValue(type, forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(body.utf8)
    let parts = try #require(InterceptedRequest(request, body: request.httpBody).multipartParts)
    #expect(parts.map(\.name) == ["password", "client_secret"])

    let entry = HAR.Entry.sample(
      method: "POST", postData: HAR.PostData(mimeType: type, text: body))
    let text = try Redaction.default.redact(HAR(entries: [entry])).encodedText
    #expect(!text.contains(secret))
    #expect(!text.contains(extended))
  }

  @Test func aCredentialElementWithACommentOrMarkupInsideIsRedactedWhole() throws {
    let afterComment = plantedSecret("comment")
    let mixed = plantedSecret("mixed")
    let xml =
      "<r><password><!-- set by the client -->\(afterComment)</password>"
      + "<apiKey>a<b/>\(mixed)</apiKey><n>1</n></r>"
    let (redacted, _) = redactedResponse(xml, mimeType: "application/xml")
    let text = try redacted.encodedText
    #expect(!text.contains(afterComment))
    #expect(!text.contains(mixed))
    #expect(text.contains("<n>1</n>"))
    #expect(try Redaction.default.redact(redacted).encodedText == text)
    let masked = LogRedaction.mask(xml)
    #expect(!masked.contains(afterComment) && !masked.contains(mixed))
  }

  @Test func aCredentialInAURLEncodedTwiceAsAQueryValueIsRedacted() throws {
    let code = plantedSecret("twice")
    let twice = "https%253A%252F%252Fa.test%252Fcb%253Fcode%253D\(code)%2526x%253D1"
    let url = "https://api.test/authorize?redirect_uri=\(twice)&state=2"
    var entry = HAR.Entry.sample(url: url)
    entry.request.queryString = [
      HAR.NameValue(name: "redirect_uri", value: twice.removingPercentEncoding!),
      HAR.NameValue(name: "state", value: "2"),
    ]
    let redacted = Redaction.default.redact(HAR(entries: [entry]))
    let text = try redacted.encodedText
    #expect(!text.contains(code))
    #expect(URL(string: redacted.log.entries[0].request.url) != nil)
    #expect(try Redaction.default.redact(redacted).encodedText == text)
    #expect(!LogRedaction.mask(url: url).contains(code))
  }

  /// User information is masked whole wherever an authority is: after a scheme, in a
  /// network-path reference, and after a scheme with digits in it.
  @Test(arguments: ["https://", "//", "coap+tcp://"])
  func userInformationIsMaskedInEveryAuthority(prefix: String) {
    let password = plantedSecret("userinfo")
    let masked = LogRedaction.mask(url: "\(prefix)ada:\(password)@api.test/x?y=1")
    #expect(!masked.contains(password))
    #expect(!masked.contains("ada:"))
    #expect(masked.hasPrefix(prefix))
    #expect(masked.hasSuffix("@api.test/x?y=1"))
  }

  @Test func anEchoWithLowerCaseEscapesIsReplaced() throws {
    let password = plantedSecret("lower") + "/slash/"
    let lowerCase = password.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
      .replacingOccurrences(of: "%2F", with: "%2f")
    let entry = HAR.Entry.sample(
      method: "POST",
      postData: HAR.PostData(mimeType: "application/json", text: #"{"password":"\#(password)"}"#),
      responseHeaders: [HAR.Header(name: "X-Echo", value: lowerCase)])
    let text = try Redaction.default.redact(HAR(entries: [entry])).encodedText
    #expect(!text.contains(lowerCase))
    #expect(!text.contains(String(password.dropLast(7))))
  }

  @Test func aJSONDifferenceIsMaskedBeforeItIsCut() {
    let secret = plantedSecret("difference") + String(repeating: "x", count: 20)
    let difference = JSONDifference(mode: .equal).find(
      expected: ["user": "grace"], actual: ["user": ["password": .string(secret)]])
    #expect(difference?.contains(String(secret.prefix(8))) == false)
  }

  @Test func everyCookieOfAFoldedSetCookieIsRememberedAsAnEcho() throws {
    let session = plantedSecret("folded")
    let folded = "theme=dark; Expires=Wed, 21 Oct 2026 07:28:00 GMT, sid=\(session); HttpOnly"
    let entry = HAR.Entry.sample(
      responseHeaders: [HAR.Header(name: "Set-Cookie", value: folded)],
      content: HAR.Content(
        body: Data(#"{"echo":"\#(session)"}"#.utf8), mimeType: "application/json"))
    let text = try Redaction.default.redact(HAR(entries: [entry])).encodedText
    #expect(!text.contains(session))
    #expect(
      RedactionEchoes.setCookies(in: folded).map(String.init) == [
        "theme=dark; Expires=Wed, 21 Oct 2026 07:28:00 GMT", "sid=\(session); HttpOnly",
      ])
  }

  @Test func aCredentialAttributeIsRedacted() throws {
    let token = plantedSecret("attribute")
    let single = plantedSecret("single")
    let xml = "<r><auth token=\"\(token)\" kind=\"bearer\"/><k x:apiKey='\(single)'>1</k></r>"
    let entry = HAR.Entry.sample(
      content: HAR.Content(body: Data(xml.utf8), mimeType: "application/xml"))
    let redacted = Redaction.default.redact(HAR(entries: [entry]))
    let text = try redacted.encodedText
    #expect(!text.contains(token))
    #expect(!text.contains(single))
    #expect(text.contains(#"kind=\"bearer\""#))
    #expect(try Redaction.default.redact(redacted).encodedText == text)
    #expect(!LogRedaction.mask(xml).contains(token))
  }

  /// A body pattern replaces its matches in a journal's entry comments too: the near-miss
  /// report of an unmatched request quotes the body the pattern redacted.
  @Test func aBodyPatternReplacesWhatANearMissReportQuotes() async throws {
    let reference = "Rf7kQ2mZ9xW4pL6n"
    let registry = StubRegistry(unmatchedRequests: .fail)
    registry.stub(.post("https://api.test/other") && .body(containing: "ref=KNOWN"), .ok)
    var request = URLRequest(url: URL(string: "https://api.test/other")!)
    request.httpMethod = "POST"
    request.httpBody = Data("note=hello&ref=\(reference)".utf8)
    _ = try? await registry.makeSession().data(for: request)
    let pattern = try Redaction.BodyPattern(name: "ref", pattern: "ref=([A-Za-z0-9]+)")
    let exported = try HAR(
      journal: registry.journal, name: "t", redaction: .default.redactingBodies(pattern)
    ).encodedText
    #expect(exported.contains("no stub matched"), "the report is in the comment")
    #expect(!exported.contains(reference), "\(exported)")
  }
}
