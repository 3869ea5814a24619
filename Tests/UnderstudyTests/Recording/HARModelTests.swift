import Foundation
import Testing

@testable import Understudy

extension RecordingTests {
  @Suite struct HARModelTests {
    /// An archive that uses every member of the model.
    static let complete = HAR(
      log: HAR.Log(
        creator: HAR.Creator(name: "Tester", version: "2.1", comment: "creator note"),
        browser: HAR.Browser(name: "Firefox", version: "125.0"),
        pages: [
          HAR.Page(
            startedDateTime: Date(timeIntervalSince1970: 1_714_564_800.5), id: "page_1",
            title: "Home", pageTimings: HAR.PageTimings(onContentLoad: 120.5, onLoad: 340),
            comment: "page note")
        ],
        entries: [
          HAR.Entry(
            pageref: "page_1", startedDateTime: Date(timeIntervalSince1970: 1_714_564_800.789),
            time: 50.25,
            request: HAR.Request(
              method: "POST", url: "https://example.com/form?q=1", httpVersion: "HTTP/2",
              cookies: [
                HAR.Cookie(
                  name: "a", value: "1", path: "/", domain: "example.com",
                  expires: "2030-01-01T00:00:00.000Z", httpOnly: true, secure: false, comment: "c")
              ],
              headers: [
                HAR.Header(name: "Content-Type", value: "multipart/form-data", comment: "h")
              ],
              queryString: [HAR.NameValue(name: "q", value: "1")],
              postData: HAR.PostData(
                mimeType: "multipart/form-data",
                params: [
                  HAR.PostParameter(
                    name: "file", value: "…", fileName: "a.txt", contentType: "text/plain",
                    comment: "p")
                ], text: "", comment: "post note"),
              headersSize: 120, bodySize: 300, comment: "request note"),
            response: HAR.Response(
              status: 302, statusText: "Found", httpVersion: "HTTP/2",
              headers: [HAR.Header(name: "Location", value: "/done")],
              content: HAR.Content(
                size: 0, compression: 0, mimeType: "text/html", text: "", comment: "content note"),
              redirectURL: "/done", headersSize: 80, bodySize: 0, comment: "response note"),
            cache: HAR.Cache(
              beforeRequest: .absent,
              afterRequest: .present(
                HAR.CacheEntry(
                  expires: "2030-01-01T00:00:00Z", lastAccess: "2024-05-01T12:00:00Z",
                  eTag: "\"x\"",
                  hitCount: 3, comment: "cache entry note")),
              comment: "cache note"),
            timings: HAR.Timings(
              blocked: 1, dns: 2, connect: 10, send: 0.25, wait: 30, receive: 7, ssl: 5,
              comment: "timings note"),
            serverIPAddress: "192.0.2.1", connection: "443", comment: "entry note")
        ], comment: "log note"))

    @Test func encodingThenDecodingGivesTheSameModel() throws {
      let decoded = try HAR.decode(try Self.complete.encoded(), source: "memory")
      #expect(decoded == Self.complete)
    }

    @Test func encodingIsByteIdenticalEveryTime() throws {
      let first = try Self.complete.encoded()
      let second = try HAR.decode(first, source: "memory").encoded()
      #expect(first == second)
      #expect(try Self.complete.encoded() == first)
    }

    @Test func outputIsPrettySortedUnescapedAndEndsWithANewline() throws {
      let har = HAR(entries: [
        HAR.Entry(
          startedDateTime: Date(timeIntervalSince1970: 1_700_000_000.5), time: 3,
          request: HAR.Request(method: "GET", url: "https://example.com/a/b"),
          response: HAR.Response(status: 204, statusText: "No Content"))
      ])
      let expected = """
        {
          "log" : {
            "creator" : {
              "name" : "Understudy",
              "version" : "1"
            },
            "entries" : [
              {
                "cache" : {

                },
                "request" : {
                  "bodySize" : -1,
                  "cookies" : [

                  ],
                  "headers" : [

                  ],
                  "headersSize" : -1,
                  "httpVersion" : "HTTP/1.1",
                  "method" : "GET",
                  "queryString" : [

                  ],
                  "url" : "https://example.com/a/b"
                },
                "response" : {
                  "bodySize" : -1,
                  "content" : {
                    "mimeType" : "",
                    "size" : 0
                  },
                  "cookies" : [

                  ],
                  "headers" : [

                  ],
                  "headersSize" : -1,
                  "httpVersion" : "HTTP/1.1",
                  "redirectURL" : "",
                  "status" : 204,
                  "statusText" : "No Content"
                },
                "startedDateTime" : "2023-11-14T22:13:20.500Z",
                "time" : 3,
                "timings" : {
                  "blocked" : -1,
                  "connect" : -1,
                  "dns" : -1,
                  "receive" : 0,
                  "send" : 0,
                  "ssl" : -1,
                  "wait" : 3
                }
              }
            ],
            "pages" : [

            ],
            "version" : "1.2"
          }
        }

        """
      #expect(try har.encodedText == expected)
    }

