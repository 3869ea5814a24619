import Foundation
import Testing
import Understudy
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The examples of the "Options in one value" and "Leaving out what changes on every run"
/// sections of Documentation/Replaying.md and of "Hosts a cassette ignores" and "Re-recording old
/// entries" in Documentation/Recording.md. Examples that record do it against
/// `ExampleServer` on 127.0.0.1, into a temporary folder.
@Suite struct CassetteOptionsExamples {
  static let options = CassetteOptions(
    matching: ReplayMatching([.method, .url, .jsonBody]).ignoring(jsonPaths: ["$.sentAt"]),
    ignoredHosts: ["telemetry.example.com"],
    reRecordAfter: .seconds(90 * 24 * 3600)
  )

  @Test(.cassette(options: options))
  func loadsAUserWithSharedOptions() async throws {
    let client = UserClient(session: try #require(StubRegistry.current).makeSession())

    let user = try await client.user(id: 42)

    #expect(user == User(id: 42, name: "Ada"))
  }

  @Test func ignoresWhatChangesOnEveryRun() async throws {
    let file = try RecordAndReplayExamples.cassette([
      RecordAndReplayExamples.recorded(
        "https://api.example.com/orders", method: "POST",
        body: #"{"item":"book","sentAt":"2026-01-01T09:00:00Z"}"#, answer: #"{"id":1}"#)
    ])

    let matching = ReplayMatching([.method, .url, .jsonBody])
      .ignoring(jsonPaths: ["$.sentAt"])
      .ignoring(jsonPaths: ["$.idempotencyKey"], for: .post("/payments"))
    let registry = StubRegistry()
    registry.use(Cassette(at: file, options: CassetteOptions(matching: matching)))

    var order = URLRequest(url: URL(string: "https://api.example.com/orders")!)
    order.httpMethod = "POST"
    order.httpBody = Data(#"{"item":"book","sentAt":"2026-11-25T17:00:00Z"}"#.utf8)
    let (data, _) = try await registry.makeSession().data(for: order)
    #expect(String(decoding: data, as: UTF8.self) == #"{"id":1}"#)

    order.httpBody = Data(#"{"item":"pen","sentAt":"2026-01-01T09:00:00Z"}"#.utf8)
    await #expect(throws: URLError.self) { try await registry.makeSession().data(for: order) }
  }

  @Test func hooksEditWhatIsWrittenAndWhatIsServed() async throws {
    let server = try ExampleServer.start()
    defer { server.stop() }
    let file = RecordAndReplayExamples.scratchFile("hooks.har")

    let recording = CassetteOptions().beforeRecord { entry in
      if entry.request.url.hasSuffix("/health") { return nil }  // not worth keeping
      var kept = entry
      kept.comment = "recorded for ProfileTests"
      return kept
    }
    let recorder = StubRegistry()
    let cassette = Cassette(at: file, mode: .missing, options: recording)
    recorder.use(cassette)
    _ = try await recorder.makeSession().data(from: server.url("/echo/health"))
    _ = try await recorder.makeSession().data(from: server.url("/echo/profile"))
    #expect(cassette.finish().isEmpty)
    #expect(try HAR.load(contentsOf: file).log.entries.count == 1)

    let replaying = CassetteOptions().beforeReplay { entry in
      var adjusted = entry
      adjusted.response.headers.removeAll { $0.name.lowercased() == "date" }
      adjusted.response.headers.append(
        HAR.Header(name: "Date", value: "Wed, 25 Nov 2026 12:00:00 GMT"))
      return adjusted
    }
    let player = StubRegistry()
    player.use(Cassette(at: file, options: replaying))
    let (_, response) = try await player.makeSession().data(from: server.url("/echo/profile"))
    let date = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Date")
    #expect(date == "Wed, 25 Nov 2026 12:00:00 GMT")
  }

  @Test func aHookCannotPutASecretBack() async throws {
    let server = try ExampleServer.start()
    defer { server.stop() }
    let file = RecordAndReplayExamples.scratchFile("hooked.har")

    let options = CassetteOptions().beforeRecord { entry in
      var edited = entry
      edited.response.headers.append(
        HAR.Header(name: "X-Debug", value: RecordAndReplayExamples.token))
      return edited
    }
    let recorder = StubRegistry()
    let cassette = Cassette(at: file, mode: .missing, options: options)
    recorder.use(cassette)
    _ = try await recorder.makeSession().data(from: server.url("/echo/profile"))

    let failures = cassette.finish()
    #expect(failures.first?.message.contains("was not written") == true)
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }

  @Test func ignoredHostsAreNeverRecorded() async throws {
    let server = try ExampleServer.start()
    defer { server.stop() }
    let file = RecordAndReplayExamples.scratchFile("ignoring.har")

    // Both hosts reach the local server; the cassette keeps only the API's traffic.
    let registry = StubRegistry(
      unmatchedRequests: .passThrough(PassThrough(baseURL: server.baseURL)))
    let options = CassetteOptions(ignoredHosts: ["telemetry.example.com"])
    let cassette = Cassette(at: file, mode: .missing, options: options)
    registry.use(cassette)
    let session = registry.makeSession()
    _ = try await session.data(from: URL(string: "https://api.example.com/echo/users/42")!)
    _ = try await session.data(from: URL(string: "https://telemetry.example.com/echo/event")!)
    #expect(cassette.finish().isEmpty)

    let hosts = try HAR.load(contentsOf: file).log.entries.map { URL(string: $0.request.url)?.host }
    #expect(hosts == ["api.example.com"])
  }

  @Test func reRecordsEntriesOlderThanTheInterval() async throws {
    let server = try ExampleServer.start()
    defer { server.stop() }
    var old = RecordAndReplayExamples.recorded(
      server.url("/echo/rates").absoluteString, answer: #"{"eur":1.05}"#)
    old.startedDateTime = Date(timeIntervalSinceNow: -120 * 24 * 3600)
    let file = try RecordAndReplayExamples.cassette([old])

    let options = CassetteOptions(reRecordAfter: .seconds(90 * 24 * 3600))
    let registry = StubRegistry()
    let cassette = Cassette(at: file, mode: .newEpisodes, options: options)
    registry.use(cassette)
    let (data, _) = try await registry.makeSession().data(from: server.url("/echo/rates"))
    #expect(String(decoding: data, as: UTF8.self) != #"{"eur":1.05}"#)  // fetched again
    #expect(cassette.finish().isEmpty)

    let entries = try HAR.load(contentsOf: file).log.entries
    #expect(entries.count == 1)  // replaced in place
    #expect(entries[0].startedDateTime > old.startedDateTime)
  }
}

/// The XCTest form of the shared options; its cassette is committed in
/// `__Cassettes__/CassetteOptionsExamples/testLoadsAUserWithSharedOptions.har`.
final class CassetteOptionsXCTestExamples: XCTestCase {
  func testLoadsAUserWithSharedOptions() async throws {
    try await withCassette(options: CassetteOptionsExamples.options) { stubs in
      let client = UserClient(session: stubs.makeSession())

      let user = try await client.user(id: 42)

      XCTAssertEqual(user.name, "Ada")
    }
  }
}
