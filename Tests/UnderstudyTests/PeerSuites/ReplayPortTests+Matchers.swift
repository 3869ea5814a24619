import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension ReplayPortTests {
  /// Replay's `MatcherTests`: each matcher is a `ReplayMatching` rule, compared here between a
  /// live request and a recorded one; `firstMatch` is a cassette answering from its entries.
  /// The fragment matcher is `FragmentTests`.
  @Suite struct Matchers {
    /// One peer test: a rule, two requests, and whether they should match.
    struct Case: Sendable, CustomTestStringConvertible {
      let peer: String
      let rule: ReplayMatching.Rule
      let live: String
      let recorded: String
      let matches: Bool
      var liveMethod = "GET"
      var recordedMethod = "GET"

      var testDescription: String { peer }
    }

    private static func request(_ method: String, _ url: String) -> InterceptedRequest {
      var request = URLRequest(url: URL(string: url)!)
      request.httpMethod = method
      return InterceptedRequest(request)
    }

    private static func agree(
      _ rules: [ReplayMatching.Rule], _ live: InterceptedRequest, _ recorded: InterceptedRequest
    ) -> Bool {
      ReplayMatching(rules).firstDifference(live, recorded) == nil
    }

    static let cases: [Case] = [
      // MethodMatcherTests
      Case(
        peer: "matchesEqualMethods", rule: .method, live: "https://a.test",
        recorded: "https://b.test",
        matches: true),
      Case(
        peer: "doesNotMatchDifferentMethods", rule: .method, live: "https://a.test",
        recorded: "https://a.test", matches: false, recordedMethod: "POST"),
      Case(
        peer: "matchesNormalizedMethods", rule: .method, live: "https://a.test",
        recorded: "https://a.test", matches: true, liveMethod: "get"),
      // URLMatcherTests
      Case(
        peer: "matchesEqualURLs", rule: .url, live: "https://a.test/path?query=value",
        recorded: "https://a.test/path?query=value", matches: true),
      Case(
        peer: "doesNotMatchDifferentURLs", rule: .url, live: "https://a.test/path1",
        recorded: "https://a.test/path2", matches: false),
      Case(
        peer: "doesNotMatchDifferentQueryStrings", rule: .url, live: "https://a.test/p?a=1",
        recorded: "https://a.test/p?a=2", matches: false),
      Case(
        peer: "doesNotMatchDifferentSchemes", rule: .url, live: "https://a.test/p",
        recorded: "http://a.test/p", matches: false),
      // HostMatcherTests
      Case(
        peer: "matchesEqualHosts", rule: .host, live: "https://api.a.test/v1/users",
        recorded: "https://api.a.test/v2/posts", matches: true),
      Case(
        peer: "doesNotMatchDifferentHosts", rule: .host, live: "https://api.a.test/p",
        recorded: "https://api.b.test/p", matches: false),
      Case(
        peer: "matchesRegardlessOfScheme", rule: .host, live: "https://a.test/p",
        recorded: "http://a.test/p", matches: true),
      Case(
        peer: "matchesRegardlessOfPort", rule: .host, live: "https://a.test:443/p",
        recorded: "https://a.test:8443/p", matches: true),
      // PathMatcherTests
      Case(
        peer: "matchesEqualPaths", rule: .path, live: "https://a.test/api/v1/users",
        recorded: "https://b.test/api/v1/users", matches: true),
      Case(
        peer: "doesNotMatchDifferentPaths", rule: .path, live: "https://a.test/api/v1/users",
        recorded: "https://a.test/api/v2/users", matches: false),
      Case(
        peer: "matchesRegardlessOfQueryString", rule: .path, live: "https://a.test/p?a=1",
        recorded: "https://a.test/p?b=2", matches: true),
      Case(
        peer: "matchesEmptyPaths", rule: .path, live: "https://a.test",
        recorded: "https://b.test", matches: true),
    ]

    /// Replay's method, URL, host and path matcher tests, each named in `peer`.
    @Test(arguments: cases)
    func aRuleComparesItsPart(_ example: Case) {
      let live = Self.request(example.liveMethod, example.live)
      let recorded = Self.request(example.recordedMethod, example.recorded)
      #expect(Self.agree([example.rule], live, recorded) == example.matches)
    }

    /// Replay's `QueryMatcherTests`: `(peer test, live query, recorded query, matches)`.
    static let queries: [(String, String, String, Bool)] = [
      ("matchesEqualQueryItems", "https://a.test/p?a=1&b=2", "https://b.test/o?a=1&b=2", true),
      ("doesNotMatchDifferentQueryItems", "https://a.test/p?a=1", "https://a.test/p?a=2", false),
      ("doesNotMatchMissingQueryItem", "https://a.test/p?a=1&b=2", "https://a.test/p?a=1", false),
      ("matchesBothNoQuery", "https://a.test/p", "https://b.test/o", true),
      ("queryOrderDoesNotMatter", "https://a.test/p?a=1&b=2", "https://a.test/p?b=2&a=1", true),
      ("matchesQueryItemsWithNilValues", "https://a.test/p?key", "https://a.test/p?key", true),
      ("doesNotMatchValueVsNil", "https://a.test/p?key", "https://a.test/p?key=value", false),
      ("matchesEmptyQueryStringVsNoQuery", "https://a.test/p?", "https://a.test/p", true),
      (
        "matchesDuplicateQueryParameterNames", "https://a.test/p?a=1&a=2",
        "https://a.test/p?a=2&a=1", true
      ),
      (
        "doesNotMatchDifferentDuplicateCounts", "https://a.test/p?a=1&a=2", "https://a.test/p?a=1",
        false
      ),
      (
        "matchesURLEncodedQueryValues", "https://a.test/p?q=hello%20world",
        "https://a.test/p?q=hello%20world", true
      ),
      (
        "matchesQueryParameterNamesCaseSensitively", "https://a.test/p?Key=value",
        "https://a.test/p?key=value", false
      ),
      (
        "matchesQueryParameterValuesCaseSensitively", "https://a.test/p?key=Value",
        "https://a.test/p?key=value", false
      ),
      (
        "matchesComplexQuery", "https://a.test/p?a=1&b=2&c=3&d=4",
        "https://a.test/p?d=4&c=3&b=2&a=1", true
      ),
      (
        "matchesQueryWithSpecialCharacters", "https://a.test/p?email=u%40a.test&token=abc123",
        "https://a.test/p?token=abc123&email=u%40a.test", true
      ),
      (
        "normalizesQueryItemsBySorting", "https://a.test/p?a=2&a=1&b=3",
        "https://a.test/p?a=1&a=2&b=3", true
      ),
      (
        "normalizesNilValuesBeforeNonNil", "https://a.test/p?key=value&flag&other=test",
        "https://a.test/p?flag&key=value&other=test", true
      ),
      (
        "matchesDuplicateParametersWithMixedNilAndNonNil",
        "https://a.test/p?key&key=value&key=other",
        "https://a.test/p?key=other&key&key=value", true
      ),
      (
        "doesNotMatchDifferentDuplicateValueSets", "https://a.test/p?key=1&key=2",
        "https://a.test/p?key=1&key=3", false
      ),
      ("matchesWhenBothHaveNilQueryItems", "https://a.test/path1", "https://a.test/path2", true),
      (
        "normalizesQueryItemsAlphabeticallyByName", "https://a.test/p?z=last&a=first&m=middle",
        "https://a.test/p?a=first&m=middle&z=last", true
      ),
      (
        "normalizesQueryItemsByValueWhenNamesEqual",
        "https://a.test/p?key=zebra&key=apple&key=banana",
        "https://a.test/p?key=apple&key=banana&key=zebra", true
      ),
      (
        "handlesQueryItemsWithEmptyStringValues", "https://a.test/p?key=&other=value",
        "https://a.test/p?other=value&key=", true
      ),
      (
        "matchesComplexQueryWithDuplicatesAndNilValues",
        "https://a.test/p?a=1&flag&a=2&b=test&flag&c=3",
        "https://a.test/p?c=3&flag&a=2&b=test&a=1&flag", true
      ),
    ]

    /// Replay's `QueryMatcherTests`, one argument per peer test: items compare as a bag (order
    /// free, counts and case kept), under both `.query` and `.url`.
    @Test(arguments: queries.indices)
    func theQueryComparesItemsInAnyOrder(_ index: Int) {
      let (peer, live, recorded, matches) = Self.queries[index]
      let a = Self.request("GET", live)
      let b = Self.request("GET", recorded)
      #expect(Self.agree([.query(ignoring: [])], a, b) == matches, "\(peer)")
      if URL(string: live)?.path == URL(string: recorded)?.path,
        URL(string: live)?.host == URL(string: recorded)?.host
      {
        #expect(Self.agree([.url], a, b) == matches, "\(peer) under .url")
      }
    }

    /// `QueryMatcherTests.distinguishesBetweenEmptyStringAndNilValue`: `?key` and `?key=` are
    /// different queries to Replay.
    @Test func aBareQueryItemDiffersFromAnEmptyValue() {
      let bare = Self.request("GET", "https://a.test/p?key")
      let empty = Self.request("GET", "https://a.test/p?key=")
      #expect(!Self.agree([.query(ignoring: [])], bare, empty))
      #expect(!Self.agree(ReplayMatching.default.rules, bare, empty))
      #expect(Self.agree([.query(ignoring: [])], bare, Self.request("GET", "https://a.test/p?key")))
    }

    /// `QueryMatcherTests.handlesURLComponentsWithNilQueryItems` and
    /// `handlesResolvingAgainstBaseURLBehavior`: a URL built from components, or relative to a
    /// base, compares as its absolute form.
    @Test func builtAndRelativeURLsCompareAsTheirAbsoluteForm() throws {
      var parts = URLComponents()
      parts.scheme = "https"
      parts.host = "a.test"
      parts.path = "/path"
      let built = InterceptedRequest(URLRequest(url: try #require(parts.url)))
      #expect(
        Self.agree([.query(ignoring: []), .url], built, Self.request("GET", "https://a.test/path")))
      let base = try #require(URL(string: "https://a.test/base/"))
      let relative = try #require(URL(string: "path?a=1&b=2", relativeTo: base))
      #expect(
        Self.agree(
          [.query(ignoring: []), .url], InterceptedRequest(URLRequest(url: relative)),
          Self.request("GET", "https://a.test/base/path?b=2&a=1")))
    }

    private static func request(_ url: String, headers: [String: String]) -> InterceptedRequest {
      var request = URLRequest(url: URL(string: url)!)
      for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
      return InterceptedRequest(request)
    }

    /// `HeadersMatcherTests`: the named headers must agree (names in any case); others and an
    /// empty list do not matter.
    @Test func namedHeadersMustAgree() {
      let json = ["Content-Type": "application/json", "Authorization": "Bearer t"]
      // matchesEqualHeaders
      #expect(
        Self.agree(
          [.headers(["Content-Type", "Authorization"])],
          Self.request("https://a.test", headers: json),
          Self.request("https://b.test", headers: json)))
      // doesNotMatchDifferentHeaderValues
      #expect(
        !Self.agree(
          [.headers(["Content-Type"])],
          Self.request("https://a.test", headers: ["Content-Type": "application/json"]),
          Self.request("https://a.test", headers: ["Content-Type": "text/plain"])))
      // doesNotMatchMissingHeader
      #expect(
        !Self.agree(
          [.headers(["Authorization"])],
          Self.request("https://a.test", headers: ["Authorization": "Bearer t"]),
          Self.request("https://a.test", headers: [:])))
      // ignoresOtherHeaders
      #expect(
        Self.agree(
          [.headers(["Content-Type"])],
          Self.request("https://a.test", headers: ["Content-Type": "text/plain", "X-Extra": "1"]),
          Self.request("https://a.test", headers: ["Content-Type": "text/plain", "X-Extra": "2"])))
      // matchesWithEmptyHeaderList
      #expect(
        Self.agree(
          [.headers([])], Self.request("https://a.test", headers: ["X-Custom": "1"]),
          Self.request("https://b.test", headers: ["X-Custom": "2"])))
      // headerNamesCaseInsensitive
      #expect(
        Self.agree(
          [.headers(["CONTENT-TYPE"])],
          Self.request("https://a.test", headers: ["content-type": "application/json"]),
          Self.request("https://a.test", headers: ["Content-Type": "application/json"])))
    }

    /// `BodyMatcherTests`: bodies compare byte for byte; two absent bodies match, an absent
    /// one does not match a present one.
    @Test func bodiesCompareByteForByte() {
      func post(_ body: Data?) -> InterceptedRequest {
        InterceptedRequest(method: .post, url: URL(string: "https://a.test")!, body: body)
      }
      #expect(Self.agree([.body], post(Data("test body".utf8)), post(Data("test body".utf8))))
      #expect(!Self.agree([.body], post(Data("body 1".utf8)), post(Data("body 2".utf8))))
      #expect(Self.agree([.body], post(nil), post(nil)))
      #expect(!Self.agree([.body], post(Data("body".utf8)), post(nil)))
      #expect(Self.agree([.body], post(Data([0, 1, 2, 0xFF])), post(Data([0, 1, 2, 0xFF]))))
    }

    /// `CustomMatcherTests` (usesCustomClosure, customMatcherReturnsFalse,
    /// customMatcherReceivesCorrectRequests): the closure decides, and gets the live request
    /// first and the recorded one second.
    @Test func aCustomRuleDecides() {
      let users: ReplayMatching.Rule = .custom("both under /users/") { live, recorded in
        live.path.hasPrefix("/users/") && recorded.path.hasPrefix("/users/")
      }
      #expect(
        Self.agree(
          [users], Self.request("GET", "https://a.test/users/123"),
          Self.request("GET", "https://a.test/users/456")))
      #expect(
        !Self.agree(
          [.custom("never") { _, _ in false }], Self.request("GET", "https://a.test"),
          Self.request("GET", "https://a.test")))
      let order: ReplayMatching.Rule = .custom("order") { live, recorded in
        live.methodName == "POST" && live.path == "/a" && recorded.methodName == "GET"
          && recorded.path == "/b"
      }
      #expect(
        Self.agree(
          [order], Self.request("POST", "https://a.test/a"), Self.request("GET", "https://a.test/b")
        ))
      #expect(
        ReplayMatching([order]).firstDifference(
          Self.request("GET", "https://a.test/a"), Self.request("GET", "https://a.test/b"))
          == "order")
    }

    /// `ArrayExtensionTests.defaultMatchers` (and `matchesSingleRequest`): the default compares
    /// method and URL.
    @Test func theDefaultRulesAreMethodAndURL() {
      let get = Self.request("GET", "https://a.test/path")
      let matching = ReplayMatching.default
      #expect(matching.firstDifference(get, get) == nil)
      #expect(matching.firstDifference(get, Self.request("GET", "https://a.test/path")) == nil)
      #expect(matching.firstDifference(get, Self.request("POST", "https://a.test/path")) != nil)
      #expect(matching.firstDifference(get, Self.request("GET", "https://a.test/other")) != nil)
    }

    /// `ArrayExtensionTests.multipleMatchersAllMustPass` and `emptyMatchersArrayMatches`, and
    /// `CombinedMatcherTests` (hostAndPathIgnoresQuery, fullMatchingWithoutScheme): every rule
    /// must hold, no rule means any request matches, and host + path + query leave the scheme out.
    @Test func rulesCombineAndAllMustHold() {
      #expect(
        !Self.agree(
          [.method, .host, .path], Self.request("GET", "https://a.test/path"),
          Self.request("GET", "https://b.test/path")))
      #expect(
        Self.agree(
          [], Self.request("GET", "https://a.test/a"), Self.request("POST", "https://b.test/b")))
      #expect(
        Self.agree(
          [.host, .path], Self.request("GET", "https://api.a.test/v1/users?page=1"),
          Self.request("GET", "https://api.a.test/v1/users?page=2")))
      #expect(
        Self.agree(
          [.method, .host, .path, .query(ignoring: [])],
          Self.request("GET", "https://api.a.test/v1/users?page=1"),
          Self.request("GET", "http://api.a.test/v1/users?page=1")))
    }
  }
}
