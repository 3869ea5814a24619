import Understudy
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `withCassette(options:)` in both forms, with the hooks, ignored hosts, re-record interval and
/// ignored parts of requests of ``CassetteOptions``.
final class CassetteOptionsXCTests: XCTestCase {
  private var folder: URL!

  override func setUpWithError() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("understudy-xctest-options-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  /// Writes `orders.har`: one `POST url` with `body`, recorded at `date`, answering "recorded".
  private func writeCassette(
    url: String = "https://api.test/orders", body: String = #"{"item":"book","sentAt":"1"}"#,
    recordedAt date: Date = Date()
  ) throws {
    let entry = HAR.Entry(
      startedDateTime: date, time: 1,
      request: HAR.Request(
        method: "POST", url: url, postData: HAR.PostData(mimeType: "application/json", text: body)),
      response: HAR.Response(
        status: 200, statusText: "OK",
        content: HAR.Content(body: Data("recorded".utf8), mimeType: "text/plain")))
    try HAR(entries: [entry]).write(to: folder.appendingPathComponent("orders.har"))
  }

  private func post(_ body: String, to url: String = "https://api.test/orders") -> URLRequest {
    var request = URLRequest(url: URL(string: url)!)
    request.httpMethod = "POST"
    request.httpBody = Data(body.utf8)
    return request
  }

  func testAnIgnoredJSONPathReplaysAChangedTimestampButNotAChangedField() async throws {
    try writeCassette()
    let options = CassetteOptions(
      matching: ReplayMatching([.method, .url, .jsonBody]).ignoring(jsonPaths: ["$.sentAt"]))
    let outcomes = await withCassette(
      "orders", location: .folder(folder), options: options, verifying: []
    ) { stubs in
      let session = stubs.makeSession()
      let newTime = try? await session.data(for: post(#"{"item":"book","sentAt":"2"}"#))
      let otherItem = try? await session.data(for: post(#"{"item":"pen","sentAt":"1"}"#))
      return (newTime != nil, otherItem != nil)
    }
    XCTAssertTrue(outcomes.0, "the timestamp is ignored")
    XCTAssertFalse(outcomes.1, "the item is not")
  }

  func testBeforeReplayAdjustsTheServedAnswer() throws {
    try writeCassette()
    let options = CassetteOptions().beforeReplay { entry in
      var adjusted = entry
      adjusted.response.content.text = "adjusted"
      return adjusted
    }
    withCassette("orders", location: .folder(folder), options: options) { stubs in
      let done = expectation(description: "replayed")
      let text = LockedBox<String?>(nil)
      stubs.makeSession().dataTask(with: post(#"{"item":"book","sentAt":"1"}"#)) { data, _, _ in
        text.set(data.map { String(decoding: $0, as: UTF8.self) })
        done.fulfill()
      }.resume()
      wait(for: [done], timeout: 30)
      XCTAssertEqual(text.get(), "adjusted")
    }
  }

  func testAnIgnoredHostIsNotReplayedAndFailsUnderTheStrictPolicy() async throws {
    try writeCassette(url: "https://telemetry.test/orders")
    let options = CassetteOptions(ignoredHosts: ["telemetry.test"])
    let message = await withCassette(
      "orders", location: .folder(folder), options: options, verifying: []
    ) { stubs -> String? in
      do {
        _ = try await stubs.makeSession().data(
          for: post(#"{"item":"book","sentAt":"1"}"#, to: "https://telemetry.test/orders"))
        return nil
      } catch {
        return error.localizedDescription
      }
    }
    XCTAssertTrue(message?.contains("ignores host telemetry.test") == true, "\(message ?? "-")")
  }

  func testAHookThatPutsASecretBackIsRefusedAndAnIgnoredHostIsNotRecorded() async throws {
    let server = try LoopbackProcess()
    defer { server.stop() }
    let secret = "ghp" + "_" + "R4nd0mT0k3nV4lu3F0rT3st1ngOnly0123"
    let file = folder.appendingPathComponent("hooked.har")
    let registry = StubRegistry(
      unmatchedRequests: .passThrough(PassThrough(baseURL: server.baseURL)))
    let addsSecret = CassetteOptions(ignoredHosts: ["telemetry.test"]).beforeRecord { entry in
      var edited = entry
      edited.response.headers.append(HAR.Header(name: "X-Debug", value: secret))
      return edited
    }
    let cassette = Cassette(at: file, mode: .all, options: addsSecret)
    registry.use(cassette)
    _ = try await registry.makeSession().data(from: URL(string: "https://api.test/json")!)
    _ = try await registry.makeSession().data(from: URL(string: "https://telemetry.test/json")!)
    let failures = cassette.finish()
    XCTAssertEqual(failures.count, 1)
    XCTAssertTrue(failures.first?.message.contains("credential") == true)
    XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))

    // The same without the secret: written, and without the ignored host.
    let plain = Cassette(
      at: file, mode: .all, options: CassetteOptions(ignoredHosts: ["telemetry.test"]))
    let again = StubRegistry(unmatchedRequests: .passThrough(PassThrough(baseURL: server.baseURL)))
    again.use(plain)
    _ = try await again.makeSession().data(from: URL(string: "https://api.test/json")!)
    _ = try await again.makeSession().data(from: URL(string: "https://telemetry.test/json")!)
    XCTAssertEqual(plain.finish().count, 0)
    let hosts = try HAR.load(contentsOf: file).log.entries.map { URL(string: $0.request.url)?.host }
    XCTAssertEqual(hosts, ["api.test"])
  }

  func testAStaleEntryIsFetchedAgainInNewEpisodesMode() async throws {
    let server = try LoopbackProcess()
    defer { server.stop() }
    let url = server.baseURL.absoluteString + "/echo/orders"
    try writeCassette(url: url, recordedAt: Date(timeIntervalSince1970: 1_577_836_800))
    let options = CassetteOptions(reRecordAfter: .seconds(24 * 3600))
    let body = try await withCassette(
      "orders", mode: .newEpisodes, location: .folder(folder), options: options
    ) { stubs in
      try await stubs.makeSession().data(for: post(#"{"item":"book","sentAt":"1"}"#, to: url)).0
    }
    XCTAssertNotEqual(String(decoding: body, as: UTF8.self), "recorded", "fetched again")
    let entries = try HAR.load(contentsOf: folder.appendingPathComponent("orders.har")).log.entries
    XCTAssertEqual(entries.count, 1, "replaced, not added")
    XCTAssertGreaterThan(entries[0].startedDateTime, Date(timeIntervalSince1970: 1_577_836_800))
  }
}
