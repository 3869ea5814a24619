import Foundation
import Testing
import Understudy

@Suite struct InspectCommandTests {
  @Test func chromeExportIsATableWithTotals() async throws {
    let result = try await understudy("inspect", Fixtures.path("chrome-export.har"))
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    #expect(
      result.stdout == """
        #  Method  URL                                         Status  Size      Time
        0  GET     https://shop.example.com/?ref=home             200  57 B  120.5 ms
        1  GET     https://cdn.example.com/pixel.png              200  70 B   15.0 ms
        2  POST    https://api.shop.example.com/v1/cart/items     201  37 B   88.2 ms

        3 entries, 3 hosts, 164 B of response bodies, 223.8 ms in all

        """)
  }

  /// An export no one redacted: a token one answer hands out, or a request sends under a
  /// credential's name, is masked where an entry's URL or media type repeats it, in the table
  /// and the JSON.
  @Test func aValueTheRulesRemoveIsMaskedWhereAnEntrysURLRepeatsIt() async throws {
    try await withTemporaryDirectory { directory in
      let path = try HAR(entries: [
        .exchange(
          method: "POST", url: "https://api.test/login",
          body: #"{"access_token": "\#(FakeSecret.accessToken)"}"#),
        .exchange(url: "https://api.test/sessions/\(FakeSecret.accessToken)"),
        .exchange(
          url: "https://api.test/u/\(FakeSecret.bearerToken)?ref=\(FakeSecret.bearerToken)",
          requestHeaders: [
            HAR.Header(name: "Authorization", value: "Bearer \(FakeSecret.bearerToken)")
          ], mimeType: "application/json; profile=\(FakeSecret.bearerToken)"),
      ]).saved(as: "export.har", in: directory)
      for arguments in [["inspect", path], ["inspect", path, "--json"]] {
        let result = try await understudy(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("api.test/sessions/"), "\(result.stdout)")
        for secret in [FakeSecret.accessToken, FakeSecret.bearerToken] {
          #expect(!result.stdout.contains(secret.prefix(12)), "\(result.stdout)")
        }
      }
    }
  }

  @Test func jsonHasEveryEntryAndTheTotals() async throws {
    let result = try await understudy("inspect", Fixtures.path("mitmproxy-export.har"), "--json")
    #expect(result.status == 0)
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let entries = try #require(report["entries"] as? [[String: Any]])
    #expect(entries.count == 2)
    #expect(entries[0]["method"] as? String == "POST")
    #expect(entries[0]["status"] as? Int == 302)
    #expect(
      entries[1]["url"] as? String
        == "https://app.example.com/api/profile?fields=name%2Cemail&locale=fr-FR")
    #expect(entries[1]["mimeType"] as? String == "application/json; charset=utf-8")
    let totals = try #require(report["totals"] as? [String: Any])
    #expect(totals["entries"] as? Int == 2)
    #expect(totals["responseBytes"] as? Int == 49)
    #expect(report["file"] as? String == Fixtures.path("mitmproxy-export.har"))
  }

  @Test func longURLsAreShortenedInTheMiddleButKeptWholeInJSON() async throws {
    let url = "https://api.example.com/v1/" + String(repeating: "segment/", count: 12) + "end?x=1"
    var entry = HAR.Entry.exchange(url: url)
    entry.time = -1
    entry.response.content.size = -1
    try await withTemporaryDirectory { directory in
      let path = try HAR(entries: [entry]).saved(as: "long.har", in: directory)
      let table = try await understudy("inspect", path)
      #expect(table.status == 0)
      let row = try #require(table.stdout.split(separator: "\n").dropFirst().first)
      #expect(row.contains("https://api.example.com/v1/segment/segm…ment/segment/end?x=1"))
      #expect(row.hasSuffix("200   2 B     ?"), "the bytes present, whatever size says; time ?")
      let json = try await understudy("inspect", path, "--json")
      #expect(json.stdout.contains(url))
      let report = try #require(
        try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
      let entries = try #require(report["entries"] as? [[String: Any]])
      #expect(entries[0]["time"] == nil, "an unknown time is left out")
      #expect(entries[0]["size"] as? Int == 2)
    }
  }

  /// Each time is finite, as the loader requires, but their sum is not: the totals stop at the
  /// largest number instead of trapping while the JSON is written.
  @Test func timesThatAddUpToInfinityAreWrittenNotTrappedOn() async throws {
    var entry = HAR.Entry.exchange(url: "https://api.example.com/slow")
    entry.time = 1.7e308
    try await withTemporaryDirectory { directory in
      let path = try HAR(entries: [entry, entry]).saved(as: "huge-times.har", in: directory)
      let json = try await understudy("inspect", path, "--json")
      #expect(json.status == 0, "\(json.stderr)")
      let report = try #require(
        try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
      let totals = try #require(report["totals"] as? [String: Any])
      #expect((totals["time"] as? Double)?.isFinite == true)
      #expect(try await understudy("inspect", path).status == 0)
    }
  }

  @Test func emptyArchiveSaysSo() async throws {
    try await withTemporaryDirectory { directory in
      let path = try HAR(entries: []).saved(as: "empty.har", in: directory)
      let result = try await understudy("inspect", path)
      #expect(result.status == 0)
      #expect(result.stdout.hasPrefix("The file has no entries.\n"))
      #expect(result.stdout.contains("0 entries, 0 hosts"))
    }
  }
}
