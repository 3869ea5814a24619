import Testing

@testable import Understudy

/// The request snapshot reads path and query from the URL's own accessors where it can; it must
/// agree with URLComponents, which it used to parse every URL with.
@Suite struct InterceptedRequestTests {
  static let urls: [URL] =
    [
      "https://api.test/users/42", "https://api.test", "https://api.test/",
      "https://api.test/a%20b/c%2Fd", "https://api.test//double//slash/",
      "https://api.test/caf%C3%A9?x=1&y=%20z#frag", "myapp://handoff/open", "myapp:open",
      "https://[::1]:8080/x?y", "http://h/%7Euser", "https://api.test/a;b=c/d",
      "https://api.test/100%25", "https://api.test/?q=1", "https://api.test?q=1&q=2",
      "https://api.test/p?", "https://user:pw@API.Test/p", "http://[fe80::1%25eth0]:80/p",
      "http://ex%41mple.test/p",
    ].map { URL(string: $0)! } + [
      URL(string: "users/7?x=1", relativeTo: URL(string: "https://api.test/v1/")!)!,
      URL(string: "/abs", relativeTo: URL(string: "https://api.test/v1/")!)!,
    ]

  @Test(arguments: urls) func pathAndQueryAgreeWithURLComponents(url: URL) {
    let request = InterceptedRequest(url: url)
    let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    let path = components?.path ?? url.path
    #expect(request.path == (path.isEmpty ? "/" : path))
    #expect(request.queryItems == (components?.queryItems ?? []))
    #expect(request.encodedPath == url.path(percentEncoded: true))
    #expect(request.host == url.host?.lowercased())
  }

  @Test func copiesAreIndependentValues() {
    let original = request(
      "post", "https://a.test/users/7?x=1", headers: ["X-A": "1"], body: Data("{}".utf8))
    var changed = original
    changed.method = "PUT"
    changed.headers["X-A"] = "2"
    changed.body = nil
    changed.pathParameters = ["id": "7"]
    changed.timeoutInterval = 5
    #expect(original.method == "POST")
    #expect(original.headers["X-A"] == "1")
    #expect(original.body == Data("{}".utf8))
    #expect(original.pathParameters.isEmpty)
    #expect(original.timeoutInterval == 60)
    #expect(changed.method == "PUT" && changed.headers["X-A"] == "2" && changed.body == nil)
    #expect(changed.pathParameters == ["id": "7"] && changed.timeoutInterval == 5)
    // The URL's parts are shared, never changed.
    #expect(changed.path == "/users/7" && changed.queryItems == original.queryItems)
    #expect(changed.host == "a.test")
  }

  /// Snapshots of one URL share its parts, so a journal that keeps every request does not keep
  /// the URL again for each; a URL read after many others still gets its own parts.
  @Test func snapshotsShareTheirURLsParts() {
    let recent = RecentReadings<String, ParsedURL>(capacity: 3)
    // Twice round a list longer than the memo, so every URL is both found and replaced.
    for url in Self.urls + Self.urls {
      let parts = ParsedURL.of(url, in: recent)
      let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
      let path = components?.path ?? url.path
      #expect(parts.url == url)
      #expect(parts.path == (path.isEmpty ? "/" : path))
      #expect(parts.queryItems == (components?.queryItems ?? []))
      #expect(parts.port == url.port && parts.scheme == url.scheme?.lowercased())
    }
    let url = URL(string: "https://api.test/orders?page=2")!
    let first = ParsedURL.of(url, in: recent)
    #expect(ParsedURL.of(URL(string: url.absoluteString)!, in: recent) === first)
    // A relative URL is read afresh, never taken for an absolute one it may resemble.
    let relative = URL(string: "/orders?page=2", relativeTo: URL(string: "https://b.test/")!)!
    let parsedRelative = ParsedURL.of(relative, in: recent)
    #expect(parsedRelative !== first && parsedRelative.url == relative)
    // Three other URLs push it out; it is read again, with the same parts.
    for other in ["https://a.test/1", "https://a.test/2", "https://a.test/3"] {
      _ = ParsedURL.of(URL(string: other)!, in: recent)
    }
    let again = ParsedURL.of(url, in: recent)
    #expect(again !== first && again.path == "/orders" && again.queryItems == first.queryItems)
  }

  /// Requests that send the same fields share one header list; other fields get their own.
  @Test func requestsWithTheSameFieldsShareTheirHeaderList() {
    let recent = RecentReadings<[String: String], HTTPHeaders>(capacity: 2)
    let fields = ["Content-Type": "application/json", "Authorization": "Bearer a", "x-id": "1"]
    let first = InterceptedRequest.sharedHeaders(of: fields, in: recent)
    #expect(first == HTTPHeaders(fields))
    #expect(first.fields.map(\.name) == ["Authorization", "Content-Type", "x-id"])
    let again = InterceptedRequest.sharedHeaders(of: fields, in: recent)
    #expect(sameBuffer(again, first))
    var changed = fields
    changed["x-id"] = "2"
    let other = InterceptedRequest.sharedHeaders(of: changed, in: recent)
    #expect(other == HTTPHeaders(changed) && !sameBuffer(other, first))
    // Two other lists push the first out; it is read again, equal but not shared.
    _ = InterceptedRequest.sharedHeaders(of: ["A": "1"], in: recent)
    let reread = InterceptedRequest.sharedHeaders(of: fields, in: recent)
    #expect(reread == first && !sameBuffer(reread, first))
    #expect(InterceptedRequest.sharedHeaders(of: [:], in: recent).fields.isEmpty)
  }

  private func sameBuffer(_ one: HTTPHeaders, _ other: HTTPHeaders) -> Bool {
    one.fields.withUnsafeBufferPointer { a in
      other.fields.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress }
    }
  }
}
