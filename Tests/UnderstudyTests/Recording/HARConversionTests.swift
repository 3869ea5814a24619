import Foundation
import Testing

@testable import Understudy

extension RecordingTests {
  @Suite struct HARConversionTests {
    private let binary = Data([0x00, 0xFF, 0xC3, 0x28, 0x89, 0x50])

    @Test func aRequestBecomesAHARRequestAndComesBackTheSame() throws {
      let request = InterceptedRequest(
        method: "post", url: URL(string: "https://api.example.com/upload?name=a%20b&flag#section")!,
        headers: ["Content-Type": "application/octet-stream", "X-Trace": "1"], body: binary)
      let har = HAR.Request(request)
      #expect(har.method == "POST")
      // The fragment stays, for the `.fragment` replay rule (HAR 1.2 would leave it out).
      #expect(har.url == "https://api.example.com/upload?name=a%20b&flag#section")
      #expect(har.headers.map(\.name) == ["Content-Type", "X-Trace"])
      #expect(
        har.queryString == [
          HAR.NameValue(name: "name", value: "a b"),
          HAR.NameValue(name: "flag", value: ""),
        ])
      #expect(har.postData?.mimeType == "application/octet-stream")
      #expect(har.postData?.encoding == "base64")
      #expect(har.bodySize == binary.count)
      #expect(har.cookies.isEmpty)

      let replayed = try har.interceptedRequest()
      #expect(replayed.method == "POST")
      #expect(
        replayed.url.absoluteString == "https://api.example.com/upload?name=a%20b&flag#section")
      #expect(replayed.headers == request.headers)
      #expect(replayed.body == binary)
    }

    @Test func aRequestWithoutABodyHasNoPostData() throws {
      let har = HAR.Request(InterceptedRequest(url: URL(string: "https://example.com/")!))
      #expect(har.postData == nil)
      #expect(har.bodySize == 0)
      #expect(try har.interceptedRequest().body == nil)
    }

    @Test func anUnparsableURLIsACassetteError() {
      let request = HAR.Request(method: "GET", url: "http://exa mple.com/[")
      let error = cassetteError { _ = try request.interceptedRequest() }
      #expect(error?.kind == .invalidValue)
      #expect(error?.jsonPath == "request.url")
    }

    @Test func aStubbedResponseBecomesAHARResponse() {
      let headers: HTTPHeaders = [
        "Content-Type": "image/png", "Location": "https://example.com/next", "Set-Cookie": "a=1",
      ]
      let response = HAR.Response(status: 201, headers: headers, body: binary)
      #expect(response.statusText == "Created")
      #expect(response.redirectURL == "https://example.com/next")
      #expect(response.content.mimeType == "image/png")
      #expect(response.content.body == binary)
      #expect(response.bodySize == binary.count)
      #expect(response.httpHeaders == headers)
    }

    @Test func aRealResponseBecomesAHARResponseWithSortedHeaders() throws {
      let url = URL(string: "https://example.com/")!
      let real = try #require(
        HTTPURLResponse(
          url: url, statusCode: 404, httpVersion: "HTTP/1.1",
          headerFields: ["X-B": "2", "content-type": "text/plain", "A": "1"]))
      let response = HAR.Response(real, body: Data("gone".utf8))
      #expect(response.status == 404)
      #expect(response.statusText == "Not Found")
      #expect(response.headers.map(\.name).map { $0.lowercased() } == ["a", "content-type", "x-b"])
      #expect(response.content.text == "gone")

      let replayed = try #require(response.httpURLResponse(url: url))
      #expect(replayed.statusCode == 404)
      #expect(replayed.value(forHTTPHeaderField: "X-B") == "2")
    }

    @Test func anEntryCountsItsDurationInMillisecondsAsWaiting() {
      let started = Date(timeIntervalSince1970: 1_700_000_000)
      let entry = HAR.Entry(
        request: InterceptedRequest(url: URL(string: "https://example.com/")!),
        response: HAR.Response(status: 200, headers: [:], body: nil), startedDateTime: started,
        duration: .milliseconds(250) + .microseconds(500))
      #expect(entry.time == 250.5)
      #expect(entry.timings.wait == 250.5)
      #expect(entry.timings.send == 0 && entry.timings.receive == 0)
      #expect(entry.timings.dns == -1)
      #expect(entry.startedDateTime == started)
      #expect(entry.response.content == HAR.Content(mimeType: ""))
    }
  }
}
