import Testing

@testable import Understudy

/// Places a secret hides that the rules must look in, each with the shape that hides it.
@Suite struct RedactionPlacesTests {
  static func body(_ text: String, _ mimeType: String = "application/json") -> HAR.Entry {
    HAR.Entry.sample(content: HAR.Content(body: Data(text.utf8), mimeType: mimeType))
  }

  static func redactedBody(_ text: String, _ mimeType: String = "application/json") -> String {
    let entry = Redaction.default.redact(body(text, mimeType))
    #expect(Redaction.default.redact(entry) == entry, "redacting twice changed \(text)")
    return entry.response.content.text ?? ""
  }

  @Test func userinfoIsReplacedInTheURLLocationRedirectURLAndNextHop() {
    var entry = HAR.Entry.sample(url: "http://ada:pa55word-1@api.example.com/v1?page=2")
    entry.response.status = 302
    entry.response.headers = [
      HAR.Header(name: "Location", value: "https://bot:pa55word-2@next.example.com/hop")
    ]
    entry.response.redirectURL = "https://bot:pa55word-2@next.example.com/hop"
    let redacted = Redaction.default.redact(entry)
    #expect(redacted.request.url == "http://%3Credacted:userinfo%3E@api.example.com/v1?page=2")
    #expect(
      redacted.response.headers[0].value == "https://%3Credacted:userinfo%3E@next.example.com/hop")
    #expect(redacted.response.redirectURL == redacted.response.headers[0].value)
    #expect(URL(string: redacted.request.url)?.host == "api.example.com")
    #expect(Redaction.default.redact(redacted) == redacted)
    #expect(Redaction.none.redact(entry) == entry)
  }

  /// User information in a URL written in a body runs to the authority's last `@` (a password
  /// with a raw `@`), and a scheme-relative URL (`//ada:…@cdn/x.png`) has it too: the cassette
  /// and the log mask hide the whole password.
  @Test func userinfoWithARawAtOrWithoutASchemeIsHiddenWhole() {
    let password = "Fx9@q7Lm2Wz"
    for (text, mimeType) in [
      ("see https://ada:\(password)@db.test/x for the dump", "text/plain"),
      (#"<img src="//ada:\#(password)@cdn.test/x.png">"#, "text/html"),
      (#"{"mirror":"//ada:\#(password)@cdn.test/x"}"#, "application/json"),
      ("proxy=//ada:\(password)@proxy.test:3128", "text/plain"),
    ] {
      let written = Self.redactedBody(text, mimeType)
      let masked = LogRedaction.mask(text)
      for output in [written, masked] {
        #expect(!output.contains("Fx9"), "\(text): \(output)")
        #expect(!output.contains("q7Lm2Wz"), "\(text): \(output)")
      }
    }
    // A scheme-relative path with no user information is left alone.
    let plain = #"<img src="//cdn.test:8080/a@2x.png">"#
    #expect(Self.redactedBody(plain, "text/html") == plain)
    #expect(LogRedaction.mask(plain) == plain)
  }

  /// A header whose value is an authority (HTTP/2's `:authority`, `Host`, `X-Forwarded-Host`)
  /// written with a URL's user information keeps the host and loses the user information.
  @Test(arguments: [":authority", "Host", "X-Forwarded-Host"])
  func userinfoInAnAuthorityHeaderIsReplaced(header: String) {
    let entry = HAR.Entry.sample(
      requestHeaders: [HAR.Header(name: header, value: "ada:Pw7Lk2Qz9Xc@api.test:8443")])
    let redacted = Redaction.default.redact(entry)
    let value = redacted.request.headers.first { $0.name == header }?.value ?? ""
    #expect(value == "%3Credacted:userinfo%3E@api.test:8443")
    #expect(Redaction.default.redact(redacted) == redacted)
    let plain = HAR.Entry.sample(requestHeaders: [HAR.Header(name: header, value: "api.test")])
    #expect(Redaction.default.redact(plain) == plain)
  }

  @Test(arguments: ["", "application/octet-stream", "text/plain"])
  func formBodiesWithoutAFormTypeAreRedactedByFieldName(mimeType: String) {
    let entry = HAR.Entry.sample(
      method: "POST",
      postData: HAR.PostData(mimeType: mimeType, text: "user=ada&password=hunter2hunter2&x=1"))
    #expect(
      Redaction.default.redact(entry).request.postData?.text
        == "user=ada&password=%3Credacted:password%3E&x=1")
  }

  /// Prose is read as text, not as one form pair (`a ` = `b and the …`), but a credential pair
  /// written in it is still a credential.
  @Test func proseIsNotTakenForAForm() {
    let entry = Self.body("a = b and the password=hunter2 is shown", "text/plain")
    #expect(
      Redaction.default.redact(entry).response.content.text
        == "a = b and the password=%3Credacted:password%3E is shown")
  }

  /// A passphrase written bare is taken whole where the line says the words are its: a pair
  /// alone on its line (a `.env` file) to the line's end, and one a later pair follows (a log
  /// line) up to that pair.
  @Test func aBarePassphraseIsTakenWholeInAnEnvOrLogLine() {
    let env = Self.body(
      "APP=1\nX-Goog-Signature=QUARTZ FALCON THISTLE QAWJENSX\nDEBUG=0\n", "text/plain")
    #expect(
      Redaction.default.redact(env).response.content.text
        == "APP=1\nX-Goog-Signature=%3Credacted:x-goog-signature%3E\nDEBUG=0\n")
    let log = Self.body(
      "level=info msg=start pin=VELVET VIOLET WALNUT QVSIPGCM user=ada\n", "text/plain")
    #expect(
      Redaction.default.redact(log).response.content.text
        == "level=info msg=start pin=%3Credacted:pin%3E user=ada\n")
    let harmless = Self.body("a = b and the page=2 is shown", "text/plain")
    #expect(Redaction.default.redact(harmless) == harmless)
  }

  @Test func semicolonSeparatedQueryParametersAndPathParameters() {
    let entry = HAR.Entry.sample(
      url: "https://api.example.com/app;jsessionid=SESSION-ID-1/items?a=1;token=TOKEN-VALUE-2;b=2")
    let redacted = Redaction.default.redact(entry)
    #expect(
      redacted.request.url
        == "https://api.example.com/app;jsessionid=%3Credacted:jsessionid%3E/items"
        + "?a=1;token=%3Credacted:token%3E;b=2")
  }

  @Test func aByteOrderMarkBeforeJSONDoesNotHideIt() {
    #expect(
      Self.redactedBody("\u{FEFF}{\"password\":\"hunter2hunter2\"}")
        == "\u{FEFF}{\"password\":\"<redacted:password>\"}")
  }

  @Test(arguments: [")]}'\n", ")]}',\n", "while(1);", "for(;;);"])
  func xssiPrefixesDoNotHideJSON(prefix: String) {
    #expect(
      Self.redactedBody(prefix + "{\"token\":\"hunter2hunter2\",\"n\":1}")
        == prefix + "{\"token\":\"<redacted:token>\",\"n\":1}")
  }

  @Test func eachLineOfNDJSONIsRedacted() {
    let text = "{\"token\":\"first-secret\"}\n{\"id\":2,\"apiKey\":\"second-secret\"}\n"
    #expect(
      Self.redactedBody(text, "application/x-ndjson")
        == "{\"token\":\"<redacted:token>\"}\n{\"id\":2,\"apiKey\":\"<redacted:apiKey>\"}\n")
  }

  @Test func jsonpIsRedactedInsideItsCallback() throws {
    let text = "/**/ handle.response({\"access_token\":\"hunter2hunter2\"});"
    #expect(
      Self.redactedBody(text, "application/javascript")
        == "/**/ handle.response({\"access_token\":\"<redacted:access_token>\"});")
    // JSON paths apply inside the callback too.
    let path = try Redaction.JSONPath("$.user.ssn")
    let entry = Self.body("cb({\"user\":{\"ssn\":\"123-45-6789\"}})", "text/javascript")
    #expect(
      Redaction(jsonPaths: [path]).redact(entry).response.content.text
        == "cb({\"user\":{\"ssn\":\"<redacted:user.ssn>\"}})")
  }

  /// Foundation and the ranged parser stop at 512 levels; the secrets below must not be
  /// skipped silently, so members are then found by name in the text.
  @Test func jsonNestedBeyondTheParsersLimitIsRedactedByMemberName() throws {
    let depth = 600
    let text =
      "{\"api_key\":\"shallow-secret\",\"nested\":" + String(repeating: "[", count: depth)
      + "{\"password\":\"deep-secret-1\",\"pin\":123456,\"secret\":987654321}"
      + String(repeating: "]", count: depth) + "}"
    let redacted = Self.redactedBody(text)
    #expect(!redacted.contains("shallow-secret"))
    #expect(!redacted.contains("deep-secret-1"))
    #expect(!redacted.contains("987654321"))
    #expect(redacted.contains("\"pin\":\"<redacted:pin>\""))
    #expect(redacted.contains("\"password\":\"<redacted:password>\""))
    #expect(redacted.contains("\"secret\":\"<redacted:secret>\""))
    // Still one document: only values changed.
    #expect(redacted.filter { $0 == "[" }.count == depth)
  }

  @Test func memberRulesCanBeAddedAndRemoved() {
    let body = "{\"ssn\":\"123-45-6789\",\"password\":\"hunter2hunter2\"}"
    let custom = Redaction(jsonMemberNames: ["SSN"]).redact(Self.body(body))
    #expect(
      custom.response.content.text == "{\"ssn\":\"<redacted:ssn>\",\"password\":\"hunter2hunter2\"}"
    )
    let added = Redaction.default.redactingJSONMembers("*_ssn", "ssn").redact(Self.body(body))
    #expect(
      added.response.content.text
        == "{\"ssn\":\"<redacted:ssn>\",\"password\":\"<redacted:password>\"}")
  }

  @Test func redactedJSONStaysValidJSON() throws {
    let text =
      "{\"a\":[{\"token\":{\"nested\":true}},{\"password\":12.5e3}],\"secret\":null,"
      + "\"note\":\"keep\"}"
    let redacted = Self.redactedBody(text)
    let object = try JSONSerialization.jsonObject(with: Data(redacted.utf8)) as? [String: Any]
    #expect(object?["secret"] as? String == "<redacted:secret>")
    #expect(object?["note"] as? String == "keep")
  }
}