    @Test func binaryBodiesRoundTripByteForByte() throws {
      var bytes = Data((0...255).map { UInt8($0) })
      bytes.append(contentsOf: [0xC3, 0x28, 0xFF, 0xFE, 0x00])
      let entry = HAR.Entry.sample(
        postData: HAR.PostData(body: bytes, mimeType: "application/octet-stream"),
        content: HAR.Content(body: bytes, mimeType: "application/octet-stream"))
      #expect(entry.response.content.encoding == "base64")
      #expect(entry.request.postData?.encoding == "base64")
      let decoded = try HAR.decode(try HAR(entries: [entry]).encoded(), source: "memory")
      #expect(decoded.log.entries[0].response.content.body == bytes)
      #expect(decoded.log.entries[0].request.postData?.body == bytes)
      #expect(decoded.log.entries[0].response.content.size == bytes.count)
    }

    @Test func utf8BodiesAreStoredAsReadableText() throws {
      let content = HAR.Content(body: Data("{\"name\":\"Zoë\"}".utf8), mimeType: "application/json")
      #expect(content.text == "{\"name\":\"Zoë\"}")
      #expect(content.encoding == nil)
      #expect(content.size == 15)
      // A byte order mark is valid UTF-8 that String(data:encoding:) would silently drop.
      let withBOM = Data([0xEF, 0xBB, 0xBF]) + Data("hi".utf8)
      #expect(HAR.Content(body: withBOM, mimeType: "text/plain").body == withBOM)
    }

    @Test func invalidBase64IsAnErrorThatSaysWhy() {
      let content = HAR.Content(mimeType: "image/png", text: "iVBO!!", encoding: "base64")
      #expect(content.body == nil)
      #expect(throws: CassetteError.self) { try content.decodedBody() }
      do {
        _ = try content.decodedBody()
      } catch {
        #expect(error.kind == .invalidBase64)
        #expect(error.description.contains("character 5 is \"!\""))
      }
      let gzip = HAR.Content(text: "x", encoding: "gzip")
      #expect(throws: CassetteError.self) { try gzip.decodedBody() }
    }

    @Test func wrappedOrUnpaddedBase64Decodes() throws {
      let content = HAR.Content(text: "aGVs\nbG8", encoding: "base64")
      #expect(try content.decodedBody() == Data("hello".utf8))
    }

    @Test(arguments: [
      ("2024-03-05T10:11:12.345Z", "2024-03-05T10:11:12.345Z"),
      ("2024-03-05T10:11:12.345+01:00", "2024-03-05T09:11:12.345Z"),
      ("2024-03-05T10:11:12-05:30", "2024-03-05T15:41:12.000Z"),
      ("2024-03-05T10:11:12.123456+00:00", "2024-03-05T10:11:12.123Z"),
      ("2024-03-05T10:11:12.9999Z", "2024-03-05T10:11:13.000Z"),
      ("2024-03-05t10:11:12z", "2024-03-05T10:11:12.000Z"),
      ("2024-03-05 10:11:12.5+0530", "2024-03-05T04:41:12.500Z"),
      ("2024-03-05T10:11", "2024-03-05T10:11:00.000Z"),
      ("2024-02-29T23:59:59.999-01", "2024-03-01T00:59:59.999Z"),
      ("1969-12-31T23:59:59.001Z", "1969-12-31T23:59:59.001Z"),
    ])
    func timestampsParseInEveryExporterStyle(input: String, written: String) throws {
      let date = try #require(HARTimestamp.parse(input))
      #expect(HARTimestamp.format(date) == written)
    }

