import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// URLs written inside bodies and headers that are no URL headers, holding a credential where
/// no plain `?code=` rule sees it: in the query of a URL that is itself a percent-encoded query
/// value (as an earlier fix handles in the request URL), or as user information. An audit
/// (2026-11-27) found both written. Each test greps the whole encoded document.
@Suite struct EmbeddedURLRedactionTests {
  /// `https://app.test/login?next=…` whose `next` is a callback URL holding `name=secret`,
  /// percent-encoded `levels` times.
  private static func login(_ name: String, _ secret: String, levels: Int = 1) -> String {
    var next = "https://api.test/cb?\(name)=\(secret)&x=1"
    for _ in 0..<levels {
      next = next.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }
    return "https://app.test/login?next=\(next)"
  }

  /// The URL between the first `<` and `>` of a `Link` value.
  private static func linked(_ value: String) -> String? {
    guard let open = value.firstIndex(of: "<"), let close = value.firstIndex(of: ">") else {
      return nil
    }
    return String(value[value.index(after: open)..<close])
  }

  private static func redacted(_ entry: HAR.Entry) throws -> (HAR, String) {
    let redacted = Redaction.default.redact(HAR(entries: [entry]))
    let text = try redacted.encodedText
    #expect(try Redaction.default.redact(redacted).encodedText == text)
    return (redacted, text)
  }

  @Test(arguments: [1, 2, 3])
  func aNestedCredentialInAJSONBodyIsRedacted(levels: Int) throws {
    let code = plantedSecret("json")
    let entry = HAR.Entry.sample(
      content: HAR.Content(
        body: Data(#"{"redirect":"\#(Self.login("code", code, levels: levels))"}"#.utf8),
        mimeType: "application/json"))
    let (redacted, text) = try Self.redacted(entry)
    #expect(!text.contains(code))
    let body = try #require(redacted.log.entries[0].response.content.text)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: String])
    let redirect = try #require(json["redirect"])
    #expect(redirect.hasPrefix("https://app.test/login?next=https%"))
    #expect(URL(string: redirect) != nil)
    #expect(!LogRedaction.mask(body).contains(code))
  }

  @Test func aNestedCredentialInAnHTMLOrTextBodyIsRedacted() throws {
    let token = plantedSecret("html")
    let html = #"<p><a href="\#(Self.login("id_token", token))">x</a></p>"#
    let plain = "go to \(Self.login("access_token", token + "p")) now"
    let entry = HAR.Entry.sample(
      method: "POST", postData: HAR.PostData(mimeType: "text/plain", text: plain),
      content: HAR.Content(body: Data(html.utf8), mimeType: "text/html"))
    let (redacted, text) = try Self.redacted(entry)
    #expect(!text.contains(token))
    let body = try #require(redacted.log.entries[0].response.content.text)
    let href = try #require(body.split(separator: "\"").dropFirst().first)
    #expect(href.hasPrefix("https://app.test/login?next=https%"))
    #expect(URL(string: String(href)) != nil)
    let sent = try #require(redacted.log.entries[0].request.postData?.text)
    #expect(sent.hasPrefix("go to https://app.test/login?next=") && sent.hasSuffix(" now"))
    let link = try #require(sent.split(separator: " ").dropFirst(2).first)
    #expect(URL(string: String(link)) != nil)
  }

  @Test func aCallbackURLLeftUnescapedInAFormValueHasItsCredentialRedacted() throws {
    // A body built by interpolation carries the callback URL's own pairs in plain sight; `?`,
    // `/` and a second `=` are allowed in a form value as they are.
    let token = plantedSecret("form")
    let callback = "https://app.test/cb?code=\(token)"
    let body = "grant_type=client_credentials&next=\(callback)&state=1"
    let entry = HAR.Entry.sample(
      method: "POST",
      postData: HAR.PostData(mimeType: "application/x-www-form-urlencoded", text: body))
    let (redacted, text) = try Self.redacted(entry)
    #expect(!text.contains(token))
    #expect(
      redacted.log.entries[0].request.postData?.text
        == "grant_type=client_credentials&next=https://app.test/cb?code=%3Credacted:code%3E&state=1"
    )
    #expect(CredentialScanner().scan(HAR(entries: [entry])).count == 1)
  }