/// Bodies of other content types that carry credentials by name.
@Suite struct RedactionBodyTypesTests {
  @Test func multipartPartsNamedLikeCredentialsAreRedacted() {
    let boundary = "XyZ123"
    let text =
      "--\(boundary)\r\nContent-Disposition: form-data; name=\"user\"\r\n\r\nada\r\n"
      + "--\(boundary)\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\nmulti-secret-1\r\n"
      + "--\(boundary)\r\nContent-Disposition: form-data; name=\"token\"; filename=\"t.txt\"\r\n\r\n"
      + "file-body\r\n--\(boundary)--\r\n"
    let redacted = RedactionPlacesTests.redactedBody(
      text, "multipart/form-data; boundary=\(boundary)")
    #expect(
      redacted == text.replacingOccurrences(of: "multi-secret-1", with: "<redacted:password>"))
    // Without a declared boundary, the body's first line names it.
    #expect(RedactionPlacesTests.redactedBody(text, "") == redacted)
  }

  /// A file field with no file chosen (`filename=""`, as browsers send it) is a field: a
  /// client can put a password in it all the same.
  @Test func aPartWithAnEmptyFileNameIsAField() {
    let boundary = "XyZ123"
    let text =
      "--\(boundary)\r\nContent-Disposition: form-data; name=\"password\"; filename=\"\"\r\n"
      + "Content-Type: application/octet-stream\r\n\r\nmulti-secret-2\r\n--\(boundary)--\r\n"
    #expect(
      RedactionPlacesTests.redactedBody(text, "multipart/form-data; boundary=\(boundary)")
        == text.replacingOccurrences(of: "multi-secret-2", with: "<redacted:password>"))
  }

  @Test func xmlElementsNamedLikeCredentialsAreRedacted() {
    let text =
      "<?xml version=\"1.0\"?><Envelope><wsse:Password Type=\"t\">xml-secret-1</wsse:Password>"
      + "<apiKey>xml-secret-2</apiKey><name>Ada</name></Envelope>"
    #expect(
      RedactionPlacesTests.redactedBody(text, "application/soap+xml")
        == "<?xml version=\"1.0\"?><Envelope><wsse:Password Type=\"t\">%3Credacted:Password%3E"
        + "</wsse:Password><apiKey>%3Credacted:apiKey%3E</apiKey><name>Ada</name></Envelope>")
  }

  @Test func urlsInsideBodiesAndHeadersHaveTheirQueriesRedacted() throws {
    var entry = RedactionPlacesTests.body(
      #"{"next":"https://app.example.com/cb?code=oauth-code-1&state=s","html":"<a href='/x?access_token=link-token-2'>"}"#
    )
    entry.response.headers = [
      HAR.Header(
        name: "Link", value: "<https://api.example.com/p?page=2&api_key=link-key-3>; rel=\"next\"")
    ]
    let redacted = Redaction.default.redact(entry)
    let text = try HAR(entries: [redacted]).encodedText
    for secret in ["oauth-code-1", "link-token-2", "link-key-3"] {
      #expect(!text.contains(secret), "\(secret) survived")
    }
    #expect(text.contains("state=s"))
    let body = try #require(redacted.response.content.body)
    #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: body) }
    #expect(Redaction.default.redact(redacted) == redacted)
  }
}

