import Testing

@testable import Understudy

/// Header names compare case-insensitively, byte by byte for ASCII.
@Suite struct HTTPHeadersTests {
  @Test func namesCompareIgnoringASCIICaseOnly() {
    #expect("Content-Type".caseInsensitiveEquals("content-TYPE"))
    #expect(!"Content-Type".caseInsensitiveEquals("Content-Typf"))
    #expect(!"a@".caseInsensitiveEquals("a`"))  // '@' and '`' differ by the case bit
    #expect(!"X-1".caseInsensitiveEquals("X-2"))
    #expect("X-Ünï".caseInsensitiveEquals("x-ünÏ"))
    #expect(!"Accept".caseInsensitiveEquals("Accepts"))
  }

  @Test func theDictionaryJoinsRepeatedNamesUnderTheFirstSpelling() {
    var headers: HTTPHeaders = ["Accept": "a", "X-Id": "1"]
    headers.add(name: "accept", value: "b")
    #expect(headers.dictionary == ["Accept": "a, b", "X-Id": "1"])
    #expect(HTTPHeaders(["b": "2", "A": "1", "c": "3"]).fields.map(\.name) == ["A", "b", "c"])
  }
}
