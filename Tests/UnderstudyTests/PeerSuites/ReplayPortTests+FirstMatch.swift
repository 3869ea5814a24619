import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension ReplayPortTests {
  /// Replay's `MatcherTests.ArrayExtensionTests.firstMatch…`: picking the recorded entry for a
  /// request is a cassette answering from its entries.
  @Suite struct FirstMatch {
    private func entry(
      _ method: String, _ url: String, answer: String, headers: [HAR.Header] = [],
      body: String? = nil
    ) -> HAR.Entry {
      HAR.Entry(
        startedDateTime: Date(timeIntervalSince1970: 1_700_000_000), time: 5,
        request: HAR.Request(
          method: method, url: url, headers: headers,
          postData: body.map { HAR.PostData(mimeType: "text/plain", text: $0) }),
        response: HAR.Response(
          status: 200, statusText: "OK",
          content: HAR.Content(body: Data(answer.utf8), mimeType: "text/plain")))
    }

    /// Replays `request` from a cassette holding `entries`; the answer, or `nil` when the
    /// request failed.
    private func replay(
      _ entries: [HAR.Entry], matching: ReplayMatching = .default, _ requests: [URLRequest]
    ) async throws -> [String?] {
      let folder = ReplayPortTests.scratchFolder()
      defer { ReplayPortTests.cleanUp(folder) }
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let file = folder.appendingPathComponent("entries.har")
      try HAR(entries: entries).write(to: file)
      let registry = StubRegistry()
      let cassette = Cassette(at: file, mode: .never, options: CassetteOptions(matching: matching))
      registry.use(cassette)
      let session = registry.makeSession()
      var answers: [String?] = []
      for request in requests {
        let data = try? await session.data(for: request).0
        answers.append(data.map { String(decoding: $0, as: UTF8.self) })
      }
      _ = cassette.finish()
      return answers
    }

    private func get(_ url: String, _ method: String = "GET") -> URLRequest {
      var request = URLRequest(url: URL(string: url)!)
      request.httpMethod = method
      return request
    }

    /// `ArrayExtensionTests.firstMatchFindsEntry` and `firstMatchReturnsNil`.
    @Test func aCassetteAnswersTheEntryThatMatchesAndFailsOtherwise() async throws {
      let answers = try await replay(
        [
          entry("GET", "https://a.test/a", answer: "a"),
          entry("GET", "https://a.test/b", answer: "get b"),
          entry("POST", "https://a.test/b", answer: "post b"),
        ], [get("https://a.test/b"), get("https://a.test/c", "DELETE")])
      #expect(answers == ["get b", nil])
    }

    /// `ArrayExtensionTests.firstMatchReturnsFirst`: of two matching entries the first answers
    /// first (then, in Understudy, the second: identical requests are answered in order).
    @Test func theFirstOfTwoMatchingEntriesAnswersFirst() async throws {
      let answers = try await replay(
        [
          entry("GET", "https://a.test/p", answer: "first"),
          entry("GET", "https://a.test/p", answer: "second"),
        ],
        [get("https://a.test/p"), get("https://a.test/p")])
      #expect(answers == ["first", "second"])
    }

    /// `ArrayExtensionTests.firstMatchWithHeaders`: a header rule picks the entry recorded with
    /// the same header value.
    @Test func aHeaderRulePicksTheEntry() async throws {
      var request = get("https://a.test/api")
      request.setValue("application/json", forHTTPHeaderField: "Accept")
      let answers = try await replay(
        [
          entry(
            "GET", "https://a.test/api", answer: "html",
            headers: [HAR.Header(name: "Accept", value: "text/html")]),
          entry(
            "GET", "https://a.test/api", answer: "json",
            headers: [HAR.Header(name: "Accept", value: "application/json")]),
        ], matching: ReplayMatching([.method, .url, .headers(["Accept"])]), [request])
      #expect(answers == ["json"])
    }

    /// `ArrayExtensionTests.firstMatchWithBody`: a body rule picks the entry recorded with the
    /// same body.
    @Test func aBodyRulePicksTheEntry() async throws {
      var request = get("https://a.test/api", "POST")
      request.httpBody = Data("body2".utf8)
      let answers = try await replay(
        [
          entry("POST", "https://a.test/api", answer: "one", body: "body1"),
          entry("POST", "https://a.test/api", answer: "two", body: "body2"),
        ], matching: ReplayMatching([.method, .url, .body]), [request])
      #expect(answers == ["two"])
    }
  }
}
