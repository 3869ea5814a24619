import Foundation
import Testing

@testable import Understudy

/// Logs mask by the names ``Redaction/default`` redacts, in any spelling.
@Suite struct LogCredentialNameTests {
  @Test(arguments: [
    "Authorization", "proxy-authorization", "Cookie", "Set-Cookie", "X-CSRF-Token",
    "x_csrf_token", "xCsrfToken", "Private-Token", "PRIVATE-TOKEN", "Api-Key", "X-API-Key",
    "X-Amz-Security-Token", "x-auth", "X-Session",
  ])
  func credentialHeadersInAnySpellingAreRecognised(name: String) {
    #expect(CredentialName.isCredential(name, at: .header))
  }

  @Test(arguments: [
    "apiKey", "api_key", "accessToken", "access_token", "refresh_token", "client_secret",
    "clientSecret", "password", "Password", "passwd", "secret", "token", "session", "sig",
    "signature", "private_key",
  ])
  func credentialParametersAndMembersInAnySpellingAreRecognised(name: String) {
    #expect(CredentialName.isCredential(name, at: .parameter))
    #expect(
      CredentialName.isCredential(name, at: .jsonMember)
        || ["session", "sig", "signature"].contains(name))
  }

  @Test(arguments: [
    "Accept", "Content-Type", "User-Agent", "page", "name", "author", "max_tokens", "Keyboard",
    "monkey_count", "id", "X-Request-ID",
  ])
  func everydayNamesAreNot(name: String) {
    #expect(!CredentialName.isCredential(name, at: .header))
    #expect(!CredentialName.isCredential(name, at: .parameter))
  }

  @Test func oauthCodeIsACredentialAsAParameterOnly() {
    #expect(CredentialName.isCredential("code", at: .parameter))
    #expect(!CredentialName.isCredential("code", at: .jsonMember))
    #expect(!CredentialName.isCredential("code", at: .header))
  }
}

