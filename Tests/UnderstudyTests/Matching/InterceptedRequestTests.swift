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
}