  @Test(arguments: [1, 2])
  func aNestedCredentialInALinkHeaderIsRedacted(levels: Int) throws {
    let token = plantedSecret("link")
    let entry = HAR.Entry.sample(responseHeaders: [
      HAR.Header(
        name: "Link", value: "<\(Self.login("access_token", token, levels: levels))>; rel=next")
    ])
    let (redacted, text) = try Self.redacted(entry)
    #expect(!text.contains(token))
    let value = try #require(redacted.log.entries[0].response.headers.first?.value)
    #expect(value.hasSuffix(">; rel=next"))
    let url = try #require(Self.linked(value))
    #expect(url.hasPrefix("https://app.test/login?next=https%"))
    #expect(URL(string: url) != nil)
  }

  /// A URL after `url=` (a `Refresh` header, an HTML `<meta http-equiv="refresh">`) is the
  /// value of a pair no rule selects, and its own query pairs were hidden inside that value: an
  /// audit (2026-12-06) found both written. Absolute and relative, any case, in a header, an
  /// HTML body and a text body.
  @Test(arguments: [
    ("access_token", "https://app.example/cb?"), ("session_token", "/cb?"),
    ("ID_TOKEN", "/cb?x=1&"), ("code", "HTTPS://APP.EXAMPLE/CB?state=a&"),
  ])
  func aURLAfterURLEqualsHasItsCredentialRedacted(name: String, url: String) throws {
    let secret = plantedSecret("refresh")
    let target = "\(url)\(name)=\(secret)"
    for spelling in ["0; url=\(target)", "5;URL=\(target)", "0;Url=\(target)"] {
      let html = #"<html><head><meta http-equiv="refresh" content="\#(spelling)"></head></html>"#
      let entry = HAR.Entry.sample(
        responseHeaders: [HAR.Header(name: "Refresh", value: spelling)],
        content: HAR.Content(body: Data(html.utf8), mimeType: "text/html"))
      let (redacted, text) = try Self.redacted(entry)
      #expect(!text.contains(secret), "\(spelling)")
      let header = try #require(redacted.log.entries[0].response.headers.first?.value)
      #expect(header.hasPrefix(spelling.prefix(while: { $0 != "=" })))
      let plain = HAR.Entry.sample(
        content: HAR.Content(body: Data("refresh: \(spelling)\n".utf8), mimeType: "text/plain"))
      #expect(try !Self.redacted(plain).1.contains(secret), "\(spelling)")
      #expect(!LogRedaction.mask("Refresh: \(spelling)").contains(secret))
      #expect(!LogRedaction.mask(html).contains(secret))
    }
  }

  @Test func aNestedCredentialInAReturnToHeaderIsRedacted() throws {
    let code = plantedSecret("return")
    let entry = HAR.Entry.sample(requestHeaders: [
      HAR.Header(name: "X-Return-To", value: Self.login("code", code))
    ])
    let (redacted, text) = try Self.redacted(entry)
    #expect(!text.contains(code))
    let value = try #require(redacted.log.entries[0].request.headers.first?.value)
    #expect(value.hasPrefix("https://app.test/login?next=https%"))
    #expect(URL(string: value) != nil)
  }

  /// A credential found only inside a nested URL is remembered like any other, so where the
  /// server echoes it under a name no rule knows (a debug header, a JSON member, base64 in a
  /// blob) it is replaced too.
  @Test func aNestedCredentialIsReplacedWhereItIsEchoedUnderANeutralName() throws {
    let code = plantedSecret("nestedecho")
    let html = #"<a href="\#(Self.login("code", code))">x</a>"#
    let echo = #"{"seen":"\#(code)","blob":"\#(Data(code.utf8).base64EncodedString())"}"#
    let entry = HAR.Entry.sample(
      method: "POST", postData: HAR.PostData(mimeType: "application/json", text: echo),
      responseHeaders: [HAR.Header(name: "X-Debug", value: "last=\(code)")],
      content: HAR.Content(body: Data(html.utf8), mimeType: "text/html"))
    let (_, text) = try Self.redacted(entry)
    #expect(!text.contains(code))
    #expect(!text.contains(Data(code.utf8).base64EncodedString()))
  }

