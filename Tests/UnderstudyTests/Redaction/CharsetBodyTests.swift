import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A JSON or form body in ISO-8859-1 or UTF-16 is not UTF-8, so a cassette stores it as base64;
/// the rules still apply to it, and it is written back in its own charset.
@Suite struct CharsetBodyTests {
  static let password = "charset-pass-q7xK2mV9"
  static let latin1JSON = #"{"name":"café","password":"\#(password)"}"#
  static let latin1Form = "user=josé&password=\(password)"

  /// Where `secret` appears in `text` or in a body `text` decodes to, in any of the charsets a
  /// body here is written in.
  static func leaks(of secret: String, in text: String) throws -> [String] {
    var places: [String] = []
    if text.contains(secret) { places.append("text") }
    let har = try HAR.decode(Data(text.utf8), source: "leaks.har")
    for (index, entry) in har.log.entries.enumerated() {
      for (name, body) in [
        ("request", entry.request.postData?.body), ("response", entry.response.content.body),
      ] {
        guard let body else { continue }
        for encoding in [
          String.Encoding.isoLatin1, .utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian,
          .utf32BigEndian,
        ]
        where body.range(of: try #require(secret.data(using: encoding))) != nil {
          places.append("entry \(index) \(name) body")
        }
      }
    }
    return places
  }

  static func entry(request: Data, requestType: String, response: Data, responseType: String)
    -> HAR.Entry
  {
    HAR.Entry.sample(
      method: "POST", url: "https://api.example.com/login",
      postData: HAR.PostData(body: request, mimeType: requestType),
      content: HAR.Content(body: response, mimeType: responseType))
  }

  @Test func aLatin1JSONBodyIsRedactedAndStaysLatin1() throws {
    let type = "application/json; charset=iso-8859-1"
    let body = try #require(Self.latin1JSON.data(using: .isoLatin1))
    // The response repeats the password elsewhere, as an echo.
    let echo = try #require(
      #"{"greeting":"olá","seen":"\#(Self.password)"}"#.data(using: .isoLatin1))
    let har = HAR(entries: [
      Self.entry(request: body, requestType: type, response: echo, responseType: type)
    ])
    #expect(har.log.entries[0].request.postData?.encoding == "base64")
    #expect(!CredentialScanner().scan(har).isEmpty)

    let redacted = Redaction.default.redact(har)
    #expect(try Self.leaks(of: Self.password, in: redacted.encodedText) == [])
    let entry = redacted.log.entries[0]
    let request = try #require(entry.request.postData?.body)
    #expect(
      String(data: request, encoding: .isoLatin1)
        == #"{"name":"café","password":"<redacted:password>"}"#)
    let response = try #require(entry.response.content.body)
    #expect(
      String(data: response, encoding: .isoLatin1)
        == #"{"greeting":"olá","seen":"<redacted:password>"}"#)
    #expect(entry.response.content.size == response.count)
    #expect(Redaction.default.redact(redacted) == redacted)
    #expect(CredentialScanner().scan(redacted: redacted) == [])
  }