extension RedactionPlacesTests {
  /// A nested field's name (`user[password]`, as Rails and PHP write one) is judged by its last
  /// bracketed word wherever names are read: a GraphQL argument, an XML element, a quoted name.
  @Test func aBracketedNameIsJudgedByItsLastWord() {
    let graphQL =
      #"{"query": "mutation { login(user: \"ada\", user[password_confirmation]: \"pw-Qbu7RbNtGyG\") { id } }"}"#
    let redactedGraphQL = Self.redactedBody(graphQL, "application/json")
    #expect(!redactedGraphQL.contains("pw-Qbu7RbNtGyG"), "\(redactedGraphQL)")
    #expect(redactedGraphQL.contains(#"user: \"ada\""#), "\(redactedGraphQL)")
    let xml = "<req><ns:user[password] xmlns:ns='u'>fpz83yahxia5yve5sbh4</ns:user[password]></req>"
    let redactedXML = Self.redactedBody(xml, "application/xml")
    #expect(!redactedXML.contains("fpz83yahxia5yve5sbh4"), "\(redactedXML)")
    #expect(!LogRedaction.mask(xml).contains("fpz83yahxia5yve5sbh4"))
    let php = "<?php return ['user[password]' => 'hunter2hunter2', 'user[name]' => 'ada'];"
    #expect(
      Self.redactedBody(php, "application/x-httpd-php")
        == "<?php return ['user[password]' => '<redacted:user[password]>', 'user[name]' => 'ada'];"
    )
  }

  /// A multipart part in base64 is decoded whole, its padded last group too, and written back
  /// as base64 of valid JSON; a value of plain words under a credential's name is replaced
  /// there as in any JSON body.
  @Test(arguments: ["walnutmeadowzephyr", "5pv1znlwuom57eu818sj"])
  func aBase64MultipartPartIsReadWhole(value: String) throws {
    let json = Data(#"{"PHPSESSID": "\#(value)"}"#.utf8).base64EncodedString()
    let body =
      "--BND\r\nContent-Disposition: form-data; name=\"config\"\r\n"
      + "Content-Type: application/json\r\nContent-Transfer-Encoding: base64\r\n\r\n\(json)\r\n"
      + "--BND--\r\n"
    let redacted = Self.redactedBody(body, "multipart/form-data; boundary=BND")
    let part = try #require(redacted.split(separator: "\r\n").dropLast().last)
    let decoded = try #require(Data(base64Encoded: String(part)))
    #expect(String(decoding: decoded, as: UTF8.self) == #"{"PHPSESSID": "<redacted:PHPSESSID>"}"#)
  }

}
