import Foundation
import Testing

@testable import Understudy

extension RecordingTests {
  @Suite struct HARFixtureTests {
    @Test func chromeExportLoadsWithPagesCustomMembersAndBase64Images() throws {
      let har = try HAR.load(contentsOf: HARFixtures.url("chrome-export.har"))
      #expect(har.log.creator == HAR.Creator(name: "WebInspector", version: "537.36"))
      #expect(har.log.entries.count == 3)

      let page = try #require(har.log.pages.first)
      #expect(page.id == "page_1")
      #expect(HARTimestamp.format(page.startedDateTime) == "2024-03-05T09:11:12.345Z")
      #expect(page.pageTimings == HAR.PageTimings(onContentLoad: 412.7, onLoad: 980.1))

      let document = har.log.entries[0]
      #expect(document.pageref == "page_1")
      #expect(document.request.httpVersion == "http/2.0")
      #expect(
        document.request.headers.first == HAR.Header(name: ":authority", value: "shop.example.com"))
      #expect(document.request.queryString == [HAR.NameValue(name: "ref", value: "home")])
      #expect(document.request.cookies.first?.secure == true)
      #expect(document.request.cookies.first?.expires == "2025-01-01T00:00:00.000Z")
      #expect(document.response.content.text?.hasSuffix("café lover") == true)
      #expect(document.timings.blocked == 1.2)
      #expect(document.timings.dns == -1)
      #expect(document.serverIPAddress == "93.184.216.34")

      // The image entry leaves out cookies, sizes, versions, cache and timings.
      let image = har.log.entries[1]
      #expect(image.request.cookies.isEmpty)
      #expect(image.request.headersSize == -1)
      #expect(image.request.bodySize == -1)
      #expect(image.request.httpVersion == "")
      #expect(image.cache == HAR.Cache())
      #expect(image.timings == HAR.Timings())
      #expect(HARTimestamp.format(image.startedDateTime) == "2024-03-05T09:11:12.000Z")
      let png = try #require(image.response.content.body)
      #expect(png.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
      #expect(png.count == image.response.content.size)

      let post = har.log.entries[2]
      #expect(post.request.postData?.text == "{\"sku\":\"TEA-042\",\"quantity\":2}")
      #expect(HARTimestamp.format(post.startedDateTime) == "2024-03-05T15:41:13.001Z")
    }

    @Test func mitmproxyExportLoadsWithMicrosecondDatesFormsAndRedirects() throws {
      let har = try HAR.load(contentsOf: HARFixtures.url("mitmproxy-export.har"))
      #expect(har.log.creator.name == "mitmproxy")
      #expect(har.log.pages.isEmpty)

      let login = har.log.entries[0]
      #expect(HARTimestamp.format(login.startedDateTime) == "2024-06-01T08:00:00.123Z")
      #expect(login.time == 42.123)
      #expect(login.request.postData?.params.map(\.name) == ["user", "remember", "lang"])
      #expect(login.response.status == 302)
      #expect(login.response.redirectURL == "https://app.example.com/home")
      #expect(login.response.cookies.first?.httpOnly == true)
      #expect(login.timings.ssl == 6.25)
      #expect(login.timings.blocked == -1)

      let profile = har.log.entries[1]
      #expect(
        profile.request.queryString.first == HAR.NameValue(name: "fields", value: "name,email")
      )
      #expect(profile.cache.beforeRequest == .absent)
      let body = try #require(profile.response.content.body)
      #expect(String(decoding: body, as: UTF8.self).contains("Ada Lovelace"))
    }

    @Test(arguments: ["chrome-export.har", "mitmproxy-export.har"])
    func exportsSurviveARoundTripThroughTheWriter(name: String) throws {
      let har = try HAR.load(contentsOf: HARFixtures.url(name))
      let rewritten = try HAR.decode(try har.encoded(), source: name)
      #expect(rewritten == har)
    }
  }
}
