import Testing

@testable import Understudy

/// A value a rule removes is removed wherever it appears again: in the same entry and in later
/// ones.
@Suite struct RedactionEchoTests {
  static let apiKey = "echoed-api-key-1"
  static let password = "echoed/pass\"word-2"

  static var echoing: HAR.Entry {
    let echo =
      "{\"headers\":{\"x-api-key\":\"\(apiKey)\"},\"body\":\"{\\\"password\\\":\\\"echoed\\/pass\\\\\\\"word-2\\\"}\","
      + "\"note\":\"your key is \(apiKey)\",\"n\":1}"
    var entry = HAR.Entry.sample(
      method: "POST", url: "https://api.example.com/echo",
      requestHeaders: [HAR.Header(name: "X-Api-Key", value: apiKey)],
      postData: HAR.PostData(
        mimeType: "application/json", text: "{\"password\":\"echoed/pass\\\"word-2\"}"),
      responseHeaders: [
        HAR.Header(name: "X-Echo", value: "key=\(apiKey)"),
        HAR.Header(name: "Location", value: "/next?k=\(apiKey)"),
      ],
      content: HAR.Content(body: Data(echo.utf8), mimeType: "application/json"))
    entry.response.redirectURL = "/next?k=\(apiKey)"
    return entry
  }

  @Test func echoesInTheSameEntryAreReplacedByTheRulesPlaceholder() throws {
    let entry = Redaction.default.redact(Self.echoing)
    let text = try HAR(entries: [entry]).encodedText
    #expect(!text.contains(Self.apiKey))
    #expect(!text.contains("echoed/pass"))
    #expect(!text.contains("echoed\\/pass"))
    #expect(entry.response.headers[0].value == "key=<redacted:x-api-key>")
    #expect(entry.response.headers[1].value == "/next?k=%3Credacted:x-api-key%3E")
    #expect(entry.response.redirectURL == "/next?k=%3Credacted:x-api-key%3E")
    let body = try #require(entry.response.content.body)
    let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    #expect(object["note"] as? String == "your key is <redacted:x-api-key>")
    #expect(Redaction.default.redact(entry) == entry)
  }

  @Test func numbersAndEscapedStringsOfAJSONBodyAreSearched() throws {
    let echo =
      #"{"pin":12345678,"other":123456789,"note":"caf\u00e9 12345678","plain":"pin 12345678"}"#
    let entry = Redaction.default.redact(
      HAR.Entry.sample(
        method: "POST", url: "https://api.example.com/pin",
        postData: HAR.PostData(mimeType: "application/json", text: #"{"password":12345678}"#),
        content: HAR.Content(body: Data(echo.utf8), mimeType: "application/json")))
    #expect(entry.request.postData?.text == #"{"password":"<redacted:password>"}"#)
    #expect(
      entry.response.content.text
        == #"{"pin":"<redacted:pin>","other":123456789,"note":"café <redacted:password>","#
        + #""plain":"pin <redacted:password>"}"#)
  }

  /// A cookie is replaced whole, and what it names inside (a token in its URL-encoded JSON) is
  /// searched for too: a server may echo it alone (a blind attack of 2026-12-07).
  @Test func whatACookieNamesInsideIsSearchedForInItsEcho() throws {
    let token = "Sequoia1971*larch"
    let cookie =
      "theme=dark; state=%7B%22authToken%22%3A%20%22Sequoia1971%2Alarch%22%2C%22n%22%3A1%7D"
    let entry = Redaction.default.redact(
      HAR.Entry.sample(
        url: "https://api.example.com/me",
        requestHeaders: [HAR.Header(name: "Cookie", value: cookie)],
        content: HAR.Content(
          body: Data("{\"ref\": \"\(token)\", \"theme\": \"dark\"}".utf8),
          mimeType: "application/json")))
    let text = try HAR(entries: [entry]).encodedText
    #expect(!text.contains("Sequoia1971"), "\(text)")
    #expect(entry.response.content.text?.contains("\"theme\": \"dark\"") == true)
  }

  /// A second pass over the whole cassette: a value a later entry's rule removes is replaced in
  /// the entries before it too (issue 40, part 4).
  @Test func echoesInEarlierAndLaterEntriesAreReplaced() throws {
    let before = HAR.Entry.sample(
      content: HAR.Content(body: Data("early \(Self.apiKey)".utf8), mimeType: "text/plain"))
    let after = HAR.Entry.sample(
      content: HAR.Content(
        body: Data("<p>welcome back, \(Self.apiKey)</p>".utf8), mimeType: "text/html"))
    let redacted = Redaction.default.redact(HAR(entries: [before, Self.echoing, after]))
    #expect(redacted.log.entries[0].response.content.text == "early <redacted:x-api-key>")
    #expect(
      redacted.log.entries[2].response.content.text == "<p>welcome back, <redacted:x-api-key></p>")
  }

