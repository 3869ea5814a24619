import Testing

@testable import Understudy

@Suite struct JSONValueTests {
  @Test func parsingKeepsBooleansApartFromNumbers() throws {
    let value = try JSONValue(parsing: #"[true, 1, 0, false, 1.5, null, "x", {"a": [] }]"#)
    #expect(value == [true, 1, 0, false, 1.5, nil, "x", ["a": []]])
    #expect(try JSONValue(parsing: "1") == .number(1))
    #expect(try JSONValue(parsing: "true") == .bool(true))
  }

  @Test func rejectsNonJSON() {
    #expect(throws: DecodingError.self) { try JSONValue(parsing: "<html>") }
  }

  @Test func equalityIgnoresKeyOrderAndNumberSpelling() throws {
    let a = try JSONValue(parsing: #"{"b": 1.0, "a": [1e0, 2]}"#)
    let b = try JSONValue(parsing: #"{ "a":[1,2.00], "b":1 }"#)
    #expect(a == b)
    #expect(a.hashValue == b.hashValue)
  }

  @Test func descriptionIsCompactSortedJSON() {
    let value: JSONValue = [
      "z": [1, 2.5, true, nil], "a": "quote \" and \\ and \n and \u{1}", "m": [:],
    ]
    #expect(
      value.description
        == #"{"a":"quote \" and \\ and \n and \u0001","m":{},"z":[1,2.5,true,null]}"#)
  }

  @Test func roundTripsThroughCodable() throws {
    let value: JSONValue = ["n": 3, "f": 0.25, "s": "é", "l": [false, nil], "o": ["k": -2]]
    let data = try JSONEncoder().encode(value)
    #expect(try JSONValue(parsing: data) == value)
    #expect(String(decoding: try JSONEncoder().encode(JSONValue.number(3)), as: UTF8.self) == "3")
  }
}
