import Foundation
import Testing

@testable import Understudy

extension RecordingTests {
  /// A malformed cassette's error quotes what it found only when that is short and plain
  /// (``QuotedValue``): a random token of no known shape, where a status, a date or a value
  /// belongs or as a bare word, is described by its length, never shown whole or in part.
  @Suite struct QuotedErrorValueTests {
    static func cassette(
      status: String = "200", started: String = "2024-05-01T12:00:00.000Z",
      extra: String = ""
    ) -> String {
      #"""
      {"log": {"version": "1.2", "entries": [{"startedDateTime": "\#(started)",
      "time": 1, "request": {"method": "GET", "url": "https://api.test/", "httpVersion": "HTTP/1.1",
      "headers": [], "queryString": [], "cookies": [], "headersSize": -1,
      "bodySize": -1\#(extra)}, "response": {"status": \#(status), "statusText": "OK", "httpVersion": "HTTP/1.1",
      "headers": [], "cookies": [], "content": {"size": 0, "mimeType": "text/plain"},
      "redirectURL": "", "headersSize": -1, "bodySize": -1}, "cache": {}, "timings": {"send": 0,
      "wait": 0, "receive": 0}}]}}
      """#
    }

    /// Each place an error quotes a value, with the token planted there.
    static let places: [(String, @Sendable (String) -> String)] = [
      ("status as a string", { cassette(status: "\"tok \($0)\"") }),
      ("status as a lone string", { cassette(status: "\"\($0)\"") }),
      ("date", { cassette(started: $0) }),
      ("bare word", { cassette(extra: ", \"c\": sid_\($0)") }),
      ("bare word after a space", { cassette(extra: ", \"c\": x \($0)") }),
    ]

    @Test(arguments: places.map(\.0))
    func aRandomTokenQuotedByAnErrorIsNotPrinted(place: String) throws {
      let plant = Self.places.first { $0.0 == place }!.1
      var random = SplitMix(seed: 11)
      let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
      var checked = 0
      for _ in 0..<60 {
        let token = String(
          (0..<Int.random(in: 10...44, using: &random)).map { _ in
            alphabet.randomElement(using: &random)!
          })
        if QuotedValue.mayShow(token) { continue }
        checked += 1
        let error = try #require(
          cassetteError { _ = try HAR.decode(Data(plant(token).utf8), source: "t.har") })
        let text = error.description
        let windows = (0...(token.count - 8)).map {
          String(Array(token)[$0..<$0 + 8])
        }
        #expect(windows.filter(text.contains).isEmpty, "\(text)")
      }
      #expect(checked > 40)
    }

    /// A short password's shape (letters or digits with a symbol, eight characters or more)
    /// where a status belongs, or as a member named twice, is described by its length.
    @Test(arguments: ["GAg4YT!Y", "EUnw7v!X", "p@ss#w0rd", "Iqm4rT!M"])
    func aPasswordShapedValueQuotedByAnErrorIsNotPrinted(value: String) throws {
      #expect(!QuotedValue.mayShow(value))
      let status = try #require(
        cassetteError {
          _ = try HAR.decode(Data(Self.cassette(status: "\"\(value)\"").utf8), source: "t")
        })
      #expect(!status.description.contains(value), "\(status.description)")
      let twice = CassetteError.repeatedMember(
        value, at: 10, in: Array(#"{"log": {"\#(value)": 1, "\#(value)": 2}}"#.utf8), source: "t")
      #expect(!twice.description.contains(value), "\(twice.description)")
      #expect(twice.description.contains("twice"), "\(twice.description)")
    }

    @Test func plainValuesAreStillQuoted() throws {
      let status = try #require(
        cassetteError {
          _ = try HAR.decode(Data(Self.cassette(status: "\"OK\"").utf8), source: "t")
        })
      #expect(status.description.contains("found the string \"OK\""))
      let date = try #require(
        cassetteError {
          _ = try HAR.decode(Data(Self.cassette(started: "yesterday").utf8), source: "t")
        })
      #expect(date.description.contains("\"yesterday\" is not an ISO 8601 date"))
      #expect(QuotedValue.quoted("GET") == "\"GET\"")
      #expect(QuotedValue.quoted("X-Request-Id") == "\"X-Request-Id\"")
      #expect(QuotedValue.quoted("GET " + "ml_U8JZ3kQ9xPz") == "a value of 18 characters")
      #expect(
        QuotedValue.quoted(String(repeating: "word ", count: 10)) == "a value of 50 characters")
    }
  }
}
