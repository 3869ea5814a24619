import Foundation
import Testing
import Understudy

/// What exporters write that a replay cannot use: bodies they left out, requests that got no
/// response. One rule in every command, and the replay follows it too (CassetteReplayRuleTests).
@Suite struct ForeignHARTests {
  /// An entry as browsers and Fiddler export a large or binary body: a size and no text.
  static func omittedBody(url: String = "https://api.example.com/big") -> HAR.Entry {
    var entry = HAR.Entry.exchange(url: url)
    entry.response.content = HAR.Content(size: 52_311, mimeType: "application/octet-stream")
    return entry
  }

  static func unanswered(url: String = "https://api.example.com/blocked") -> HAR.Entry {
    var entry = HAR.Entry.exchange(url: url)
    entry.response = HAR.Response(status: 0, headers: [:], body: nil)
    return entry
  }

  @Test func inspectCountsTheBytesPresentAndMarksOmittedBodies() async throws {
    try await withTemporaryDirectory { directory in
      var small = HAR.Entry.exchange(url: "https://api.example.com/small", body: "[1,2]")
      small.response.content.size = 9_999  // exporters' sizes are not the bytes in the file
      let path = try HAR(entries: [small, Self.omittedBody()]).saved(as: "x.har", in: directory)
      let result = try await understudy("inspect", path)
      #expect(result.status == 0)
      let rows = result.stdout.split(separator: "\n")
      #expect(rows[1].contains("200      5 B"))
      #expect(rows[2].contains("200  omitted"))
      #expect(
        result.stdout.contains(
          "5 B of response bodies, 24.0 ms in all; 1 body was left out by the exporter, and "
            + "replay refuses those entries"))
      let json = try await understudy("inspect", path, "--json")
      let report = try #require(
        try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
      let totals = try #require(report["totals"] as? [String: Any])
      #expect(totals["responseBytes"] as? Int == 5)
      #expect(totals["omittedBodies"] as? Int == 1)
      let entries = try #require(report["entries"] as? [[String: Any]])
      #expect(entries[1]["omittedSize"] as? Int == 52_311)
    }
  }

  @Test func validateWarnsAboutOmittedBodiesAndStatusZero() async throws {
    try await withTemporaryDirectory { directory in
      let path = try HAR(entries: [Self.omittedBody(), Self.unanswered()])
        .saved(as: "x.har", in: directory)
      let result = try await understudy("validate", path)
      let output = result.stdout + result.stderr
      #expect(output.contains("log.entries[0].response.content"))
      #expect(output.contains("the exporter left out the body: size says 52311 bytes"))
      #expect(output.contains("log.entries[1].response.status"))
      #expect(output.contains("replay refuses a request that matches it"))
    }
  }

  @Test func convertDropsStatusZeroAndListsOmittedBodies() async throws {
    try await withTemporaryDirectory { directory in
      let input = try HAR(entries: [
        .exchange(url: "https://api.example.com/ok"), Self.unanswered(), Self.omittedBody(),
      ]).saved(as: "export.har", in: directory)
      let output = directory.appendingPathComponent("cassette.har").path
      let result = try await understudy("convert", input, "-o", output)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stdout.contains("Kept 2 entries; dropped 1 with no response (status 0)."))
      #expect(
        result.stdout.contains(
          "Kept 1 entry whose response body the exporter left out (entries 2 of the export)"))
      let cassette = try HAR.load(contentsOf: URL(fileURLWithPath: output))
      #expect(cassette.log.entries.map(\.response.status) == [200, 200])
    }
  }

  @Test func keepHostThatMatchesNothingFailsAndListsTheHosts() async throws {
    try await withTemporaryDirectory { directory in
      let output = directory.appendingPathComponent("api.har").path
      let result = try await understudy(
        "convert", Fixtures.path("chrome-export.har"), "-o", output, "--keep-host",
        "api.shop.example.con")
      #expect(result.status == 1)
      #expect(
        result.stderr.contains(
          "--keep-host api.shop.example.con matches no entry of "
            + "\(Fixtures.path("chrome-export.har")) (hosts present: api.shop.example.com, "
            + "cdn.example.com, shop.example.com); nothing was written."))
      #expect(!FileManager.default.fileExists(atPath: output))
    }
  }

  @Test func stubWritesNoStubForEntriesReplayWouldRefuse() async throws {
    try await withTemporaryDirectory { directory in
      let path = try HAR(entries: [
        .exchange(url: "https://api.example.com/ok"), Self.unanswered(), Self.omittedBody(),
      ]).saved(as: "x.har", in: directory)
      let result = try await understudy("stub", path)
      #expect(result.status == 0)
      #expect(result.stdout.contains(".get(\"https://api.example.com/ok\")"))
      #expect(!result.stdout.contains("status: 0"))
      #expect(!result.stdout.contains("/blocked"))
      #expect(!result.stdout.contains("/big"))
      #expect(result.stderr.contains("skipped entry 1, which recorded no response (status 0"))
      #expect(result.stderr.contains("skipped entry 2, which has no response body"))
    }
  }
}
