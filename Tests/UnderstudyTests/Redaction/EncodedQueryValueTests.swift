import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A query or form value no rule names that holds, behind percent-encoding, text with a
/// credential named inside it: JSON (`state={"csrf":"…"}`, an OAuth `state`) or pairs
/// (`next=/home?token=…`). A blind attack (2026-12-06) found the JSON written as it was in
/// every artifact. The values here are short and shaped like no credential, so only the names
/// inside the value can have them removed, and no echo search (six characters or more) can;
/// the pair in a URL inside a value is left to the nested-pairs reading, which finds it by
/// echo.
@Suite struct EncodedQueryValueTests {
  static let csrf = "qzjx"
  /// A URL's pair inside a value is found by the nested-pairs reading, which remembers it as
  /// an echo: six characters or more.
  static let token = "wvkqzt"

  /// `text` percent-encoded `levels` times, as `encodeURIComponent` writes it.
  static func encoded(_ text: String, levels: Int = 1) -> String {
    var text = text
    for _ in 0..<levels {
      text = text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }
    return text
  }

  static func url(levels: Int = 1) -> String {
    "https://api.test/cb?state=" + encoded(#"{"csrf":"\#(csrf)","n":1}"#, levels: levels)
      + "&next=" + encoded("/home?token=\(token)", levels: levels) + "&page=2"
  }

  static func leaks(_ text: String) -> [String] {
    [csrf, token].filter { text.contains($0) }
  }

  @Test(arguments: [1, 2, 3])
  func theCassetteRedactsInsideAnEncodedValue(levels: Int) throws {
    let form = "state=" + Self.encoded(#"{"password":"\#(Self.csrf)"}"#, levels: levels) + "&a=1"
    let entry = HAR.Entry.sample(
      method: "POST", url: Self.url(levels: levels),
      postData: HAR.PostData(mimeType: "application/x-www-form-urlencoded", text: form))
    let redacted = Redaction.default.redact(HAR(entries: [entry]))
    let text = try redacted.encodedText
    #expect(Self.leaks(text).isEmpty, "\(text)")
    #expect(try Redaction.default.redact(redacted).encodedText == text)
    let written = redacted.log.entries[0].request.url
    #expect(URL(string: written) != nil)
    #expect(written.contains("&page=2"))
    // Decoded back, the value is still JSON, with a placeholder for the credential.
    let state = try #require(
      URLComponents(string: written)?.queryItems?.first { $0.name == "state" }?.value)
    var json = state
    for _ in 1..<levels { json = json.removingPercentEncoding ?? json }
    #expect(json.hasPrefix(#"{"csrf":"<redacted:csrf"#), "\(json)")
  }

  /// Any text a body rule reads, behind escapes in a query or form value: a pair with no blank
  /// after its colon, markup, prose that names a value. Everyday values behind escapes (a search,
  /// a path, a time) keep their bytes.
  @Test(arguments: [1, 2])
  func everyTextShapeIsReadBehindEscapes(levels: Int) throws {
    let secret = CredentialLineTests.values(seed: UInt64(levels))[0]
    let shapes = [
      "password:\(secret)", "api_key: \(secret)", "<config><apiKey>\(secret)</apiKey></config>",
      "<wsse:Password>\(secret)</wsse:Password>", "your password is \(secret)",
      "token \(secret)",
    ]
    for shape in shapes {
      let value = Self.encoded(shape, levels: levels)
      let entry = HAR.Entry.sample(
        method: "POST", url: "https://api.test/search?q=\(value)&page=2",
        postData: HAR.PostData(
          mimeType: "application/x-www-form-urlencoded", text: "cfg=\(value)&a=1"))
      let redacted = Redaction.default.redact(HAR(entries: [entry]))
      let text = try redacted.encodedText
      #expect(!text.contains(secret), "\(shape) (\(levels)): \(text)")
      #expect(try Redaction.default.redact(redacted).encodedText == text)
      #expect(!LogRedaction.mask(url: "https://api.test/search?q=\(value)").contains(secret))
    }
    for everyday in ["hello world", "/home/ada", "10:15", "a<b", "size: 12"] {
      let url = "https://api.test/search?q=\(Self.encoded(everyday, levels: levels))"
      let entry = HAR.Entry.sample(url: url)
      #expect(Redaction.default.redact(entry).request.url == url)
    }
  }

  @Test func theDecodedQueryStringValueIsRedactedToo() throws {
    var entry = HAR.Entry.sample(url: Self.url())
    entry.request.queryString = [
      HAR.NameValue(name: "state", value: #"{"csrf":"\#(Self.csrf)"}"#)
    ]
    let text = try Redaction.default.redact(HAR(entries: [entry])).encodedText
    #expect(Self.leaks(text).isEmpty, "\(text)")
  }

  @Test(arguments: [1, 2, 3])
  func reportsMaskAnEncodedValue(levels: Int) {
    let url = Self.url(levels: levels)
    #expect(Self.leaks(LogRedaction.mask(url: url)).isEmpty, "\(LogRedaction.mask(url: url))")
    #expect(Self.leaks(LogRedaction.mask("GET \(url) HTTP/1.1")).isEmpty)
    #expect(Self.leaks(CompiledRedaction.forReports.redactedURL(url)).isEmpty)
  }

  @Test func noArtifactOfARequestShowsAnEncodedValue() async throws {
    let request = URLRequest(url: URL(string: Self.url())!)
    let answering = StubRegistry()
    answering.stub(.any, .ok)
    _ = try? await answering.makeSession().data(for: request)
    var artifacts: [(String, String)] = []
    let journal = try HAR(journal: answering.journal, name: "t").encodedText
    artifacts.append(("journal HAR", journal))
    let attachment = try #require(
      TrafficAttachmentWriter.attachmentBytes(of: answering, testName: "t"))
    artifacts.append(("attachment", String(decoding: attachment, as: UTF8.self)))
    let missing = StubRegistry()
    missing.stub(.get("https://api.test/cb") && .query("page", "3"), .ok)
    do {
      _ = try await missing.makeSession().data(for: request)
      Issue.record("an unmatched request was answered")
    } catch {
      artifacts.append(("near-miss report", "\(error)\n\(error.localizedDescription)"))
    }
    for (name, text) in artifacts {
      #expect(Self.leaks(text).isEmpty, "\(name): \(text)")
    }
  }

  /// A query escaped into a path segment (`/x%3Faccess_token%3D…`, a URL built by escaping
  /// another into its path), once or more (`%253F`), escapes in either case, is read as the
  /// query it decodes to, in cassettes, in every URL a report or an error shows, and in the
  /// failing URL of a `URLError`.
  @Test(arguments: [(1, false), (1, true), (2, false), (2, true), (3, false)])
  func aQueryEscapedIntoAPathIsRead(times: Int, lowerCase: Bool) async throws {
    let secret = "Pq7vXm2KzR9wLt4B"
    var query = "?access_token=\(secret)&page=2"
    for _ in 0..<times {
      query = query.replacing("%", with: "%25").replacing("?", with: "%3F")
        .replacing("=", with: "%3D").replacing("&", with: "%26")
    }
    if lowerCase { query = query.replacing("%3F", with: "%3f") }
    let url = "https://api.test/go/cb\(query)/next"
    let entry = HAR.Entry.sample(url: url)
    let text = try Redaction.default.redact(HAR(entries: [entry])).encodedText
    #expect(!text.contains(secret), "\(text)")
    #expect(text.contains("page%") && text.contains("2/next"), "the rest is kept: \(text)")
    #expect(!LogRedaction.mask(url: url).contains(secret), "\(LogRedaction.mask(url: url))")
    let missing = StubRegistry()
    missing.stub(.get("https://api.test/other"), .ok)
    do {
      _ = try await missing.makeSession().data(from: URL(string: url)!)
      Issue.record("an unmatched request was answered")
    } catch {
      for shown in [String(reflecting: error), error.localizedDescription] {
        #expect(!shown.contains(secret), "\(shown)")
      }
    }
  }
}
