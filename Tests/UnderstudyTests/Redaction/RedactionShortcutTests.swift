import Foundation
import Testing

@testable import Understudy

/// The shortcut replay takes for requests redaction cannot change: `mayChange` must say yes for
/// every request the rules would change, since a request it passes is matched unredacted.
@Suite struct RedactionShortcutTests {
  private static let base = URL(string: "https://api.example.com/base/")!

  @Test(
    arguments: [
      ("https://api.example.com/items", [:], nil, false),
      ("https://api.example.com/items?page=2&sort=name", [:], nil, false),
      ("https://api.example.com/", ["Accept": "application/json"], nil, false),
      ("https://api.example.com/app;jsessionid=S1/items", [:], nil, true),
      ("https://api.example.com/app%3Bjsessionid=S1/items", [:], nil, true),
      ("https://api.example.com/a?x=1;token=T1", [:], nil, true),
      ("https://api.example.com/a#access_token=T2", [:], nil, true),
      ("https://ada:pa55word@api.example.com/a", [:], nil, true),
      ("https://api.example.com/a?access_token=T3", [:], nil, true),
      ("https://api.example.com/a", ["Authorization": "Bearer T4"], nil, true),
      ("https://api.example.com/a", ["Referer": "https://x.example.com/?token=T5"], nil, true),
      ("https://api.example.com/a", [:], "name=value", true),
    ] as [(String, [String: String], String?, Bool)])
  func saysARequestMayChangeWhenRedactionChangesIt(
    url: String, headers: [String: String], body: String?, mayChange: Bool
  ) throws {
    let request = InterceptedRequest(
      method: body == nil ? .get : .post, url: try #require(URL(string: url)),
      headers: HTTPHeaders(headers), body: body.map { Data($0.utf8) })
    #expect(CompiledRedaction(.default).mayChange(request) == mayChange)
    let probe = HAR.Entry(
      request: request, response: HAR.Response(status: 0, headers: [:], body: nil),
      startedDateTime: Date(timeIntervalSince1970: 0), duration: .zero)
    if !mayChange { #expect(Redaction.default.redact(probe).request == probe.request) }
  }

  /// A URL relative to a base: the path that counts is the whole one, base included.
  @Test func looksAtTheWholePathOfARelativeURL() throws {
    let relative = try #require(URL(string: "app;jsessionid=S1/x", relativeTo: Self.base))
    let inBase = try #require(
      URL(string: "x", relativeTo: URL(string: "https://api.example.com/app;jsessionid=S2/")))
    #expect(CompiledRedaction(.default).mayChange(InterceptedRequest(url: relative)))
    #expect(CompiledRedaction(.default).mayChange(InterceptedRequest(url: inBase)))
    #expect(!CompiledRedaction(.default).mayChange(InterceptedRequest(url: Self.base)))
  }
}
