import Foundation
import Testing

@testable import Understudy

extension RecordingTests {
  @Suite struct RedactionTests {
    /// An OAuth refresh that carries a secret in every place the default rules cover.
    static let leaky: HAR.Entry = {
      let tokenResponse =
        "{\"access_token\":\"JSON-SECRET-11\",\"token_type\":\"bearer\",\"expires_in\":3600,"
        + "\"user\":{\"name\":\"Ada\",\"password\":\"PW-SECRET-12\"}}"
      return HAR.Entry(
        startedDateTime: Date(timeIntervalSince1970: 1_700_000_000), time: 10,
        request: HAR.Request(
          method: "POST",
          url:
            "https://api.example.com/v1/token?page=2&access_token=AT-SECRET-1&API_KEY=K-SECRET-2#frag",
          cookies: [HAR.Cookie(name: "sid", value: "COOKIE-SECRET-5")],
          headers: [
            HAR.Header(name: "Authorization", value: "Bearer BEARER-SECRET-3"),
            HAR.Header(name: "proxy-authorization", value: "Basic PROXY-SECRET-4"),
            HAR.Header(name: "Cookie", value: "sid=COOKIE-SECRET-5"),
            HAR.Header(name: "X-Trace", value: "keep-me"),
            HAR.Header(
              name: "Referer", value: "https://app.example.com/cb?code=ok&token=REF-SECRET-6"),
          ],
          queryString: [
            HAR.NameValue(name: "page", value: "2"),
            HAR.NameValue(name: "access_token", value: "AT-SECRET-1"),
            HAR.NameValue(name: "API_KEY", value: "K-SECRET-2"),
          ],
          postData: HAR.PostData(
            mimeType: "application/x-www-form-urlencoded",
            params: [
              HAR.PostParameter(name: "grant_type", value: "refresh_token"),
              HAR.PostParameter(name: "refresh_token", value: "RT-SECRET-7"),
            ],
            text: "grant_type=refresh_token&refresh_token=RT-SECRET-7&client_secret=CS-SECRET-8")),
        response: HAR.Response(
          status: 200,
          cookies: [HAR.Cookie(name: "session", value: "SETCOOKIE-SECRET-9")],
          headers: [
            HAR.Header(name: "Set-Cookie", value: "session=SETCOOKIE-SECRET-9; Path=/; HttpOnly"),
            HAR.Header(
              name: "Location",
              value: "https://app.example.com/done#access_token=FRAG-SECRET-10&state=xyz"),
          ],
          content: HAR.Content(body: Data(tokenResponse.utf8), mimeType: "application/json"),
          redirectURL: "https://app.example.com/done#access_token=FRAG-SECRET-10&state=xyz"))
    }()

    private static let secrets = (1...12).map { "SECRET-\($0)" }

    @Test func defaultsRemoveEverySecretFromTheWrittenBytes() throws {
      let redacted = Redaction.default.redact(HAR(entries: [Self.leaky]))
      let text = try redacted.encodedText
      for secret in Self.secrets {
        #expect(!text.contains(secret), "\(secret) survived redaction")
      }
      for kept in [
        "keep-me", "page=2", "grant_type=refresh_token", "token_type", "#frag", "state=xyz",
      ] {
        #expect(text.contains(kept), "\(kept) was redacted but is not a secret")
      }
    }

