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

/// The direct reader must agree with JSONDecoder wherever it answers, and leave the rest to it.
@Suite struct JSONParserTests {
  static let agreeing = [
    #"{"kind":"book","quantity":2,"customer":{"id":42,"tier":"gold"},"tags":["a","b"]}"#,
    #"  [ true , false , null , 0 , -0 , 1.5e3 , -2E-2 , 12345678901234567890 ]  "#,
    #""plain""#, "42", "-0.0", "true", "null", "[]", "{}", #"{"a":{}}"#, "[[[[1]]]]",
    #""esc \" \\ \/ \b \f \n \r \t \u00e9 \u20AC \ud83d\ude00 end""#, #""é€😀 raw""#,
    #"{"":""}"#, "0.1", "1e-7", "5e-324", "1.7976931348623157e308",
  ]

  @Test(arguments: agreeing) func agreesWithJSONDecoder(text: String) throws {
    let data = Data(text.utf8)
    let direct = try #require(JSONValueReader.parse(data))
    #expect(direct == (try JSONDecoder().decode(JSONValue.self, from: data)))
  }

  static let deferred = [
    "", " ", "<html>", "01", "1.", ".5", "+1", "1e", "-", "1e400", "NaN", "tru", "nulls",
    #"{"a":1,"a":2}"#, #"{"a" 1}"#, "[1,]", "[1 2]", #"{"a":1,}"#, #""unterminated"#,
    "\"tab\there\"", #""bad \x escape""#, #""lone \ud800 surrogate""#, #""\u12""#, "1 2",
    String(repeating: "[", count: 300) + String(repeating: "]", count: 300),
  ]

  @Test(arguments: deferred) func leavesDoubtfulInputToJSONDecoder(text: String) {
    #expect(JSONValueReader.parse(Data(text.utf8)) == JSONValue?.none)
  }

  @Test func leavesInvalidUTF8AndByteOrderMarksToJSONDecoder() {
    #expect(JSONValueReader.parse(Data([0x22, 0xC3, 0x28, 0x22])) == JSONValue?.none)
    #expect(JSONValueReader.parse(Data([0xEF, 0xBB, 0xBF, 0x31])) == JSONValue?.none)
  }
}
