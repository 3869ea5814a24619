import Testing

@testable import Understudy

/// Mocker's `testComposedURLMatch`: a URL composed relative to a base matches the request sent to
/// the absolute URL it spells.
@Suite struct RelativeURLTests {
  static let base = URL(string: "https://host.com/api/")!

  @Test func aURLBuiltRelativeToABaseMatchesItsAbsoluteURL() {
    let relative = URL(string: "resource?page=2", relativeTo: Self.base)!
    let pattern = RequestPattern.url(relative)
    expectMatch(pattern, request("GET", "https://host.com/api/resource?page=2"))
    #expect(pattern.indexedPath == "/api/resource")
    #expect(pattern.description == "url == https://host.com/api/resource?page=2")
  }

  @Test func aFileStyleURLRelativeToAnHTTPBaseMatchesToo() {
    let composed = URL(fileURLWithPath: "resource", relativeTo: Self.base)
    expectMatch(.url(composed), request("GET", composed.absoluteString))
  }

  @Test func aStubForARelativeURLAnswersTheRequest() async throws {
    let registry = StubRegistry()
    registry.stub(.url(URL(string: "resource", relativeTo: Self.base)!), .text("found"))
    let (data, _) = try await registry.makeSession().data(
      from: URL(string: "https://host.com/api/resource")!)
    #expect(String(decoding: data, as: UTF8.self) == "found")
  }

  @Test func theReportNamesTheRealDifferenceNotThePath() {
    let pattern = RequestPattern.url(URL(string: "resource?page=2", relativeTo: Self.base)!)
    expectMismatch(
      pattern, request("GET", "https://host.com/api/resource?page=3"),
      field: "url", expected: "== https://host.com/api/resource?page=2",
      actual: "https://host.com/api/resource?page=3 (query differs)")
  }
}
