import Foundation
import Testing

@testable import Understudy

/// Replay's `FilterTests` with `replacement:`: a redaction can write a text of your choice, such
/// as `[FILTERED]`, in place of every redacted value, each place spelled as it needs.
@Suite struct ReplacementTextTests {
  private let secrets = [
    "Bearer tok_9f8e7d6c5b4a", "ak_live_5566778899", "hunter2hunter2", "fo_77aa88bb99cc",
  ]
  private let redaction = Redaction.default.replacingValues(with: "[FILTERED]")

  private func entry() -> HAR.Entry {
    HAR.Entry.sample(
      method: "POST", url: "https://api.test/orders?api_key=\(secrets[1])&page=2",
      requestHeaders: [
        HAR.Header(name: "Authorization", value: secrets[0]),
        HAR.Header(name: "Accept", value: "application/json"),
      ],
      postData: HAR.PostData(
        mimeType: "application/x-www-form-urlencoded", text: "user=ann&token=\(secrets[3])"),
      content: HAR.Content(
        body: Data(#"{"password":"\#(secrets[2])","echo":"\#(secrets[1])"}"#.utf8),
        mimeType: "application/json"))
  }

  @Test func everyRedactedValueIsWrittenAsTheTextInItsPlacesSpelling() throws {
    let written = redaction.redact(HAR(entries: [entry()]))
    let request = written.log.entries[0].request
    #expect(request.headers.first { $0.name == "Authorization" }?.value == "[FILTERED]")
    #expect(request.headers.first { $0.name == "Accept" }?.value == "application/json")
    #expect(request.url == "https://api.test/orders?api_key=%5BFILTERED%5D&page=2")
    #expect(request.postData?.text == "user=ann&token=%5BFILTERED%5D")
    let body = try #require(written.log.entries[0].response.content.text)
    #expect(body == #"{"password":"[FILTERED]","echo":"[FILTERED]"}"#)

    // Every byte of the file: no secret, and no placeholder left.
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("understudy-replacement-\(UUID().uuidString).har")
    defer { try? FileManager.default.removeItem(at: file) }
    try written.write(to: file)
    let text = try String(contentsOf: file, encoding: .utf8)
    for secret in secrets { #expect(!text.contains(secret)) }
    #expect(!text.lowercased().contains("redacted"))
  }

  @Test func aTextThatNeedsEscapingIsEscapedInJSONAndEncodedInURLs() throws {
    let quoted = Redaction.default.replacingValues(with: #"<"gone" & kept>"#)
    let written = quoted.redact(entry())
    #expect(written.request.url.contains("api_key=%3C%22gone%22%20%26%20kept%3E&page=2"))
    let body = try #require(written.response.content.text)
    #expect(
      try JSONValue(parsing: Data(body.utf8)) == [
        "password": #"<"gone" & kept>"#, "echo": #"<"gone" & kept>"#,
      ])
  }

  @Test func withoutAReplacementPlaceholdersAreWritten() {
    let written = Redaction.default.redact(entry())
    #expect(
      written.request.headers.first { $0.name == "Authorization" }?.value
        == "<redacted:authorization>")
    #expect(Redaction.default.replacementText == nil)
    #expect(redaction.replacementText == "[FILTERED]")
  }

  @Test func aCassetteWrittenWithTheTextReplaysAnyValueInItsPlace() async throws {
    let server = try await LoopbackServer.shared()
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("understudy-replacement-\(UUID().uuidString)")
      .appendingPathComponent("filtered.har")
    defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
    let options = CassetteOptions(redaction: redaction)
    let recording = StubRegistry()
    let recorder = Cassette(at: file, mode: .missing, options: options)
    recording.use(recorder)
    _ = try await recording.makeSession().data(from: server.url("/echo/f?api_key=\(secrets[1])"))
    #expect(recorder.finish().isEmpty)
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(!text.contains(secrets[1]))
    #expect(text.contains("api_key=%5BFILTERED%5D"))
    #expect(!text.lowercased().contains("redacted:"))

    // A live request is redacted the same way before it is compared, so the recorded entry
    // answers whatever key is sent: the text tells no values apart.
    let replaying = StubRegistry()
    let player = Cassette(at: file, mode: .never, options: options)
    replaying.use(player)
    let (data, _) = try await replaying.makeSession().data(
      from: server.url("/echo/f?api_key=ak_live_other_value"))
    #expect(!data.isEmpty)
    #expect(player.finish().isEmpty)
  }
}
