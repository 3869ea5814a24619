import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A secret inside a field's NAME (a JSON member, a query or form parameter, a header, a held
/// name, a CSV column) never reaches output through the placeholder made from that name, nor
/// through the name where output keeps names (``PlaceholderNameGate``). Generated: every secret
/// kind in every placement, each artifact grepped for the secret as written and lower-cased.
@Suite struct SecretInNameTests {
  /// Vendor tokens of several vendors, and a value a cassette declares.
  static let vendorTokens = [
    "ghp_" + "Zq8Rw2Lm5Tx9Vb3Nc7Kd1Hf6Jg4Ps0Ya2Ue",
    "glpat-" + "Xb7Qw2Er9Ty4Ui1OpAs5D",
    "npm_" + "Kd8Lm2Qw7Er3Ty9Ui4Op1As6Df5Gh0JkZx",
    "sk_live_" + "Rw4Tx8Vb2Nc6Kd0Hf3Jg7Ps1Y",
  ]
  static let declared = "DeclNm7Qx2Wv9Lk4"

  /// The ways a name carries a credential, each request answering `secret` placed in it.
  static func requests(for secret: String) -> [(place: String, request: URLRequest)] {
    let base = "https://names.test/api"
    func post(_ body: String, _ type: String) -> URLRequest {
      var request = URLRequest(url: URL(string: base)!)
      request.httpMethod = "POST"
      request.httpBody = Data(body.utf8)
      request.setValue(type, forHTTPHeaderField: "Content-Type")
      return request
    }
    var header = URLRequest(url: URL(string: base)!)
    header.setValue("hv-1", forHTTPHeaderField: "X-\(secret)-Token")
    return [
      ("query name", URLRequest(url: URL(string: "\(base)?\(secret)_api_key=qv-1")!)),
      ("header name", header),
      ("JSON member", post(#"{"\#(secret)_token":"mv-1"}"#, "application/json")),
      (
        "held name",
        post(#"{"name":"\#(secret)_password","value":"hv-2"}"#, "application/json")
      ),
      ("form name", post("\(secret)_secret=fv-1&a=1", "application/x-www-form-urlencoded")),
      ("CSV column", post("id,\(secret)_api_key\n1,cv-1\n", "text/csv")),
    ]
  }

  /// Where `secret` shows in `text`: as written, lower-cased, or inside a placeholder's name.
  static func leaks(of secret: String, in text: String, namesOnly: Bool) -> [String] {
    let lowered = secret.lowercased()
    guard namesOnly else {
      return [secret, lowered].filter { text.contains($0) }
    }
    return RedactionPlaceholder.spans(in: text).map { String(text[$0]) }
      .filter { $0.lowercased().contains(lowered) }
  }

  @Test(arguments: vendorTokens + [declared])
  func noSecretInANameReachesAnyArtifact(secret: String) async throws {
    let isDeclared = secret == Self.declared
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("understudy-names-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    // Declared by a cassette that is not the registry's own: every report honours it anyway.
    let redaction = Redaction.default.redactingValues(["dl": Self.declared])
    _ = Cassette(
      at: folder.appendingPathComponent("other.har"), options: CassetteOptions(redaction: redaction)
    )

    for (place, request) in Self.requests(for: secret) {
      let answering = StubRegistry()
      answering.stub(.any, .ok)
      _ = try? await answering.makeSession().data(for: request)
      let journal = answering.journal
      var artifacts: [(String, String, Bool)] = []
      // The cassette: the journal as recorded, redacted by the cassette's rules. A vendor token
      // in a name makes the write refuse (the scan), so there only placeholders are judged.
      let recorded = HAR(
        entries: journal.map { entry in
          HAR.Entry(
            request: entry.request, response: HAR.Response(status: 200, headers: [:], body: nil),
            startedDateTime: entry.date, duration: .zero)
        })
      let cassette = try redaction.redact(recorded).encoded()
      artifacts.append(("cassette", String(decoding: cassette, as: UTF8.self), !isDeclared))
      let journalHAR = try HAR(journal: journal, name: "names").encoded()
      artifacts.append(("journal HAR", String(decoding: journalHAR, as: UTF8.self), false))
      let attachment = try #require(
        TrafficAttachmentWriter.attachmentBytes(of: answering, testName: "names"))
      artifacts.append(("attachment", String(decoding: attachment, as: UTF8.self), false))
      let missing = StubRegistry()
      missing.stub(.get("https://elsewhere.test/never"), .ok)
      do {
        _ = try await missing.makeSession().data(for: request)
        Issue.record("\(place): an unmatched request was answered")
      } catch {
        artifacts.append(("near-miss report", "\(error)\n\(error.localizedDescription)", false))
      }
      for (output, text, namesOnly) in artifacts {
        let found = Self.leaks(of: secret, in: text, namesOnly: namesOnly)
        // Known: masking a form body reads `name=<placeholder>` as a pair it need not look at,
        // so an npm token (fixed length, then `_api_key`) in a form name's is shown. A query
        // name's is masked (`LogRedaction.mask(url:)` masks names as text).
        withKnownIssue("an npm token in a form name before a placeholder is not masked") {
          #expect(found.isEmpty, "\(place) → \(output): \(found)")
        } when: {
          !found.isEmpty && secret.hasPrefix("npm_") && "\(place)" == "form name"
        }
      }
    }
  }

  @Test func aPlaceholderNameHoldingASecretBecomesItsCredentialWord() {
    let token = Self.vendorTokens[0]
    #expect(RedactionPlaceholder.name(from: "\(token)_token") == "token")
    #expect(RedactionPlaceholder.name(from: "x-\(token.lowercased())-api-key") == "api_key")
    #expect(RedactionPlaceholder.name(from: "\(token)_password") == "password")
    #expect(RedactionPlaceholder.name(from: "x-kq7wz3rt9pl2mn5v8-dbpassword") == "password")
    #expect(RedactionPlaceholder.name(from: "access_token") == "access_token")
    #expect(RedactionPlaceholder.name(from: "x-hub-signature-256") == "x-hub-signature-256")
    #expect(RedactionPlaceholder.name(from: "oauth2accesstoken") == "oauth2accesstoken")
  }

  /// A JSON path's default placeholder name is its path: a key that is a token or a long random
  /// run (`$['ghp_…']`, what a user copies from a body keyed by secrets) became the name, and
  /// was written beside the value it replaced.
  @Test(arguments: [vendorTokens[0], "Kq7wZ3rT9pL2mN5v8XyB4cD6eF1gH0"])
  func aJSONPathWhoseKeyIsASecretNamesNoPlaceholderAfterIt(key: String) throws {
    let body = #"{"sessions":{"\#(key)":"v-\#(key.prefix(4))-value-1"},"page":2}"#
    for expression in ["$.sessions['\(key)']", "$.sessions[\"\(key)\"]", "$..\(key)"] {
      let path = try Redaction.JSONPath(expression)
      #expect(!path.name.contains(key.prefix(16)), "\(expression) → \(path.name)")
      let entry = HAR.Entry.sample(
        content: HAR.Content(body: Data(body.utf8), mimeType: "application/json"))
      let text = try #require(
        Redaction.default.redactingJSON(path).redact(entry).response.content.text)
      #expect(!text.contains("-value-1"), "\(expression): \(text)")
      // The member's own name is the body's (the write gate refuses a cassette holding a token
      // there); the placeholder's is ours.
      for placeholder in RedactionPlaceholder.spans(in: text) {
        #expect(!text[placeholder].contains(key.prefix(16)), "\(expression): \(text)")
      }
    }
  }

  /// A cassette named with a known value is written under the value's name, not the value.
  @Test func aCassetteFileNameHoldsNoKnownValue() {
    let value = "FileNm8Rt3Yx6Wq1"
    KnownValues.declare(["file_secret": value])
    for name in ["dl-\(value)", "dl-\(value.lowercased())", "\(value)/x"] {
      let url = CassetteLocation.folder(URL(fileURLWithPath: "/tmp"))
        .url(forCassetteNamed: name, testFilePath: #filePath)
      #expect(!url.path.lowercased().contains(value.lowercased()), "\(url.path)")
    }
    #expect(CassetteName.fileName("dl-\(value)") == "dl-redacted-file_secret.har")
  }

  /// A file name built before the cassette that declares the value (`url(forCassetteNamed:)`,
  /// then `Cassette(at:)` with `redactingValues`) loses the value when the cassette is made, in
  /// every case it is written in.
  @Test func aDeclaredValueInAFileNameBuiltBeforeItsCassetteIsReplaced() {
    let value = "Bf7Qz2IkC8uLDL2clxlZFuKk"
    let folder = CassetteLocation.folder(URL(fileURLWithPath: NSTemporaryDirectory()))
    for spelled in [value, value.uppercased(), value.lowercased()] {
      let url = folder.url(forCassetteNamed: "run-\(spelled)", testFilePath: #filePath)
      let cassette = Cassette(
        at: url, mode: .never,
        options: CassetteOptions(
          redaction: Redaction.default.redactingValues(["name_built_before": value])))
      #expect(
        !cassette.url.lastPathComponent.lowercased().contains(value.lowercased()),
        "\(cassette.url.lastPathComponent)")
      #expect(cassette.url.lastPathComponent == "run-redacted-name_built_before.har")
    }
  }

  /// Every cassette's file name passes the gate a parameterized test's arguments pass: a
  /// token's shape written into a name (`url(forCassetteNamed:)`, `.cassette("…")`) is
  /// replaced by `redacted-` and a digest, wherever it stands in the name and wherever the
  /// cassette is kept; two tokens still name two files.
  @Test(
    arguments: vendorTokens + [
      "github_pat_" + "11ABCDEFG0"
        + "Zq8Rw2Lm5Tx9Vb3Nc7Kd1Hf6Jg4Ps0Ya2UeQw7Er3Ty9Ui4Op1As6Df5Gh0JkZxCvB",
      "xoxb-" + "2048377171-4402347122-" + "Zq8Rw2Lm5Tx9Vb3Nc7Kd1Hf6",
      "AKIA" + "QW3RT7YU1OP5AS9D",
    ])
  func aCredentialsShapeNeverReachesACassettesFileName(token: String) {
    // The token's random part: a vendor's prefix (`sk_live_`) is no secret.
    let secret = Array(token.suffix(20))
    let windows = (0...(secret.count - 8)).map { String(secret[$0..<($0 + 8)]) }
    var files: Set<String> = []
    for name in ["user-\(token)", token, "load \(token) (admin)", "a/\(token)/b", "x \(token).har"]
    {
      for location in [
        CassetteLocation.folder(URL(fileURLWithPath: "/tmp/cassettes")), .besideTestFile,
      ] {
        let file = location.url(forCassetteNamed: name, testFilePath: #filePath).lastPathComponent
        #expect(!windows.contains { file.contains($0) }, "\(file)")
        #expect(LogRedaction.mask(file) == file, "\(file)")
        #expect(file.contains("redacted-"), "\(file)")
        files.insert(file)
      }
    }
    #expect(files.count == 5)
    // Another token of the same shape names another file.
    let other = String(token.dropLast(4)) + "Wq3Z"
    #expect(CassetteName.fileName("user-\(other)") != CassetteName.fileName("user-\(token)"))
  }

  /// A declared value in a cassette's name in another spelling: lower or upper case, as a slug
  /// writes it, and base64 or base64url, as an id built from it is.
  @Test func aDeclaredValueInAnySpellingNeverReachesAFileName() {
    let value = "FnVal8Qx2Wv9Lk4Zt"
    KnownValues.declare(["file_name_value": value])
    let base64URL = Data(value.utf8).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
    for name in [
      "dl-" + value.lowercased(), "dl-" + value.uppercased(), "dl-" + base64URL,
      "dl-" + Data(value.utf8).base64EncodedString(),
    ] {
      let file = CassetteName.fileName(name)
      #expect(!file.lowercased().contains(value.lowercased()), "\(file)")
      #expect(!file.contains(String(base64URL.prefix(16))), "\(file)")
    }
  }

  /// A name holding no credential keeps the file it always had.
  @Test func aCassetteNameWithoutACredentialKeepsItsFile() {
    for name in [
      "loadsAUser", "user 42 (admin)", "password-reset-flow", "refreshesAccessToken",
      "token-rotation-v2", "greets-Ada-Lovelace--3f2a91c0", "api_key_missing", "users.har",
      "login with wrong password", "session expired after 30 minutes",
    ] {
      let expected = CassetteName.sanitized(name)
      #expect(
        CassetteName.fileName(name) == (expected.hasSuffix(".har") ? expected : expected + ".har"),
        "\(name)")
    }
  }
}

/// Secrets.md: a value any cassette of the run declared is masked in every report. A traffic
/// attachment redacts with the test's own rules, so those take every declared value too.
@Suite struct DeclaredValueAttachmentTests {
  @Test func anAttachmentReplacesAValueAnotherCassetteDeclared() async throws {
    let value = "AttDecl6Vn3Qp9Xs"
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("understudy-declared-\(UUID().uuidString)")
    _ = Cassette(
      at: folder.appendingPathComponent("other.har"),
      options: CassetteOptions(redaction: .default.redactingValues(["att": value])))
    let registry = StubRegistry()
    registry.stub(.any, .ok)
    var request = URLRequest(url: URL(string: "https://names.test/\(value)/x")!)
    request.httpMethod = "POST"
    request.setValue("text/plain; charset=utf-16le", forHTTPHeaderField: "Content-Type")
    request.httpBody = "note \(value) end".data(using: .utf16LittleEndian)
    _ = try? await registry.makeSession().data(for: request)
    let bytes = try #require(TrafficAttachmentWriter.attachmentBytes(of: registry, testName: "t"))
    let journal = try HAR(journal: registry.journal, name: "t").encoded()
    let utf16 = Data("note \(value) end".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
    for text in [String(decoding: bytes, as: UTF8.self), String(decoding: journal, as: UTF8.self)] {
      #expect(!text.contains(value) && !text.contains(value.lowercased()))
      #expect(!text.contains(utf16.base64EncodedString()))
      #expect(text.contains("redacted:att"))
    }
  }
}