@Suite struct LogRedactionTests {
  @Test func aCredentialHeaderLineKeepsItsNameAndSchemeAndTheLength() {
    let value = String(repeating: "a", count: 42)
    #expect(
      LogRedaction.mask("  Authorization: Bearer \(value)")
        == "  Authorization: Bearer ••••(42 chars)")
    #expect(LogRedaction.mask("X-Api-Key: k3y-123") == "X-Api-Key: ••••(7 chars)")
    #expect(LogRedaction.mask("Accept: application/json") == "Accept: application/json")
  }

  @Test func headerAndRequestDescriptionsAreMasked() {
    let headers = HTTPHeaders(["Authorization": "Basic YWRhOmh1bnRlcjI=", "Accept": "*/*"])
    #expect(headers.description.contains("Authorization: Basic ••••(16 chars)"))
    #expect(headers.description.contains("Accept: */*"))
    let request = InterceptedRequest(
      url: URL(string: "https://ada:pw@api.test/cb?code=x1y2&page=1")!, headers: headers)
    #expect(
      request.description == "GET https://••••(6 chars)@api.test/cb?code=••••(4 chars)&page=1")
  }

  @Test func queryAndFormPairsAreMaskedByName() {
    #expect(
      LogRedaction.mask("GET https://h.test/cb?code=abc123&state=xyz&access_token=t0k;sig=s1g")
        == "GET https://h.test/cb?code=••••(6 chars)&state=xyz&access_token=••••(3 chars);sig=••••(3 chars)"
    )
    #expect(
      LogRedaction.mask("grant_type=password&password=hunter2")
        == "grant_type=password&password=••••(7 chars)")
  }

  @Test func generatedSwiftArgumentsAreMaskedByName() {
    #expect(
      LogRedaction.mask(#".query("code", "pin-123") && .header("Authorization", "Bearer abc")"#)
        == #".query("code", "••••(7 chars)") && .header("Authorization", "Bearer ••••(3 chars)")"#)
    #expect(LogRedaction.mask(#".query("page", "2")"#) == #".query("page", "2")"#)
  }

  @Test func userinfoIsMaskedWhole() {
    #expect(
      LogRedaction.mask("https://ada:hunter2@h.test/x") == "https://••••(11 chars)@h.test/x")
  }

  @Test func jsonMembersAreMaskedPlainAndInsideAJSONString() {
    #expect(
      LogRedaction.mask(#"{"user":"ada","apiKey":"k-1","n":{"Password":"p w"}}"#)
        == #"{"user":"ada","apiKey":"••••(3 chars)","n":{"Password":"••••(3 chars)"}}"#)
    #expect(
      LogRedaction.mask(#""text" : "{\"passwd\":\"hunter2\",\"a\":1}""#)
        == #""text" : "{\"passwd\":\"••••(7 chars)\",\"a\":1}""#)
  }

  @Test func credentialShapesAreMaskedWhateverTheirName() {
    let token = "ghp" + "_" + String(repeating: "Ab9", count: 12)
    #expect(LogRedaction.mask("note: \(token)") == "note: ghp_••••(36 chars)")
    let key = "AKIA" + "Z7QK2MV9PR4TW8ZB"
    #expect(LogRedaction.mask("ref=\(key)!") == "ref=AKIA••••(16 chars)!")
  }

  @Test func aPrivateKeyBlockIsMaskedBetweenItsMarkers() {
    let text = "-----BEGIN " + "EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY-----"
    let masked = LogRedaction.mask(text)
    #expect(!masked.contains("MHcCAQEE"))
    #expect(masked.hasSuffix("-----END EC PRIVATE KEY-----"))
  }

  @Test func maskingIsIdempotentAndLeavesPlaceholders() {
    let once = LogRedaction.mask("Authorization: Bearer abcdefghijklmnop\ntoken=abc", noting: true)
    #expect(LogRedaction.mask(once, noting: true) == once)
    #expect(once.components(separatedBy: LogRedaction.note).count == 2)
    #expect(
      LogRedaction.mask("Authorization: <redacted:authorization>")
        == "Authorization: <redacted:authorization>")
    #expect(LogRedaction.mask("token=%3Credacted:token%3E") == "token=%3Credacted:token%3E")
  }

  @Test func aMaskedValueDoesNotShieldACredentialLaterOnItsLine() {
    // A pair's value runs to the line's end, and a value holding a masked one was left whole:
    // a message quoting a request masked, then its URL raw, kept the raw copy.
    let quoted =
      "GET https://api.test/x?access_token=••••(6 chars) would go to "
      + "https://api.test/x?access_token=s3cr3t-later, said the test"
    #expect(
      LogRedaction.mask(quoted)
        == "GET https://api.test/x?access_token=••••(6 chars) would go to "
        + "https://api.test/x?access_token=••••(27 chars)")
    // Pairs the first pair's value swallowed, before the masked value and after it.
    let swallowed = LogRedaction.mask(
      "token=s3cr3t-1 password=s3cr3t-2 ••••(5 chars) token=s3cr3t-3")
    #expect(!swallowed.contains("s3cr3t"), "\(swallowed)")
    let afterPlaceholder = LogRedaction.mask("code=<redacted:code> then token=s3cr3t-4")
    #expect(afterPlaceholder == "code=<redacted:code> then token=••••(8 chars)")
    // What was masked already stays as written, and so does the text around it.
    for kept in [
      "Authorization: Bearer ••••(13 chars)", "token=AKIA••••(16 chars) then more",
      "GET https://api.test/x?token=••••(5 chars) was still waiting for its answer",
      "token=••••(3 chars)••••(4 chars) and the rest",
    ] {
      #expect(LogRedaction.mask(kept) == kept)
    }
  }

  @Test func aRuleWhoseValueEndsInsideAMaskedValueDoesNotTrap() {
    // A member's unquoted value ends at a space, the one inside `(3 chars)`, so the value
    // (`t••••(3`) ended inside the masked value it held, and masking trapped. FuzzCassette
    // found the same trap through a malformed cassette's error, where a percent-encoded
    // placeholder ran past a pair's value (Fixtures/Fuzz/cassette).
    let text = #""token": t••••(3 chars), "n": 1"#
    #expect(LogRedaction.mask(text) == text)
  }

  @Test func aPairInsideAnotherPairsValueIsStillRead() {
    // A pair's value runs to the line's end, and a whole pair was matched at once, so every
    // pair after a harmless one on its line went unread.
    #expect(LogRedaction.mask("page=1 token=s3cr3t") == "page=1 token=••••(6 chars)")
    #expect(
      LogRedaction.mask("GET https://api.test/cb?next=https://app.test/x?code=s3cr3t")
        == "GET https://api.test/cb?next=https://app.test/x?code=••••(6 chars)")
    #expect(
      LogRedaction.mask("see next=https://app.test/x?access_token=s3cr3t and more")
        == "see next=https://app.test/x?access_token=••••(15 chars)")
  }

  @Test func aCredentialsValueIsMaskedWholeWhenAnotherRuleMaskedPartOfIt() {
    // The URL's user information was masked first, and the pair whose value the URL is was
    // then refused as overlapping it: the rest of the value stayed, and masking the result
    // again masked more.
    let once = LogRedaction.mask("token=https://user:pw@api.test/x?")
    #expect(once == "token=••••(27 chars)")
    #expect(LogRedaction.mask(once) == once)
  }

  /// Masking made text that read differently: a value ending in the backslash of an escaped
  /// quote freed that quote (a JSON string cut short in a report became a whole one), and a
  /// value masked right after a token looked like the token's end. Masking the result again
  /// masked more.
  @Test(arguments: [
    (#""password":"x-api-key: \""#, #""password":"x-api-key: \""#),
    (#""password":"token=abc:\""#, #""password":"token=••••(4 chars)\""#),
    // A line of two words whose first is a credential's name is a `.properties` pair.
    ("Bearer abc123password=abcabc", "Bearer ••••(21 chars)"),
  ])
  func maskingLeavesNoTextThatReadsDifferently(text: String, masked: String) {
    let once = LogRedaction.mask(text)
    #expect(once == masked)
    #expect(LogRedaction.mask(once) == once)
  }

  @Test func textWithoutCredentialsIsUnchangedAndUnnoted() {
    let text = "Understudy: no stub matched GET https://api.test/users/7?page=2\n  Accept: */*"
    #expect(LogRedaction.mask(text, noting: true) == text)
  }
}

/// A credential header written inside a line, not at its start, is masked in logs too.
@Suite struct HeaderInLineTests {
  static let secret = plantedSecret("inline")

  @Test(arguments: [
    ("X-Note: forwarded X-Api-Key: \(secret)", "X-Note: forwarded X-Api-Key: "),
    ("curl -H 'X-Api-Key: \(secret)' https://api.test/x", "' https://api.test/x"),
    ("got text \"Authorization: Bearer \(secret)\" instead", "\" instead"),
    ("headers were Accept: */*, Private-Token: \(secret)", "Accept: */*, Private-Token: "),
    (
      "✗ header X-Note: expected == a, got \"forwarded X-Api-Key: \(secret)\"",
      "✗ header X-Note: expected == a, got \"forwarded X-Api-Key: "
    ),
  ])
  func aCredentialHeaderInsideALineIsMasked(text: String, kept: String) {
    let masked = LogRedaction.mask(text)
    #expect(!masked.contains(Self.secret))
    #expect(masked.contains(kept))
  }

  @Test func everydayWordsBeforeAColonAreLeftAlone() {
    let text = "error: the request to https://api.test/x failed; Accept: text/plain"
    #expect(LogRedaction.mask(text) == text)
  }
}

/// What the library prints of a WebSocket conversation is masked as any report is.
@Suite struct WebSocketTextMaskingTests {
  @Test func aMessageAndACloseReasonAreMaskedWhenPrinted() {
    let secret = plantedSecret("socket")
    let message = WebSocketMessage.text(#"{"type":"auth","access_token":"\#(secret)"}"#)
    #expect(!message.description.contains(secret))
    #expect(message.description.hasPrefix(#"text "{\"type\":\"auth\""#))
    #expect(!"\(WebSocketStep.send(message))".contains(secret))
    let closed = WebSocketClosedError(code: 4001, reason: "Authorization: Bearer \(secret)")
    #expect(!closed.description.contains(secret))
    #expect(closed.description.hasPrefix("the WebSocket is closed (code 4001, "))
  }
}

/// What a stub expects under a credential's name is printed masked: a test may read the value
/// from the environment, where it is a real key.
@Suite struct ExpectedCredentialMaskingTests {
  @Test func reportsAndDescriptionsMaskTheExpectedValueAndKeepTheComparison() async throws {
    let key = plantedSecret("expected")
    let registry = StubRegistry()
    let stub = registry.stub(
      .get("https://api.test/a") && .header("X-Api-Key", key) && .query("access_token", key)
        && .header("Accept", "application/json") && .header("Authorization"),
      .ok)
    var request = URLRequest(url: URL(string: "https://api.test/a?access_token=other-value-1")!)
    request.setValue("other-value-2", forHTTPHeaderField: "X-Api-Key")
    _ = try? await registry.makeSession().data(for: request)
    let report = try #require(registry.unmatchedReports.first).description
    let printed = [report, stub.description, stub.pattern.description, "\(registry.stubs)"]
    for text in printed {
      #expect(!text.contains(key), "\(text)")
      #expect(text.contains("header X-Api-Key == ••••(\(key.count) chars)"), "\(text)")
      #expect(text.contains("header Accept == application/json"), "\(text)")
      #expect(text.contains("header Authorization present"), "\(text)")
    }
    #expect(report.contains("✗ header X-Api-Key: expected == ••••(\(key.count) chars), got ••••("))
    #expect(
      report.contains(
        "✗ query access_token: expected == ••••(\(key.count) chars), got access_token=••••("))
    #expect(report.contains(LogRedaction.note))
  }
}

/// A request's credential shows once under its name and may show again elsewhere in the same
/// request: a report masks it everywhere it shows.
@Suite struct ReportEchoTests {
  @Test func aCredentialRepeatedInThePathAPairAndTheBodyIsMaskedThere() async throws {
    let secret = plantedSecret("echo")
    let cookie = "c00kie" + String(UUID().uuidString.prefix(8))
    let password = "pa55word" + String(UUID().uuidString.prefix(8))
    var request = URLRequest(
      url: URL(string: "https://api.test/keys/\(secret)/info?id=\(secret)&note=\(password)")!)
    request.httpMethod = "POST"
    request.setValue(secret, forHTTPHeaderField: "X-Api-Key")
    request.setValue("key=\(secret); also=\(cookie)", forHTTPHeaderField: "X-Debug")
    request.setValue("sid=\(cookie)", forHTTPHeaderField: "Cookie")
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(
      #"{"echo":"\#(secret)","password":"\#(password)","again":"\#(cookie)"}"#.utf8)
    let registry = StubRegistry()
    registry.stub(.post("https://api.test/keys/{key}/details"), .ok)
    let error = try await #require(throws: URLError.self) {
      try await registry.makeSession().data(for: request)
    }
    let report = try #require(registry.unmatchedReports.first).description
    for text in [report, String(describing: error)] {
      for planted in [secret, cookie, password] {
        #expect(!text.contains(planted), "\(planted) in \(text)")
      }
    }
    #expect(report.contains("https://api.test/keys/••••("))
    #expect(report.contains("✗ path: expected ~ /keys/{key}/details, got /keys/••••("))
    #expect(report.contains(LogRedaction.note))
  }

  /// A JSON document in base64, as a drift or a near miss prints a body sent wrapped, is masked
  /// whole when the document holds a credential; one that holds none is shown.
  @Test func aBase64JSONDocumentHoldingACredentialIsMaskedWhole() {
    let secret = Data(#"{"secret_key_base": "YMHwzJ!v"}"#.utf8).base64EncodedString()
    let line = #"first difference at line 1: expected "x", got ""# + secret + #"""#
    let masked = LogRedaction.mask(line)
    #expect(!masked.contains(secret.prefix(24)), "\(masked)")
    #expect(masked.contains(LogRedaction.marker))
    let plain = Data(#"{"id": 7, "name": "ada lovelace"}"#.utf8).base64EncodedString()
    #expect(LogRedaction.mask("got " + plain) == "got " + plain)
  }

  /// A form's password holding `&` and `<`, as a stub's `body(containing:)` quotes the form
  /// encoded (`%26%3C`): masked whole, as the cassette's form rule replaces it whole.
  @Test(arguments: ["&<", "&", "<", "%", "&amp;", "=<"])
  func anExpectedFormPasswordWithDelimitersIsMaskedWhole(delimiters: String) async throws {
    let password = "Kq7vXm2RzT9wLp4B" + delimiters + "Ns6Yc3Hd8Jf1Gk5M"
    let encoded = password.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    let registry = StubRegistry()
    registry.stub(.post("https://api.test/login") && .body(containing: "password=\(encoded)"), .ok)
    var request = URLRequest(url: URL(string: "https://api.test/login")!)
    request.httpMethod = "POST"
    request.httpBody = Data("user=ada&password=wrong-one".utf8)
    _ = try? await registry.makeSession().data(for: request)
    let report = try #require(registry.unmatchedReports.first).description
    for part in ["Kq7vXm2RzT9w", "Ns6Yc3Hd8Jf1"] {
      #expect(!report.contains(part), "\(report)")
    }
  }

  /// A regular expression's `\s` between a scheme and its token (`Bearer\s+…`) hid the
  /// bearer shape from masking, which reads the expression with its escapes undone.
  @Test(arguments: [#"\s+"#, #"\s*"#, #"\s"#])
  func aTokenAfterAnEscapedSpaceInAnExpressionIsMasked(space: String) async throws {
    let token = "Zt8Qw3Lm6Vx1Nb4Kc7Hd2Jf5Ps9Ya"
    let registry = StubRegistry()
    registry.stub(.post("https://api.test/hook") && .body(matching: "Bearer\(space)\(token)"), .ok)
    var request = URLRequest(url: URL(string: "https://api.test/hook")!)
    request.httpMethod = "POST"
    request.httpBody = Data("nothing here".utf8)
    _ = try? await registry.makeSession().data(for: request)
    let report = try #require(registry.unmatchedReports.first).description
    #expect(!report.contains(token.prefix(12)), "\(report)")
    #expect(!"\(registry.stubs)".contains(token.prefix(12)))
  }
}