  @Test func userInformationInALinkHeaderIsRedacted() throws {
    let password = plantedSecret("linkuser")
    let entry = HAR.Entry.sample(responseHeaders: [
      HAR.Header(name: "Link", value: "<https://ada:\(password)@api.test/page/2>; rel=next"),
      HAR.Header(name: "X-Origin", value: "https://ada:\(password)@api.test"),
    ])
    let (redacted, text) = try Self.redacted(entry)
    #expect(!text.contains(password))
    let headers = redacted.log.entries[0].response.headers
    let url = try #require(headers.first.flatMap { Self.linked($0.value) })
    #expect(url == "https://%3Credacted:userinfo%3E@api.test/page/2")
    #expect(URL(string: url) != nil)
    #expect(headers.last?.value == "https://%3Credacted:userinfo%3E@api.test")
  }

  @Test func userInformationInABodyIsRedacted() throws {
    let password = plantedSecret("bodyuser")
    let other = plantedSecret("escaped")
    let entry = HAR.Entry.sample(
      method: "POST",
      postData: HAR.PostData(
        mimeType: "text/plain", text: "clone https://ada:\(password)@git.test/repo.git now"),
      content: HAR.Content(
        body: Data(
          #"{"remote":"https://ada:\#(password)@git.test/a","escaped":"https:\/\/bob:\#(other)@git.test\/b"}"#
            .utf8), mimeType: "application/json"))
    let (redacted, text) = try Self.redacted(entry)
    #expect(!text.contains(password) && !text.contains(other))
    #expect(
      redacted.log.entries[0].request.postData?.text
        == "clone https://%3Credacted:userinfo%3E@git.test/repo.git now")
    let body = try #require(redacted.log.entries[0].response.content.text)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: String])
    #expect(json["remote"] == "https://%3Credacted:userinfo%3E@git.test/a")
    #expect(json["escaped"] == "https://%3Credacted:userinfo%3E@git.test/b")
    #expect(URL(string: json["remote"] ?? "") != nil)
  }

  @Test func theScannerReportsANestedCredentialInALinkHeader() throws {
    let token = plantedSecret("scan")
    let entry = HAR.Entry.sample(responseHeaders: [
      HAR.Header(name: "Link", value: "<\(Self.login("access_token", token))>; rel=next")
    ])
    let findings = CredentialScanner().scan(HAR(entries: [entry]))
    #expect(findings.contains { $0.kind == .redactionRule && $0.path.contains("headers") })
    #expect(!findings.contains { $0.excerpt.contains(token) })
  }

  @Test func aNestedCredentialInAHeaderValueIsMaskedInALog() {
    let code = plantedSecret("log")
    let value = Self.login("code", code)
    let twice = Self.login("access_token", code, levels: 2)
    #expect(!LogRedaction.mask(header: "X-Return-To", value: value).contains(code))
    #expect(!LogRedaction.mask("X-Return-To: \(twice)").contains(code))
    #expect(!LogRedaction.mask("Link: <\(value)>; rel=next").contains(code))
    #expect(!LogRedaction.mask("go to \(value) now").contains(code))
    #expect(LogRedaction.mask("X-Return-To: \(value)").hasPrefix("X-Return-To: https://app.test/"))
  }

  @Test func aNearMissReportMasksANestedCredentialInAHeaderAndABody() async throws {
    let code = plantedSecret("report")
    var request = URLRequest(url: URL(string: "https://api.test/go")!)
    request.httpMethod = "POST"
    request.setValue(Self.login("code", code), forHTTPHeaderField: "X-Return-To")
    request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data("go to \(Self.login("access_token", code + "b")) now".utf8)
    let registry = StubRegistry()
    registry.stub(.post("https://api.test/go") && .header("X-Return-To", "elsewhere"), .ok)
    var errors: [String] = []
    do {
      _ = try await registry.makeSession().data(for: request)
    } catch {
      errors.append(String(describing: error))
    }
    let report = try #require(registry.unmatchedReports.first).description
    #expect(report.contains("X-Return-To"), "\(report)")
    #expect(!report.contains(code), "\(report)")
    #expect(!errors.joined().contains(code))
  }
}
