import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension ReplayPortTests {
  /// Replay's `FilterTests`: header, query and body filters become `Redaction` rules, the
  /// `replacement:` text is `replacingValues(with:)`, and custom filters are `beforeRecord`
  /// hooks. `.headers(keeping:)` is `HeaderAllowListTests`; the replacement text in every
  /// spelling (URL, form, JSON) is `ReplacementTextTests`.
  @Suite struct Filters {
    private func entry(
      url: String = "https://api.test/orders", requestHeaders: [HAR.Header] = [],
      queryString: [HAR.NameValue] = [], postData: HAR.PostData? = nil,
      responseHeaders: [HAR.Header] = [],
      content: HAR.Content = HAR.Content(
        size: 2, mimeType: "text/plain", text: "OK")
    ) -> HAR.Entry {
      HAR.Entry(
        startedDateTime: Date(timeIntervalSince1970: 1_700_000_000), time: 10,
        request: HAR.Request(
          method: postData == nil ? "GET" : "POST", url: url, headers: requestHeaders,
          queryString: queryString, postData: postData),
        response: HAR.Response(
          status: 200, statusText: "OK", headers: responseHeaders, content: content))
    }

    private func value(_ name: String, in headers: [HAR.Header]) -> String? {
      headers.first { $0.name == name }?.value
    }

    // MARK: Headers

    /// `HeadersFilterTests.redactsRequestHeaders`: a named request header gets the text,
    /// the others are kept.
    @Test func aNamedRequestHeaderIsReplaced() {
      let redaction = Redaction.default.redactingHeaders("X-Tenant").replacingValues(
        with: "[REDACTED]")
      let written = redaction.redact(
        entry(requestHeaders: [
          HAR.Header(name: "X-Tenant", value: "acme-internal-7"),
          HAR.Header(name: "Content-Type", value: "application/json"),
        ]))
      #expect(value("X-Tenant", in: written.request.headers) == "[REDACTED]")
      #expect(value("Content-Type", in: written.request.headers) == "application/json")
    }

    /// `HeadersFilterTests.redactsResponseHeaders`: response headers are filtered too.
    @Test func aNamedResponseHeaderIsReplaced() {
      let redaction = Redaction.default.redactingHeaders("X-Upstream").replacingValues(
        with: "[FILTERED]")
      let written = redaction.redact(
        entry(responseHeaders: [
          HAR.Header(name: "X-Upstream", value: "10.1.2.3:8443"),
          HAR.Header(name: "Content-Length", value: "100"),
        ]))
      #expect(value("X-Upstream", in: written.response.headers) == "[FILTERED]")
      #expect(value("Content-Length", in: written.response.headers) == "100")
    }

    /// `HeadersFilterTests.caseInsensitiveMatching`: every spelling of the name is filtered.
    @Test func headerNamesMatchInAnyCase() {
      let redaction = Redaction.default.redactingHeaders("x-tenant").replacingValues(
        with: "[REDACTED]")
      let written = redaction.redact(
        entry(requestHeaders: [
          HAR.Header(name: "X-TENANT", value: "tenant-one-1"),
          HAR.Header(name: "X-Tenant", value: "tenant-two-2"),
          HAR.Header(name: "x-tenant", value: "tenant-three-3"),
        ]))
      #expect(written.request.headers.map(\.value) == ["[REDACTED]", "[REDACTED]", "[REDACTED]"])
    }

    /// `HeadersFilterTests.redactsMultipleHeaders`: several names in one rule.
    @Test func severalHeadersAreReplacedAtOnce() {
      let redaction = Redaction.default.redactingHeaders("X-Tenant", "X-Upstream")
        .replacingValues(with: "[FILTERED]")
      let written = redaction.redact(
        entry(requestHeaders: [
          HAR.Header(name: "X-Tenant", value: "acme-internal-7"),
          HAR.Header(name: "X-Upstream", value: "10.1.2.3:8443"),
          HAR.Header(name: "Content-Type", value: "application/json"),
        ]))
      #expect(
        written.request.headers.map(\.value) == ["[FILTERED]", "[FILTERED]", "application/json"])
    }

    /// `HeadersFilterTests.preservesHeaderNameAndComment`: only the value changes.
    @Test func aReplacedHeaderKeepsItsNameAndComment() throws {
      let written = Redaction.default.replacingValues(with: "[REDACTED]").redact(
        entry(requestHeaders: [
          HAR.Header(name: "Authorization", value: "Bearer tok_1a2b3c4d5e6f", comment: "Auth")
        ]))
      let header = try #require(written.request.headers.first)
      #expect(header.name == "Authorization")
      #expect(header.value == "[REDACTED]")
      #expect(header.comment == "Auth")
    }

    // MARK: Query parameters

    /// `QueryParametersFilterTests.redactsQueryParameters`: the named parameter gets the text
    /// in the URL and in the HAR query list; others are kept.
    @Test func aNamedQueryParameterIsReplaced() {
      let redaction = Redaction.default.redactingQueryParameters("session_ref").replacingValues(
        with: "[FILTERED]")
      let written = redaction.redact(
        entry(
          url: "https://api.test/orders?session_ref=sr-998877&page=1",
          queryString: [
            HAR.NameValue(name: "session_ref", value: "sr-998877"),
            HAR.NameValue(name: "page", value: "1"),
          ]))
      #expect(written.request.queryString.map(\.value) == ["[FILTERED]", "1"])
      #expect(written.request.url == "https://api.test/orders?session_ref=%5BFILTERED%5D&page=1")
    }

    /// `QueryParametersFilterTests.redactsMultipleQueryParameters`.
    @Test func severalQueryParametersAreReplacedAtOnce() {
      let redaction = Redaction.default.redactingQueryParameters("session_ref", "cursor")
        .replacingValues(with: "[REMOVED]")
      let written = redaction.redact(
        entry(
          url: "https://api.test/orders?session_ref=sr-1&cursor=c-2&limit=10",
          queryString: [
            HAR.NameValue(name: "session_ref", value: "sr-1"),
            HAR.NameValue(name: "cursor", value: "c-2"),
            HAR.NameValue(name: "limit", value: "10"),
          ]))
      #expect(written.request.queryString.map(\.value) == ["[REMOVED]", "[REMOVED]", "10"])
    }

    /// `QueryParametersFilterTests.preservesParameterNameAndComment`.
    @Test func aReplacedQueryParameterKeepsItsNameAndComment() {
      let written = Redaction.default.replacingValues(with: "[FILTERED]").redact(
        entry(
          url: "https://api.test/orders?api_key=ak_live_5566778899",
          queryString: [
            HAR.NameValue(name: "api_key", value: "ak_live_5566778899", comment: "key")
          ]))
      let parameter = written.request.queryString.first
      #expect(parameter?.name == "api_key")
      #expect(parameter?.value == "[FILTERED]")
      #expect(parameter?.comment == "key")
    }

    /// `QueryParametersFilterTests.caseSensitiveMatching`, answered differently by design:
    /// Replay filters `api_key` but not `API_KEY`; Understudy's rules compare names as words
    /// (MigratingFromReplay.md, "Names compare as words"), so both spellings are filtered and
    /// neither value reaches the cassette.
    @Test func queryParameterNamesCompareAsWords() {
      let redaction = Redaction.default.redactingQueryParameters("session_ref").replacingValues(
        with: "[FILTERED]")
      let written = redaction.redact(
        entry(
          url: "https://api.test/orders?SESSION_REF=value1&session_ref=value2",
          queryString: [
            HAR.NameValue(name: "SESSION_REF", value: "value1"),
            HAR.NameValue(name: "session_ref", value: "value2"),
          ]))
      #expect(written.request.queryString.map(\.value) == ["[FILTERED]", "[FILTERED]"])
    }

    /// `AllowlistTests.queryParametersKeeping`: Understudy has no query allow-list (the query
    /// is what replay matches), so a `beforeRecord` hook drops the other parameters.
    @Test func aHookKeepsOnlyTheNamedQueryParameters() async throws {
      let server = try await LoopbackServer.shared()
      let folder = ReplayPortTests.scratchFolder()
      defer { ReplayPortTests.cleanUp(folder) }
      let kept: Set<String> = ["page", "limit"]
      let options = CassetteOptions().beforeRecord { entry in
        var entry = entry
        guard var parts = URLComponents(string: entry.request.url) else { return entry }
        parts.queryItems = parts.queryItems?.filter { kept.contains($0.name) }
        entry.request.url = parts.string ?? entry.request.url
        entry.request.queryString.removeAll { !kept.contains($0.name) }
        return entry
      }
      let har = try await ReplayPortTests.record(
        URLRequest(url: server.url("/echo/items?tracking=t-1&page=1&limit=10")),
        options: options, in: folder)
      let request = try #require(har.log.entries.first?.request)
      #expect(request.queryString.map(\.name) == ["page", "limit"])
      #expect(request.url.hasSuffix("/echo/items?page=1&limit=10"))
    }

    // MARK: Bodies

    private func bodyRule(_ pattern: String, _ text: String) throws -> Redaction {
      Redaction.default.redactingBodies(try Redaction.BodyPattern(name: "rule", pattern: pattern))
        .replacingValues(with: text)
    }

    /// `BodyFilterTests.replacesPatternInRequestBody`.
    @Test func aBodyPatternIsReplacedInTheRequest() throws {
      let written = try bodyRule("hunter2word", "[REDACTED]").redact(
        entry(
          postData: HAR.PostData(
            mimeType: "text/plain", text: #"{"pw":"hunter2word","user":"test"}"#)))
      #expect(written.request.postData?.text == #"{"pw":"[REDACTED]","user":"test"}"#)
    }

    /// `BodyFilterTests.replacesPatternInResponseBody`.
    @Test func aBodyPatternIsReplacedInTheResponse() throws {
      let written = try bodyRule("eyJhbGciOiJIUzI1NiJ9", "[TOKEN]").redact(
        entry(
          content: HAR.Content(
            size: 40, mimeType: "text/plain",
            text: #"{"t":"eyJhbGciOiJIUzI1NiJ9","status":"ok"}"#)))
      #expect(written.response.content.text == #"{"t":"[TOKEN]","status":"ok"}"#)
    }

    /// `BodyFilterTests.replacesPatternInBothBodies` and `replacesAllOccurrences`.
    @Test func aBodyPatternIsReplacedEverywhereInBothBodies() throws {
      let written = try bodyRule("SEKRIT", "hidden").redact(
        entry(
          postData: HAR.PostData(mimeType: "text/plain", text: "SEKRIT-SEKRIT-SEKRIT"),
          content: HAR.Content(size: 20, mimeType: "text/plain", text: "Your SEKRIT is valid")))
      #expect(written.request.postData?.text == "hidden-hidden-hidden")
      #expect(written.response.content.text == "Your hidden is valid")
    }

    /// `BodyFilterTests.preservesPostDataProperties`: the media type, form parameters and
    /// comment of the request body survive.
    @Test func aFilteredRequestBodyKeepsItsOtherMembers() throws {
      let written = try bodyRule("SEKRIT", "hidden").redact(
        entry(
          postData: HAR.PostData(
            mimeType: "application/json", params: [HAR.PostParameter(name: "field", value: "v")],
            text: "SEKRIT-data", comment: "Request body")))
      let postData = try #require(written.request.postData)
      #expect(postData.mimeType == "application/json")
      #expect(postData.text == "hidden-data")
      #expect(postData.params.count == 1)
      #expect(postData.comment == "Request body")
    }

    /// `BodyFilterTests.preservesResponseContentProperties`: the media type, compression and
    /// comment survive. The size differs by design: Replay keeps the size declared before
    /// filtering (100), Understudy writes the size of the body it writes, so the file never
    /// tells the length of what was taken out.
    @Test func aFilteredResponseBodyKeepsItsOtherMembers() throws {
      let written = try bodyRule("SEKRIT", "hidden").redact(
        entry(
          content: HAR.Content(
            size: 100, compression: 50, mimeType: "application/json", text: "SEKRIT-response",
            comment: "Response content")))
      let content = written.response.content
      #expect(content.mimeType == "application/json")
      #expect(content.text == "hidden-response")
      #expect(content.compression == 50)
      #expect(content.comment == "Response content")
      #expect(content.size == "hidden-response".utf8.count)
    }

    /// `BodyFilterTests.handlesNilRequestBody` and `handlesNilResponseBody`: an absent body
    /// stays absent.
    @Test func anAbsentBodyStaysAbsent() throws {
      let rule = try bodyRule("SEKRIT", "hidden")
      let noRequestBody = rule.redact(
        entry(content: HAR.Content(size: 8, mimeType: "text/plain", text: "response")))
      #expect(noRequestBody.request.postData == nil)
      #expect(noRequestBody.response.content.text == "response")
      let noResponseBody = rule.redact(
        entry(
          postData: HAR.PostData(mimeType: "text/plain", text: "request SEKRIT"),
          content: HAR.Content(mimeType: "text/plain")))
      #expect(noResponseBody.request.postData?.text == "request hidden")
      #expect(noResponseBody.response.content.text == nil)
    }

    // MARK: Custom filters and body transforms

    /// `CustomFilterTests.appliesArbitraryTransformation`, `canModifyRequest` and
    /// `canModifyResponse`: a `beforeRecord` hook edits what is written.
    @Test func aHookEditsTheRecordedEntry() async throws {
      let server = try await LoopbackServer.shared()
      let folder = ReplayPortTests.scratchFolder()
      defer { ReplayPortTests.cleanUp(folder) }
      let options = CassetteOptions().beforeRecord { entry in
        var entry = entry
        entry.comment = "Modified by a hook"
        entry.request.headers = entry.request.headers.map {
          $0.name == "X-Custom" ? HAR.Header(name: $0.name, value: $0.value.uppercased()) : $0
        }
        entry.response.status = 201
        entry.response.statusText = "Created"
        return entry
      }
      var request = URLRequest(url: server.url("/echo/custom"))
      request.setValue("original", forHTTPHeaderField: "X-Custom")
      let har = try await ReplayPortTests.record(request, options: options, in: folder)
      let written = try #require(har.log.entries.first)
      #expect(written.comment == "Modified by a hook")
      #expect(written.request.headers.first { $0.name == "X-Custom" }?.value == "ORIGINAL")
      #expect(written.response.status == 201)
      #expect(written.response.statusText == "Created")
    }

    private struct User: Codable, Equatable {
      var name: String
      var role: String
    }

    /// `BodyTransformTests.transformsRequestBody`: Replay's `.body(decoding:transform:)` is a
    /// `beforeRecord` hook that decodes, edits and encodes the body.
    @Test func aHookRewritesADecodedRequestBody() async throws {
      let server = try await LoopbackServer.shared()
      let folder = ReplayPortTests.scratchFolder()
      defer { ReplayPortTests.cleanUp(folder) }
      let options = CassetteOptions().beforeRecord { entry in
        var entry = entry
        guard let postData = entry.request.postData, let body = postData.body,
          var user = try? JSONDecoder().decode(User.self, from: body)
        else { return entry }
        user.role = "user"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        entry.request.postData = HAR.PostData(
          body: try encoder.encode(user), mimeType: postData.mimeType)
        return entry
      }
      var request = URLRequest(url: server.url("/echo/users"))
      request.httpMethod = "POST"
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
      request.httpBody = Data(#"{"name":"Alice","role":"admin"}"#.utf8)
      let har = try await ReplayPortTests.record(request, options: options, in: folder)
      let written = try #require(har.log.entries.first?.request.postData?.text)
      #expect(written == #"{"name":"Alice","role":"user"}"#)
    }
  }
}
