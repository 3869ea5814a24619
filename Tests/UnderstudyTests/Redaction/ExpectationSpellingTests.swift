import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What a stub expects, printed as a pattern's description, in a near-miss report and at the
/// end of a scope, in the spelling the pattern writes it: a query value percent-encoded, a
/// regular expression with `\` before punctuation. A blind attack (2026-12-06) found a
/// credential pair, URL user information and a SendGrid key shown through those escapes.
@Suite struct ExpectationSpellingTests {
  /// Every text a stub with `pattern` is printed in, unmatched and unused.
  static func printed(_ pattern: RequestPattern) async -> [String] {
    var texts = ["\(pattern)", String(reflecting: pattern)]
    let registry = StubRegistry()
    registry.stub(pattern, .ok)
    do {
      _ = try await registry.makeSession().data(
        from: URL(string: "https://elsewhere.test/x?page=1")!)
    } catch {
      texts += ["\(error)", error.localizedDescription]
    }
    texts += registry.endScope(
      testName: "t", verifying: [.allStubsUsed], location: SourceLocation()
    )
    .map(\.message)
    return texts
  }

  /// Every credential name of the generated corpus, in each spelling a query takes, as a pair
  /// in the URL a stub expects as a query value: none of the values is printed.
  @Test func aCredentialPairInAnExpectedQueryValueIsMaskedForEveryName() {
    var plants = GeneratedSecretCorpusTests.Plants(seed: 61)
    var printed: [String] = []
    for name in GeneratedSecretCorpusTests.names {
      for spelling in GeneratedSecretCorpusTests.spellings(of: name) {
        let value = plants.value("expected redirect_uri", spelling)
        let url = "http://app.test/cb?\(spelling)=\(value)&x=1"
        let encoded = EncodedQueryValueTests.encoded(url)
        let patterns: [RequestPattern] = [
          .query("redirect_uri", url), .query("redirect_uri", encoded),
          .get("https://api.test/login?redirect_uri=\(encoded)"),
          .url(matching: NSRegularExpression.escapedPattern(for: url)),
        ]
        for pattern in patterns { printed += ["\(pattern)", String(reflecting: pattern)] }
      }
    }
    #expect(plants.planted.count >= 1000)
    let leaks = plants.leaks(in: printed.joined(separator: "\n"))
    #expect(leaks.isEmpty, "\(leaks.count) leaks, first: \(leaks.prefix(20))")
  }

  @Test func theReportsOfAStubExpectingAPairInAQueryValueMaskIt() async {
    let token = "qmtrvxwz"
    let encoded = EncodedQueryValueTests.encoded("http://app.test/cb?token=\(token)")
    for value in ["http://app.test/cb?token=\(token)", encoded] {
      let texts = await Self.printed(.query("redirect_uri", value) && .path("/login"))
      #expect(texts.count >= 5)
      for text in texts { #expect(!text.contains(token), "\(text)") }
    }
    // The mask keeps the expectation readable: the name, and where the value was.
    let shown = "\(RequestPattern.query("redirect_uri", encoded))"
    #expect(shown.contains("token%3D••••(8 chars)"), "\(shown)")
  }

  @Test func aRegularExpressionsUserInformationIsMasked() async {
    let password = "quietharbor"
    let user = "ghp_" + String(repeating: "A1b2C3d4", count: 5).prefix(36)
    let patterns: [RequestPattern] = [
      .url(matching: #"^http:\/\/deploy:"# + password + #"@127\.0\.0\.1:8080\/api"#),
      .url(matching: #"^https:\/\/"# + user + #"@github\.com\/org\/repo\.git"#),
      // An escaped `@` in the password: the text after it is the password still.
      .url(matching: #"^http:\/\/deploy:pa%40"# + password + #"@127\.0\.0\.1:8080\/api"#),
    ]
    for pattern in patterns {
      for text in await Self.printed(pattern) {
        #expect(!text.contains(password) && !text.contains(user.dropFirst(4).prefix(8)), "\(text)")
      }
    }
  }

  /// A multipart part quoted without its boundary line: its header block (in any case, the
  /// name quoted or not), a blank line, then its content.
  @Test(arguments: [
    "CONTENT-DISPOSITION: form-data; name=\"password\"\r\n\r\n",
    "Content-Disposition: form-data; name=api_key\r\n\r\n",
    "content-disposition: form-data; name=\"token\"\r\nContent-Type: text/plain\r\n\r\n",
    "Content-Disposition: form-data; name=\"password\"\n\n",
  ])
  func aPartQuotedWithoutItsBoundaryIsMasked(header: String) async {
    let secret = "Iw0YwaO3y0hw5gTsuCqi7OvK"
    for text in await Self.printed(.body(containing: header + secret)) {
      #expect(!text.contains(secret.prefix(10)), "\(text)")
    }
  }

  @Test func aSendGridKeyWrittenAsARegularExpressionIsMasked() async {
    let first = "Ab3dEf6hIj9kLm2nOp5qRs"
    let second = "Tu8vWx1yZa4bCd7eFg0hIj3kLm6nOp9qRs2tUv5wXy8"
    let key = "SG.\(first).\(second)"
    #expect(LogRedaction.mask(key) != key)
    for text in await Self.printed(.body(matching: #"key=SG\."# + first + #"\."# + second)) {
      #expect(!text.contains(first.prefix(6)) && !text.contains(second.prefix(6)), "\(text)")
    }
  }

  @Test func unescapingMapsEachByteBackToItsSpelling() {
    let (copy, sources) = SpelledExpectation.unescaped(Array(#"a%3Db\.c%C3%A9"#.utf8))
    #expect(String(decoding: copy, as: UTF8.self) == "a=b.c%C3%A9")
    #expect(sources[1] == 1..<4 && sources[3] == 5..<7)
    #expect(SpelledExpectation.maskingUnescaped("plain", naming: nil) == "plain")
  }
}
