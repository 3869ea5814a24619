import Testing

@testable import Understudy

@Suite struct JSONBodyMatchingTests {
  let url = "https://a.test/users"

  @Test func equalIgnoresKeyOrderWhitespaceAndNumberSpelling() {
    let pattern = RequestPattern.jsonBody(["name": "Ann", "age": 41, "tags": ["a", "b"]])
    #expect(pattern.description == #"body == JSON {"age":41,"name":"Ann","tags":["a","b"]}"#)
    expectMatch(
      pattern,
      request(url, text: "{\n  \"tags\": [\"a\",\"b\"],\n  \"age\": 41.0, \"name\":\"Ann\"}"))
    let expected = #"== JSON {"age":41,"name":"Ann","tags":["a","b"]}"#
    expectMismatch(
      pattern, request(url, text: #"{"name":"Ann","age":41,"tags":["a","c"]}"#),
      field: "body", expected: expected, actual: #"at $.tags[1]: expected "b", got "c""#)
    expectMismatch(
      pattern, request(url, text: #"{"name":"Ann","age":41,"tags":["a","b"],"admin":true}"#),
      field: "body", expected: expected, actual: #"at $: unexpected key "admin""#)
    expectMismatch(
      pattern, request(url, text: #"{"name":"Ann","age":"41","tags":["a","b"]}"#),
      field: "body", expected: expected, actual: #"at $.age: expected 41, got "41""#)
  }

  @Test func booleanIsNotANumber() {
    expectMismatch(
      .jsonBody(["on": true]), request(url, text: #"{"on": 1}"#),
      field: "body", expected: #"== JSON {"on":true}"#, actual: "at $.on: expected true, got 1")
  }

  @Test func notJSONOrNoBodyIsSaidSo() {
    let pattern = RequestPattern.jsonBody(["a": 1])
    let explanation = pattern.explain(
      request(url, text: "<html><body>Oops, that went wrong</body></html>"))
    let actual = explanation.mismatches.first?.actual ?? ""
    #expect(actual.hasPrefix("body is not JSON: "))
    #expect(actual.hasSuffix(#"; it starts "<html><body>Oops, that went w…""#))
    expectMismatch(
      pattern, request("POST", url), field: "body", expected: #"== JSON {"a":1}"#,
      actual: "no body")
    expectMismatch(
      pattern, request(url, text: ""), field: "body", expected: #"== JSON {"a":1}"#,
      actual: "body is not JSON: the body is empty")
  }

  struct NewUser: Encodable, Sendable {
    var name: String
    var admin: Bool
  }

  @Test func encodingComparesAsJSON() {
    let pattern = RequestPattern.jsonBody(encoding: NewUser(name: "Ann", admin: true))
    expectMatch(pattern, request(url, text: #"{"admin":true,"name":"Ann"}"#))
    expectMismatch(
      pattern, request(url, text: #"{"admin":false,"name":"Ann"}"#),
      field: "body", expected: #"== JSON {"admin":true,"name":"Ann"}"#,
      actual: "at $.admin: expected true, got false")
  }

  struct Unencodable: Encodable, Sendable {
    func encode(to encoder: any Encoder) throws {
      throw EncodingError.invalidValue(
        0, EncodingError.Context(codingPath: [], debugDescription: "no"))
    }
  }

  @Test func encodingFailureIsAProblem() {
    let pattern = RequestPattern.jsonBody(encoding: Unencodable())
    #expect(pattern.problems.count == 1)
    #expect(
      pattern.problems.first?.hasPrefix(
        "The expected JSON body of type Unencodable could not be encoded (") == true)
    #expect(pattern.match(request(url, text: "{}")) == nil)
    #expect(pattern.description == "body == JSON encoding of Unencodable")
  }

  @Test func subsetReportsTheNestedPath() {
    let pattern = RequestPattern.jsonBody(subset: ["user": ["role": "admin", "id": 7]])
    #expect(pattern.description == #"body has JSON subset {"user":{"id":7,"role":"admin"}}"#)
    let expected = #"has JSON subset {"user":{"id":7,"role":"admin"}}"#
    expectMatch(
      pattern, request(url, text: #"{"user":{"id":7.0,"role":"admin","name":"Ann"},"v":2}"#))
    expectMismatch(
      pattern, request(url, text: #"{"user":{"id":7,"role":"user"}}"#),
      field: "body", expected: expected, actual: #"at $.user.role: expected "admin", got "user""#)
    expectMismatch(
      pattern, request(url, text: #"{"user":{"role":"admin"}}"#),
      field: "body", expected: expected, actual: #"at $.user: missing key "id""#)
    expectMismatch(
      pattern, request(url, text: #"{"user":[1]}"#),
      field: "body", expected: expected,
      actual: #"at $.user: expected {"id":7,"role":"admin"}, got [1]"#)
  }

  @Test func subsetArraysMatchElementWiseWithEqualLength() {
    let pattern = RequestPattern.jsonBody(subset: ["items": [["id": 1], ["id": 2]]])
    let expected = #"has JSON subset {"items":[{"id":1},{"id":2}]}"#
    expectMatch(pattern, request(url, text: #"{"items":[{"id":1,"n":"a"},{"id":2}]}"#))
    expectMismatch(
      pattern, request(url, text: #"{"items":[{"id":2},{"id":1}]}"#),
      field: "body", expected: expected, actual: "at $.items[0].id: expected 1, got 2")
    expectMismatch(
      pattern, request(url, text: #"{"items":[{"id":1},{"id":2},{"id":3}]}"#),
      field: "body", expected: expected, actual: "at $.items: expected 2 elements, got 3")
  }

  @Test func oddKeysAreBracketedInPaths() {
    expectMismatch(
      .jsonBody(subset: ["a-b": ["x y": 1]]), request(url, text: #"{"a-b":{"x y":2}}"#),
      field: "body", expected: #"has JSON subset {"a-b":{"x y":1}}"#,
      actual: #"at $["a-b"]["x y"]: expected 1, got 2"#)
  }
}
