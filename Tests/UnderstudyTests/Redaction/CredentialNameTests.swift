import Testing

@testable import Understudy

/// Credential names are matched by normalised pattern, not by a list of spellings.
@Suite struct CredentialNameTests {
  @Test func spellingsOfOneNameNormaliseAlike() {
    let spellings = ["access_token", "accessToken", "Access-Token", "ACCESS_TOKEN", "access.token"]
    #expect(Set(spellings.map(Redaction.normalised)) == ["accesstoken"])
    #expect(Redaction.normalised("X-Api_Key") == Redaction.normalised("xApiKey"))
  }

  @Test func patternsMatchWithStarsAndWithout() {
    let names = CredentialName(["*-Token", "code", "*password*"])
    for name in ["X-Auth-Token", "Private-Token", "x_csrf_token", "csrfToken", "token", "CODE"] {
      #expect(names.matches(name), "\(name) should match")
    }
    for name in ["newPassword", "password_confirmation", "PASSWORD"] {
      #expect(names.matches(name), "\(name) should match")
    }
    for name in ["token_type", "tokens", "zipcode", "codes", "", "-"] {
      #expect(!names.matches(name), "\(name) should not match")
    }
    #expect(CredentialName([]).isEmpty)
  }

  @Test(arguments: [
    "Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Auth-Token",
    "Private-Token", "X-CSRF-Token", "X-XSRF-TOKEN", "X-Amz-Security-Token", "X-Subject-Token",
    "Api-Key", "X-API-Key", "x-api-key", "X-Goog-Api-Key", "Ocp-Apim-Subscription-Key",
    "X-Functions-Key", "X-Client-Secret", "X-Session",
  ])
  func headerFamiliesAreRedactedByDefault(name: String) {
    let entry = HAR.Entry.sample(requestHeaders: [HAR.Header(name: name, value: "hunter2hunter2")])
    let redacted = Redaction.default.redact(entry)
    #expect(redacted.request.headers[0].value == "<redacted:\(name.lowercased())>")
  }

  @Test(arguments: ["Accept", "Content-Type", "Sec-WebSocket-Key", "Idempotency-Key", "X-Trace"])
  func ordinaryHeadersAreKept(name: String) {
    let entry = HAR.Entry.sample(requestHeaders: [HAR.Header(name: name, value: "plain-value")])
    #expect(Redaction.default.redact(entry) == entry)
  }

  @Test(arguments: [
    "passwd", "password", "Password", "secret", "client_secret", "clientSecret", "token",
    "access_token", "accessToken", "refresh_token", "RefreshToken", "api_key", "apiKey",
    "id_token", "newPassword", "private_key", "AWS_SECRET_ACCESS_KEY",
  ])
  func jsonMembersAreRedactedUnderAnySpelling(name: String) throws {
    let body = #"{"user":{"\#(name)":"hunter2hunter2","name":"Ada"},"token_type":"bearer"}"#
    let entry = HAR.Entry.sample(
      content: HAR.Content(body: Data(body.utf8), mimeType: "application/json"))
    let text = try #require(Redaction.default.redact(entry).response.content.text)
    #expect(
      text
        == #"{"user":{"\#(name)":"<redacted:\#(name)>","name":"Ada"},"token_type":"bearer"}"#)
  }

  @Test(arguments: [
    "passwd", "Password", "secret", "client_secret", "token", "access_token", "accessToken",
    "refresh_token", "api_key", "apiKey", "code", "key", "X-Amz-Signature",
  ])
  func queryParametersAndFormFieldsAreRedactedUnderAnySpelling(name: String) {
    let entry = HAR.Entry.sample(
      url: "https://api.example.com/cb?page=2&\(name)=hunter2hunter2",
      postData: HAR.PostData(
        mimeType: "application/x-www-form-urlencoded", text: "\(name)=hunter2hunter2&page=2"))
    let redacted = Redaction.default.redact(entry)
    let placeholder = "%3Credacted:\(name.lowercased())%3E"
    #expect(redacted.request.url == "https://api.example.com/cb?page=2&\(name)=\(placeholder)")
    #expect(redacted.request.postData?.text == "\(name)=\(placeholder)&page=2")
  }

  @Test func everydayJSONMembersNamedKeyOrCodeAreKept() {
    let body = #"{"key":"sort-order","code":"E_NOT_FOUND","token_type":"bearer","tokens":3}"#
    let entry = HAR.Entry.sample(
      content: HAR.Content(body: Data(body.utf8), mimeType: "application/json"))
    #expect(Redaction.default.redact(entry) == entry)
  }
}