  /// UTF-16 and UTF-32 without a byte order mark or a charset are valid UTF-8 with NULs between
  /// the characters: they are read in the charset their NULs show, redacted, written back in
  /// it, and scanned.
  @Test(arguments: [
    (String.Encoding.utf16LittleEndian, "application/json"),
    (.utf16BigEndian, "text/plain"),
    (.utf32LittleEndian, "application/x-www-form-urlencoded"),
    (.utf32BigEndian, "application/json"),
  ])
  func unicodeWithoutAMarkIsReadByItsNULs(encoding: String.Encoding, type: String) throws {
    let text =
      type.hasSuffix("json")
      ? #"{"user":"ada","password":"\#(Self.password)"}"# : "user=ada&password=\(Self.password)"
    let body = try #require(text.data(using: encoding))
    #expect(body.prefix(2) != Data([0xFF, 0xFE]) && body.prefix(2) != Data([0xFE, 0xFF]))
    let har = HAR(entries: [
      Self.entry(request: body, requestType: type, response: body, responseType: type)
    ])
    #expect(!CredentialScanner().scan(har).isEmpty)
    let redacted = Redaction.default.redact(har)
    #expect(try Self.leaks(of: Self.password, in: redacted.encodedText) == [])
    let response = try #require(redacted.log.entries[0].response.content.body)
    #expect(String(data: response, encoding: encoding)?.contains("redacted") == true)
    let request = InterceptedRequest(
      {
        var request = URLRequest(url: URL(string: "https://api.test/login")!)
        request.httpMethod = "POST"
        request.setValue(type, forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        return request
      }())
    let report = NearMissReport(request: request, stubs: []).description
    #expect(!report.replacingOccurrences(of: "\0", with: "").contains(Self.password))
  }

  @Test func aLatin1FormWithoutACharsetIsRedacted() throws {
    let form = try #require(Self.latin1Form.data(using: .isoLatin1))
    let xml = try #require(
      "<login><user>zoë</user><password>\(Self.password)</password></login>".data(
        using: .windowsCP1252))
    let har = HAR(entries: [
      Self.entry(
        request: form, requestType: "application/x-www-form-urlencoded", response: xml,
        responseType: "text/xml; charset=windows-1252")
    ])
    #expect(!CredentialScanner().scan(har).isEmpty)
    let redacted = Redaction.default.redact(har)
    #expect(try Self.leaks(of: Self.password, in: redacted.encodedText) == [])
    let entry = redacted.log.entries[0]
    let request = try #require(entry.request.postData?.body)
    #expect(
      String(data: request, encoding: .isoLatin1)?.hasPrefix("user=josé&password=%3Credacted")
        == true)
    let response = try #require(entry.response.content.body)
    #expect(String(data: response, encoding: .windowsCP1252)?.contains("<user>zoë</user>") == true)
  }

  @Test func aUTF16JSONBodyIsRedactedInItsByteOrder() throws {
    // With a byte order mark, and big-endian without one, whose ASCII bytes are also UTF-8.
    let marked = try #require(Self.latin1JSON.data(using: .utf16))
    let plain = #"{"password":"\#(Self.password)"}"#
    let unmarked = try #require(plain.data(using: .utf16BigEndian))
    let har = HAR(entries: [
      Self.entry(
        request: marked, requestType: "application/json; charset=utf-16", response: unmarked,
        responseType: "application/json; charset=UTF-16BE")
    ])
    #expect(CredentialScanner().scan(har).count == 2)
    let redacted = Redaction.default.redact(har)
    #expect(try Self.leaks(of: Self.password, in: redacted.encodedText) == [])
    let entry = redacted.log.entries[0]
    let request = try #require(entry.request.postData?.body)
    #expect(request.prefix(2) == marked.prefix(2))
    #expect(
      String(data: request, encoding: .utf16)
        == #"{"name":"café","password":"<redacted:password>"}"#)
    let response = try #require(entry.response.content.body)
    #expect(
      String(data: response, encoding: .utf16BigEndian) == #"{"password":"<redacted:password>"}"#)
  }

  @Test func aLatin1FormToAStubIsRedactedInTheTrafficAttachment() async throws {
    let registry = StubRegistry()
    registry.stub(.post("https://api.test/login"), .ok)
    var post = URLRequest(url: URL(string: "https://api.test/login")!)
    post.httpMethod = "POST"
    post.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
    post.httpBody = Self.latin1Form.data(using: .isoLatin1)
    _ = try await registry.makeSession().data(for: post)
    let bytes = try #require(TrafficAttachmentWriter.attachmentBytes(of: registry, testName: "t"))
    #expect(try Self.leaks(of: Self.password, in: String(decoding: bytes, as: UTF8.self)) == [])
  }

  @Test func aRecordedLatin1BodyIsRedactedAndReplaysInLatin1() async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("understudy-charset-\(UUID().uuidString).har")
    defer { try? FileManager.default.removeItem(at: file) }
    let type = "application/json; charset=iso-8859-1"
    var post = URLRequest(url: server.url("/reply?type=application/json;%20charset=iso-8859-1"))
    post.httpMethod = "POST"
    post.setValue(type, forHTTPHeaderField: "Content-Type")
    post.httpBody = Self.latin1JSON.data(using: .isoLatin1)
    let recording = StubRegistry()
    let recorder = Cassette(at: file, mode: .missing)
    recording.use(recorder)
    let (recorded, _) = try await recording.makeSession().data(for: post)
    #expect(recorded == post.httpBody)
    #expect(recorder.finish().isEmpty)
    let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
    #expect(try Self.leaks(of: Self.password, in: text) == [])
    let attachment = try #require(
      TrafficAttachmentWriter.attachmentBytes(of: recording, testName: "t"))
    #expect(
      try Self.leaks(of: Self.password, in: String(decoding: attachment, as: UTF8.self)) == [])

    let replaying = StubRegistry()
    replaying.use(Cassette(at: file, mode: .never))
    let (replayed, response) = try await replaying.makeSession().data(for: post)
    #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == type)
    #expect(
      String(data: replayed, encoding: .isoLatin1)
        == #"{"name":"café","password":"<redacted:password>"}"#)
  }
}