    @Test func headersAndCookiesBecomePlaceholdersNamedAfterTheHeader() {
      let entry = Redaction.default.redact(Self.leaky)
      #expect(
        entry.request.headers.map(\.value) == [
          "<redacted:authorization>", "<redacted:proxy-authorization>", "<redacted:cookie>",
          "keep-me",
          // The OAuth authorization `code` is a credential too.
          "https://app.example.com/cb?code=%3Credacted:code%3E&token=%3Credacted:token%3E",
        ])
      #expect(entry.request.cookies == [HAR.Cookie(name: "sid", value: "<redacted:cookie>")])
      #expect(entry.response.headers[0].value == "<redacted:set-cookie>")
      #expect(
        entry.response.cookies == [HAR.Cookie(name: "session", value: "<redacted:set-cookie>")])
    }

    @Test func theURLAndQueryStringAreRedactedConsistently() throws {
      let entry = Redaction.default.redact(Self.leaky)
      #expect(
        entry.request.url
          == "https://api.example.com/v1/token?page=2&access_token=%3Credacted:access_token%3E"
          + "&API_KEY=%3Credacted:api_key%3E#frag")
      #expect(
        entry.request.queryString.map(\.value) == [
          "2", "<redacted:access_token>", "<redacted:api_key>",
        ])
      let fromURL = try #require(URLComponents(string: entry.request.url)?.queryItems)
      #expect(fromURL.map { $0.value ?? "" } == entry.request.queryString.map(\.value))
      #expect(
        entry.response.redirectURL
          == "https://app.example.com/done#access_token=%3Credacted:access_token%3E&state=xyz")
    }

    @Test func theHTTP2PathPseudoHeaderIsRedactedLikeTheURL() {
      let entry = HAR.Entry.sample(requestHeaders: [
        HAR.Header(name: ":path", value: "/v1/items?token=T-SECRET&page=2")
      ])
      #expect(
        Redaction.default.redact(entry).request.headers[0].value
          == "/v1/items?token=%3Credacted:token%3E&page=2")
    }

    @Test func formBodiesAndFieldsAreRedactedByQueryName() {
      let postData = Redaction.default.redact(Self.leaky).request.postData
      #expect(
        postData?.text
          == "grant_type=refresh_token&refresh_token=%3Credacted:refresh_token%3E"
          + "&client_secret=%3Credacted:client_secret%3E")
      #expect(postData?.params.map(\.value) == ["refresh_token", "<redacted:refresh_token>"])
    }

    @Test func jsonBodiesKeepTheirFormattingAroundRedactedValues() {
      let content = Redaction.default.redact(Self.leaky).response.content
      let expected =
        "{\"access_token\":\"<redacted:access_token>\",\"token_type\":\"bearer\",\"expires_in\":3600,"
        + "\"user\":{\"name\":\"Ada\",\"password\":\"<redacted:password>\"}}"
      #expect(content.text == expected)
      #expect(content.size == expected.utf8.count)
    }

    @Test func base64TextBodiesAreRedactedAndStayBase64() throws {
      var entry = HAR.Entry.sample()
      entry.response.content = HAR.Content(
        mimeType: "application/json",
        text: Data("{\"id_token\": \"ID-SECRET\"}".utf8).base64EncodedString(), encoding: "base64")
      let content = Redaction.default.redact(entry).response.content
      #expect(content.encoding == "base64")
      let body = try #require(content.body)
      #expect(String(decoding: body, as: UTF8.self) == "{\"id_token\": \"<redacted:id_token>\"}")
    }

    @Test func binaryBodiesAreLeftAlone() {
      let bytes = Data([0xFF, 0x00, 0x61, 0x63, 0x63, 0x65, 0x73, 0x73])
      let entry = HAR.Entry.sample(
        content: HAR.Content(body: bytes, mimeType: "application/octet-stream"))
      #expect(Redaction.default.redact(entry) == entry)
    }

    @Test func customRulesAddToTheDefaults() throws {
      let redaction = Redaction.default
        .redactingHeaders("X-Session")
        .redactingQueryParameters("state")
        .redactingJSON(
          try Redaction.JSONPath("$.items[*].secret"),
          try Redaction.JSONPath("$.profile.ssn", name: "ssn"),
          try Redaction.JSONPath("$..nonce")
        )
        .redactingBodies(
          try Redaction.BodyPattern(name: "card", pattern: "\\b\\d{4}-\\d{4}-\\d{4}-\\d{4}\\b"),
          try Redaction.BodyPattern(name: "ext", pattern: "ext=(\\d+)"))
      let body =
        "{\"items\":[{\"secret\":\"S1\",\"id\":1},{\"secret\":{\"deep\":true},\"id\":2}],"
        + "\"profile\":{\"ssn\":\"123-45-6789\",\"nonce\":7},\"note\":\"card 4111-1111-1111-1111 ext=1234\"}"
      let entry = HAR.Entry.sample(
        url: "https://example.com/cb?state=STATE-1&x=1",
        requestHeaders: [HAR.Header(name: "x-session", value: "SESSION-1")],
        content: HAR.Content(body: Data(body.utf8), mimeType: "application/json"))
      let redacted = redaction.redact(entry)
      #expect(
        redacted.request.headers == [HAR.Header(name: "x-session", value: "<redacted:x-session>")])
      #expect(redacted.request.url == "https://example.com/cb?state=%3Credacted:state%3E&x=1")
      #expect(
        redacted.response.content.text
          == "{\"items\":[{\"secret\":\"<redacted:items[*].secret>\",\"id\":1},"
          + "{\"secret\":\"<redacted:items[*].secret>\",\"id\":2}],"
          + "\"profile\":{\"ssn\":\"<redacted:ssn>\",\"nonce\":\"<redacted:nonce>\"},"
          + "\"note\":\"card <redacted:card> ext=<redacted:ext>\"}")
    }

    @Test func placeholdersAreRestoredFromValuesForReplay() throws {
      let redaction = Redaction.default
      let redacted = redaction.redact(HAR(entries: [Self.leaky]))
      let restored = redaction.restoring(
        redacted,
        values: [
          "authorization": "Bearer test-token", "access_token": "a b&c", "password": "p\"w",
        ])
      let entry = restored.log.entries[0]
      #expect(entry.request.headers[0].value == "Bearer test-token")
      #expect(entry.request.headers[1].value == "<redacted:proxy-authorization>")
      #expect(entry.request.url.contains("access_token=a%20b%26c&"))
      #expect(entry.request.queryString[1].value == "a b&c")
      #expect(entry.response.redirectURL.contains("#access_token=a%20b%26c&state=xyz"))
      let json = try #require(entry.response.content.body)
      let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
      #expect(object["access_token"] as? String == "a b&c")
      #expect((object["user"] as? [String: Any])?["password"] as? String == "p\"w")
    }

    @Test func redactingTwiceChangesNothingMore() {
      let once = Redaction.default.redact(Self.leaky)
      #expect(Redaction.default.redact(once) == once)
    }

    /// Found by FuzzPatterns: each `..` searched the subtree of every node the previous step
    /// selected, nested ones included, so four of them over 200 nested arrays ran for minutes.
    @Test(.timeLimit(.minutes(1)))
    func repeatedDescendantStepsVisitEachNodeOnce() throws {
      let depth = 200
      let body = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
      let path = try Redaction.JSONPath("$..*..*..*..*")
      let document = try #require(JSONNode.container(in: body))
      let matches = path.matches(in: document)
      #expect(matches.count == depth - 3)
      #expect(Set(matches.map(\.range.lowerBound)).count == matches.count)
      let entry = HAR.Entry.sample(
        content: HAR.Content(body: Data(body.utf8), mimeType: "application/json"))
      let redacted = Redaction(jsonPaths: [path]).redact(entry).response.content.text
      #expect(redacted == "[[[[\"<redacted:*..*..*..*>\"]]]]")
    }

    @Test func noRedactionLeavesTheEntryAsItWas() {
      #expect(Redaction.none.redact(Self.leaky) == Self.leaky)
    }

    @Test(arguments: ["user.token", "$", "$.", "$.a[", "$.a[x]", "$..", "$a", "$..[0]"])
    func malformedJSONPathsAreRejected(expression: String) {
      #expect(throws: PatternSyntaxError.self) { try Redaction.JSONPath(expression) }
    }

    @Test func namesAndPatternsAreValidated() throws {
      #expect(throws: PatternSyntaxError.self) { try Redaction.JSONPath("$.a", name: "has space") }
      #expect(throws: PatternSyntaxError.self) {
        try Redaction.BodyPattern(name: "x>y", pattern: "a")
      }
      #expect(throws: PatternSyntaxError.self) {
        try Redaction.BodyPattern(name: "x", pattern: "(")
      }
      #expect(try Redaction.JSONPath("$['odd key'].v").name == "['odd_key'].v")
      #expect(try Redaction.JSONPath("$..['a.b']").steps == [.descendant("a.b")])
    }
  }
}
