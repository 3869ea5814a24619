import Testing

@testable import Understudy

/// A request to `url`, the way the protocol would snapshot it.
func request(
  _ method: HTTPMethod = .get, _ url: String, headers: HTTPHeaders = [:], body: Data? = nil
) -> InterceptedRequest {
  InterceptedRequest(method: method, url: URL(string: url)!, headers: headers, body: body)
}

/// A request whose body is `text` in UTF-8.
func request(_ url: String, text: String, method: HTTPMethod = .post) -> InterceptedRequest {
  request(method, url, body: Data(text.utf8))
}

/// Checks that `pattern` rejects `request` with exactly one mismatch, reported as given.
func expectMismatch(
  _ pattern: RequestPattern, _ request: InterceptedRequest,
  field: String, expected: String, actual: String,
  sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  #expect(pattern.match(request) == nil, sourceLocation: sourceLocation)
  #expect(
    pattern.explain(request).mismatches
      == [FieldMismatch(field: field, expected: expected, actual: actual)],
    sourceLocation: sourceLocation)
}

/// Checks that `pattern` accepts `request`, capturing exactly `captures`.
func expectMatch(
  _ pattern: RequestPattern, _ request: InterceptedRequest, captures: [String: String] = [:],
  sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  #expect(pattern.match(request) == captures, sourceLocation: sourceLocation)
  #expect(pattern.explain(request).isMatch, sourceLocation: sourceLocation)
  #expect(pattern.problems.isEmpty, sourceLocation: sourceLocation)
}

/// Checks that `pattern` reports exactly `problem` and matches nothing, not even `request`.
func expectInvalid(
  _ pattern: RequestPattern, problem: String, against request: InterceptedRequest,
  sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  #expect(pattern.problems == [problem], sourceLocation: sourceLocation)
  #expect(pattern.match(request) == nil, sourceLocation: sourceLocation)
}