    @Test(arguments: [
      "", "yesterday", "2024-13-01T00:00:00Z", "2023-02-29T00:00:00Z", "2024-03-05T24:00:00Z",
      "2024-03-05T10:11:12.Z", "2024-03-05T10:11:12+25:00", "2024-03-05T10:11:12Zjunk",
    ])
    func malformedTimestampsAreRejected(input: String) {
      #expect(HARTimestamp.parse(input) == nil)
    }

    @Test func datesAreKeptToTheMillisecondSoTheyRoundTrip() throws {
      var entry = HAR.Entry.sample()
      entry.startedDateTime = Date(timeIntervalSince1970: 1_700_000_000.123_456_7)
      #expect(HARTimestamp.format(entry.startedDateTime) == "2023-11-14T22:13:20.123Z")
      let decoded = try HAR.decode(try HAR(entries: [entry]).encoded(), source: "memory")
      #expect(decoded.log.entries[0] == entry)
    }

    @Test func missingMembersGetTheSpecDefaultsAndUnknownOnesAreIgnored() throws {
      let json = """
        {"log": {"entries": [{
          "_custom": {"anything": [1, 2]},
          "startedDateTime": "2024-01-01T00:00:00Z",
          "request": {"method": "GET", "url": "https://example.com/", "_hidden": true},
          "response": {"status": 200, "_transferSize": 10, "statusText": null}
        }]}}
        """
      let har = try HAR.decode(Data(json.utf8), source: "inline")
      let entry = try #require(har.log.entries.first)
      #expect(har.log.version == "1.2")
      #expect(har.log.pages.isEmpty)
      #expect(entry.time == -1)
      #expect(entry.request.httpVersion == "")
      #expect(entry.request.cookies.isEmpty)
      #expect(entry.request.headersSize == -1)
      #expect(entry.request.bodySize == -1)
      #expect(entry.response.statusText == "")
      #expect(entry.response.content == HAR.Content(size: 0))
      #expect(entry.cache == HAR.Cache())
      #expect(entry.timings == HAR.Timings())
    }

    @Test func aMissingContentSizeIsTheBodyLength() throws {
      let json = """
        {"log": {"entries": [{"startedDateTime": "2024-01-01T00:00:00Z",
          "request": {"method": "GET", "url": "https://example.com/"},
          "response": {"status": 200, "content": {"mimeType": "text/plain", "text": "héllo"}}}]}}
        """
      let har = try HAR.decode(Data(json.utf8), source: "inline")
      #expect(har.log.entries[0].response.content.size == 6)
    }

    @Test func cacheTellsAMissingMemberFromNull() throws {
      let json = """
        {"log": {"entries": [{"startedDateTime": "2024-01-01T00:00:00Z",
          "request": {"method": "GET", "url": "https://example.com/"}, "response": {"status": 200},
          "cache": {"beforeRequest": null}}]}}
        """
      let har = try HAR.decode(Data(json.utf8), source: "inline")
      #expect(har.log.entries[0].cache.beforeRequest == .absent)
      #expect(har.log.entries[0].cache.afterRequest == .unknown)
      #expect(try har.encodedText.contains("\"beforeRequest\" : null"))
      #expect(try !har.encodedText.contains("afterRequest"))
    }

    @Test func headersSortByNameIgnoringCaseAndKeepRepeatsInOrder() {
      let headers: [HAR.Header] = [
        HAR.Header(name: "set-cookie", value: "b=2"), HAR.Header(name: "Accept", value: "*/*"),
        HAR.Header(name: "Set-Cookie", value: "a=1"), HAR.Header(name: "content-type", value: "x"),
        HAR.Header(name: "SET-COOKIE", value: "c=3"),
      ]
      #expect(
        headers.sortedByName().map(\.value) == ["*/*", "x", "b=2", "a=1", "c=3"])
    }

    @Test func notANumberIsAnEncodingErrorNotACrash() {
      var entry = HAR.Entry.sample()
      entry.time = .nan
      #expect(throws: CassetteError.self) { try HAR(entries: [entry]).encoded() }
    }
  }
}