  @Test func theSecretsInsideCredentialHeadersAreSearchedForToo() throws {
    let basic = Data("ada:open-sesame-3".utf8).base64EncodedString()
    let entry = HAR.Entry.sample(
      requestHeaders: [
        HAR.Header(name: "Authorization", value: "Bearer bearer-token-4"),
        HAR.Header(name: "Proxy-Authorization", value: "Basic \(basic)"),
        HAR.Header(name: "Cookie", value: "sid=cookie-value-5; theme=dark"),
      ],
      content: HAR.Content(
        body: Data("bearer-token-4 open-sesame-3 \(basic) cookie-value-5 dark".utf8),
        mimeType: "text/plain"))
    #expect(
      Redaction.default.redact(entry).response.content.text
        == "<redacted:authorization> <redacted:proxy-authorization> "
        + "<redacted:proxy-authorization> <redacted:cookie> dark")
  }

  /// A pair sent base64 under any scheme, in either alphabet, padded or not (Basic as a client
  /// writes it URL-safe, Elasticsearch's `ApiKey base64(id:key)`): each part echoed alone is
  /// replaced.
  @Test(arguments: ["Basic", "ApiKey", "basic", "Custom"])
  func aPairSentBase64UnderAnySchemeHasItsPartsSearchedFor(scheme: String) throws {
    let secret = "Ab>?rsDTE36u~~Tu46xe"
    let standard = Data("k5Ybr1OSi6HCO_cXhT12:\(secret)".utf8).base64EncodedString()
    let urlSafe = standard.replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    for credentials in [standard, urlSafe] {
      let entry = HAR.Entry.sample(
        requestHeaders: [HAR.Header(name: "Authorization", value: "\(scheme) \(credentials)")],
        content: HAR.Content(
          body: Data(#"{"result":"\#(secret)","id":"k5Ybr1OSi6HCO_cXhT12"}"#.utf8),
          mimeType: "application/json"))
      let text = try #require(Redaction.default.redact(entry).response.content.text)
      #expect(!text.contains(secret), "\(credentials): \(text)")
      #expect(!text.contains("k5Ybr1OSi6HCO_cXhT12"), "\(credentials): \(text)")
    }
  }

  @Test func valuesShorterThanTheMinimumAreNotSearchedFor() {
    let short = String(repeating: "x", count: Redaction.minimumEchoLength - 1)
    let entry = HAR.Entry.sample(
      requestHeaders: [HAR.Header(name: "X-Api-Key", value: short)],
      content: HAR.Content(body: Data("status \(short)".utf8), mimeType: "text/plain"))
    #expect(Redaction.default.redact(entry).response.content.text == "status \(short)")
  }

  /// A value of a few plain words is replaced where it stands but not searched for, or every
  /// later `medium` would become a placeholder.
  @Test func plainWordValuesOfMembersAreNotSearchedFor() {
    let first = RedactionPlacesTests.body(
      #"{"pass":"medium","api_key":"k3y-value-1"}"#)
    let later = HAR.Entry.sample(
      content: HAR.Content(body: Data("medium k3y-value-1".utf8), mimeType: "text/plain"))
    let redacted = Redaction.default.redact(HAR(entries: [first, later]))
    #expect(
      redacted.log.entries[0].response.content.text
        == #"{"pass":"<redacted:pass>","api_key":"<redacted:api_key>"}"#)
    #expect(redacted.log.entries[1].response.content.text == "medium <redacted:api_key>")
  }

  @Test func aRequestCarryingNoSecretLeavesResponsesAlone() {
    let entry = HAR.Entry.sample(
      content: HAR.Content(body: Data("{\"id\":\"abcdefgh\"}".utf8), mimeType: "application/json"))
    #expect(Redaction.default.redact(HAR(entries: [entry, entry])).log.entries == [entry, entry])
  }

  /// A report about the request written into a comment (as the traffic attachment does), a
  /// status text and a page title repeat it too.
  @Test func commentsStatusTextAndPageTitlesAreSearched() throws {
    var entry = HAR.Entry.sample(
      url: "https://api.example.com/v1?access_token=comment-token-1",
      requestHeaders: [HAR.Header(name: "Authorization", value: "Bearer comment-bearer-2")])
    entry.comment =
      "no stub for GET https://api.example.com/v1?access_token=comment-token-1; "
      + "Authorization: Bearer comment-bearer-2"
    entry.response.statusText = "Hello comment-bearer-2"
    var har = HAR(entries: [entry])
    har.log.pages = [
      HAR.Page(
        startedDateTime: Date(timeIntervalSince1970: 0), id: "page_1",
        title: "https://app.example.com/?token=page-token-3")
    ]
    let redacted = Redaction.default.redact(har)
    let text = try redacted.encodedText
    for secret in ["comment-token-1", "comment-bearer-2", "page-token-3"] {
      #expect(!text.contains(secret), "\(secret) survived")
    }
    #expect(Redaction.default.redact(redacted) == redacted)
  }

  /// A rule that selects a host name (mitmproxy exports HTTP/2's `:authority` under other names)
  /// leaves echoes inside URL authorities; `%3Credacted:NAME%3E` there would read as a host and a
  /// port, and Foundation, so HAR.load, would refuse the URL.
  @Test func anEchoInsideAHostLeavesAURLFoundationParses() throws {
    let entry = HAR.Entry.sample(
      url: "https://app.example.com/api/profile?q=app.example.com",
      requestHeaders: [HAR.Header(name: "X-Api-Key", value: "app.example.com")],
      status: 302,
      responseHeaders: [
        HAR.Header(name: "Location", value: "https://app.example.com:8443/home")
      ])
    let redacted = Redaction.default.redact(entry)
    #expect(
      redacted.request.url
        == "https://%3Credacted%3Ax-api-key%3E/api/profile?q=%3Credacted:x-api-key%3E")
    #expect(
      redacted.response.headers[0].value == "https://%3Credacted%3Ax-api-key%3E:8443/home")
    #expect(URL(string: redacted.request.url) != nil)
    #expect(
      URLComponents(string: redacted.request.url)?.percentEncodedHost
        == "%3Credacted%3Ax-api-key%3E")
    #expect(URL(string: redacted.response.headers[0].value)?.port == 8443)
    let har = HAR(entries: [redacted])
    #expect(try !har.encodedText.contains("app.example.com"))
    _ = try HAR.decode(har.encoded(), source: "redacted.har")
    // The host's spelling is a placeholder like the others: left alone, restored, not reported.
    #expect(Redaction.default.redact(redacted) == redacted)
    let restored = Redaction.default.restoring(har, values: ["x-api-key": "app.example.com"])
    #expect(restored.log.entries[0].request.url == entry.request.url)
    #expect(CredentialScanner().scan(har).isEmpty)
  }

  /// An echo that takes the `/` beginning a path (a fuzzer found `http:///next?key%3Dk[::1]:8080`)
  /// leaves the path's text where the host and port are read: `[::1]:8080` after a placeholder
  /// is no host Foundation accepts, so that region is spelled as one name. Foundation takes
  /// a stray `%`, a space or a `<` in a path but not in a host, so those are encoded too (the
  /// fuzzer found both after the first fix).
  @Test(arguments: [
    (
      "http:///next?key%3Dk[::1]:8080/bin",
      "http://%3Credacted%3Ax-api-key%3E%5B%3A%3A1%5D%3A8080/bin"
    ),
    (
      "http:///next?key%3Dk[::1]:8080%bin",
      "http://%3Credacted%3Ax-api-key%3E%5B%3A%3A1%5D%3A8080%25bin"
    ),
    (
      "http:///next?key%3Dk[::<<<<<<< bin",
      "http://%3Credacted%3Ax-api-key%3E%5B%3A%3A%3C%3C%3C%3C%3C%3C%3C%20bin"
    ),
    // Without a scheme: a network-path reference's authority (a 10-minute search, 2026-11-27).
    (
      "///next?key%3Dk[::1]:8080%bin",
      "//%3Credacted%3Ax-api-key%3E%5B%3A%3A1%5D%3A8080%25bin"
    ),
  ])
  func anEchoThatMovesPathTextIntoTheHostLeavesAURLFoundationParses(
    url: String, expected: String
  ) throws {
    let entry = HAR.Entry.sample(
      url: url, requestHeaders: [HAR.Header(name: "X-Api-Key", value: "/next?key=k")])
    #expect(URL(string: url) != nil)
    let redacted = Redaction.default.redact(entry)
    #expect(redacted.request.url == expected)
    #expect(URL(string: redacted.request.url) != nil)
    _ = try HAR.decode(HAR(entries: [redacted]).encoded(), source: "redacted.har")
    #expect(Redaction.default.redact(redacted) == redacted)
  }

  /// A secret ending in a NUL (the fuzzer sent one in an `Authorization` header), searched for
  /// in a text that ends with the rest of it and holds a non-ASCII character: Foundation's
  /// unanchored search on Linux traps there, which took the process down. Searched for
  /// literally, the text is left as it is, and an exact echo is still replaced.
  @Test func aSecretEndingInANulIsSearchedForLiterally() throws {
    let secret = "s3cr3t-token-0815\0"
    let entry = HAR.Entry.sample(
      url: "https://api.example.com/é/s3cr3t-token-0815",
      requestHeaders: [HAR.Header(name: "Authorization", value: "Bearer " + secret)],
      responseHeaders: [
        HAR.Header(name: "Location", value: "https://api.example.com/é/s3cr3t-token-0815"),
        HAR.Header(name: "X-Seen", value: "é " + secret),
      ])
    let redacted = Redaction.default.redact(entry)
    #expect(redacted.request.url == entry.request.url)
    #expect(redacted.response.headers[0].value == entry.response.headers[0].value)
    #expect(redacted.response.headers[1].value == "é <redacted:authorization>")
    #expect(Redaction.default.redact(redacted) == redacted)
  }

  /// A secret that reads like part of a placeholder (a fuzzer found `Bearer acted:password%3`)
  /// is replaced where it stands, never inside the placeholder another rule wrote: mangling
  /// `%3Credacted:password%3E` made a second redaction change the cassette again.
  @Test func anEchoNeverReplacesTextInsideAPlaceholder() throws {
    let entry = HAR.Entry.sample(
      method: "POST", url: "https://api.example.com/login",
      requestHeaders: [HAR.Header(name: "Authorization", value: "Bearer acted:password%3")],
      postData: HAR.PostData(
        mimeType: "application/x-www-form-urlencoded", text: "user=ann&password=hunter2"),
      content: HAR.Content(
        body: Data(#"{"password":"hunter2","seen":"acted:password%3"}"#.utf8),
        mimeType: "application/json"))
    let redacted = Redaction.default.redact(entry)
    #expect(redacted.request.postData?.text == "user=ann&password=%3Credacted:password%3E")
    #expect(
      redacted.response.content.text
        == #"{"password":"<redacted:password>","seen":"<redacted:authorization>"}"#)
    #expect(Redaction.default.redact(redacted) == redacted)
  }

  /// A secret echoed at the start of a URL's scheme (a fuzzer found `hunter2https://…`) leaves
  /// no scheme, so what is left of it must lose its `:` for Foundation to read the URL.
  @Test func anEchoInsideASchemeLeavesAURLFoundationParses() throws {
    let entry = HAR.Entry.sample(
      method: "POST", url: "hunter2https://api.example.com/login?x=1",
      postData: HAR.PostData(
        mimeType: "application/x-www-form-urlencoded", text: "user=ann&password=hunter2"))
    let redacted = Redaction.default.redact(entry)
    #expect(
      redacted.request.url == "%3Credacted%3Apassword%3Ehttps%3A//api.example.com/login?x=1")
    #expect(URL(string: redacted.request.url) != nil)
    _ = try HAR.decode(HAR(entries: [redacted]).encoded(), source: "redacted.har")
    #expect(Redaction.default.redact(redacted) == redacted)
  }

  /// An echo replaced inside a name leaves the rule's words there (`authorization`); a second
  /// redaction that judged the name by them took the value the first one had kept.
  @Test func aNameAnEchoReplacedIsNotJudgedByThePlaceholdersWords() throws {
    let entry = HAR.Entry.sample(
      url: "https://api.example.com/files;charset=utf-8?charset=utf-8",
      requestHeaders: [HAR.Header(name: "Authorization", value: "Token charset")],
      content: HAR.Content(
        body: Data(#"{"charset":"utf-8","next":"/files?charset=utf-8"}"#.utf8),
        mimeType: "application/json"))
    let redacted = Redaction.default.redact(entry)
    #expect(
      redacted.request.url
        == "https://api.example.com/files;%3Credacted:authorization%3E=utf-8"
        + "?%3Credacted:authorization%3E=utf-8")
    // A member's name is searched like any string (an object keyed by session id); the value
    // it names is left to the rules, which do not judge the placeholder's words.
    #expect(
      redacted.response.content.text
        == #"{"<redacted:authorization>":"utf-8","next":"/files?<redacted:authorization>=utf-8"}"#)
    #expect(Redaction.default.redact(redacted) == redacted)
  }

  /// The echo `abc?def123` takes the `?` that began the redirect's query: the pair
  /// `def123?signature=1` becomes `signature=1` once the echo is replaced, and a second
  /// redaction gave its value another placeholder.
  @Test func anEchoThatTakesTheQuerysQuestionMarkLeavesNoPairForASecondRedaction() {
    var entry = HAR.Entry.sample(
      requestHeaders: [HAR.Header(name: "X-Api-Key", value: "abc?def123")])
    entry.response.redirectURL = "https://api.example.com/cb/abc?def123?signature=1"
    let redacted = Redaction.default.redact(entry)
    #expect(
      redacted.response.redirectURL
        == "https://api.example.com/cb/%3Credacted:x-api-key%3E?signature=%3Credacted:signature%3E")
    #expect(Redaction.default.redact(redacted) == redacted)
  }

  /// A relative redirect's first segment holds no `:` once redacted, whether or not an echo
  /// was replaced in it: the echo sweep spelled the placeholder for it and the rules did not, so
  /// a second redaction, which finds no echoes, wrote it back with a `:`.
  @Test func aPlaceholderInARelativeURLsFirstSegmentIsSpelledTheSameByEveryPass() {
    var entry = HAR.Entry.sample()
    entry.response.redirectURL = "login;jsessionid=abc123def"
    let redacted = Redaction.default.redact(entry)
    #expect(redacted.response.redirectURL == "login;jsessionid=%3Credacted%3Ajsessionid%3E")
    #expect(URL(string: redacted.response.redirectURL) != nil)
    #expect(Redaction.default.redact(redacted) == redacted)
  }

  /// A placeholder whose name is percent-encoded (`access_%5Btoken`) is a placeholder too: a
  /// secret reading like its start was replaced inside it, as in any other text.
  @Test func anEchoNeverReplacesTextInsideAPlaceholderWithAnEncodedName() {
    let entry = HAR.Entry.sample(
      url: "https://api.example.com/login?access_[token=abc123",
      requestHeaders: [HAR.Header(name: "X-Api-Key", value: "%3Credacte")])
    let redacted = Redaction.default.redact(entry)
    #expect(
      redacted.request.url
        == "https://api.example.com/login?access_[token=%3Credacted:access_%5Btoken%3E")
    #expect(Redaction.default.redact(redacted) == redacted)
  }

  /// A body is read as a form by its shape; a backtick in a value redaction replaces made it
  /// no form, and the placeholder made it one, so a second redaction took `x_token`.
  @Test func aBodyARuleMakesFormShapedIsReadAsAFormInTheSamePass() {
    let entry = HAR.Entry.sample(
      content: HAR.Content(
        body: Data("x_token=abc123def&x=1#sig=%3CVBOR`w0KG".utf8), mimeType: "text/plain"))
    let redacted = Redaction.default.redact(entry)
    #expect(
      redacted.response.content.text
        == "x_token=%3Credacted:x_token%3E&x=1#sig=%3Credacted:sig%3E")
    #expect(Redaction.default.redact(redacted) == redacted)
  }
}
