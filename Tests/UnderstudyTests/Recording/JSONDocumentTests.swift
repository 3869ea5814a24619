import Foundation
import Testing

@testable import Understudy

extension RecordingTests {
  /// The offset-keeping parser behind line and column numbers in cassette errors.
  @Suite struct JSONDocumentTests {
    private func syntaxError(_ json: String) -> (line: Int, column: Int, problem: String)? {
      let bytes = Array(json.utf8)
      do {
        _ = try JSONNode.parse(bytes)
        return nil
      } catch {
        let (line, column) = JSONNode.lineAndColumn(of: error.offset, in: bytes)
        return (line, column, error.problem)
      }
    }

    @Test(arguments: [
      (
        "{\"a\": tru}", 1, 7,
        "expected a value (an object, array, string, number, true, false or null) but found `tru}`"
      ),
      ("{\"a\": \"x\\qy\"}", 1, 9, "`\\qy\"}` is not a JSON escape"),
      (
        "{\"a\": \"\\u12G4\"}", 1, 8,
        "`\\u12G4\"}` is not a JSON escape; \\u takes four hexadecimal digits"
      ),
      (
        "{\"a\": \"line\nbreak\"}", 1, 12,
        "a string contains a raw control character (U+000A); JSON strings must write it as an escape such as \\n"
      ),
      ("{\"a\": 01}", 1, 7, "`01}` is not a valid JSON number"),
      ("{\"a\": 1.}", 1, 7, "`1.}` is not a valid JSON number"),
      ("{\"a\": 1} x", 1, 10, "found `x` after the end of the JSON document"),
      ("{a: 1}", 1, 2, "expected a member name in double quotes but found `a:`"),
      ("{\"a\" 1}", 1, 6, "expected \":\" after the member name \"a\" but found `1}`"),
      ("[1 2]", 1, 4, "expected \",\" or \"]\" after element 0 of the array but found `2]`"),
      (
        "{\"é\": [\n  1,\n  \"ü\" x]}", 3, 7,
        "expected \",\" or \"]\" after element 1 of the array but found `x]}`"
      ),
      ("{\"a\": [1,\n", 2, 1, "the file ends inside the array that starts at line 1, column 7"),
      (
        "{\"key\": SEKRETword7f3a}", 1, 9,
        "expected a value (an object, array, string, number, true, false or null) but found an unquoted word of 14 characters"
      ),
      (
        "{\"a\": 012345678901234}", 1, 7,
        "an unquoted word of 15 characters is not a valid JSON number"
      ),
    ])
    func syntaxErrorsSayWhatAndWhere(json: String, line: Int, column: Int, problem: String) throws {
      let error = try #require(syntaxError(json))
      #expect(error.problem == problem)
      #expect(error.line == line)
      #expect(error.column == column)
    }

    @Test func trailingCommasAreAcceptedBecauseFoundationAcceptsThem() {
      #expect(syntaxError("{\"a\": [1, 2,], \"b\": {\"c\": 1,},}") == nil)
    }

    @Test func nestingIsLimitedInsteadOfOverflowingTheStack() throws {
      let error = try #require(syntaxError(String(repeating: "[", count: 100_000)))
      #expect(error.problem == "the JSON nests more than 512 levels deep")
    }

    @Test func aSignIsNotAHexadecimalDigit() throws {
      // `UInt32("+041", radix: 16)` is 65, and an earlier parser took `\u+041` for "A".
      let error = try #require(syntaxError(#"{"a": "\u+041"}"#))
      #expect(
        error.problem == #"`\u+041"}` is not a JSON escape; \u takes four hexadecimal digits"#)
      #expect(error.column == 8)
    }

    /// Redaction reads bodies from the wild leniently; a cassette is read strictly, so its
    /// errors say where Foundation would refuse it.
    @Test func unpairedSurrogatesAndStrayBytesBecomeReplacementCharactersUnlessStrict() throws {
      for (json, text) in [
        (#""\ud800\u0041 a""#, "\u{FFFD} a"), (#""x\ud800y""#, "x\u{FFFD}y"),
        (#""\udc00 \n""#, "\u{FFFD} \n"),
      ] {
        let node = try JSONNode.parse(Array(json.utf8))
        guard case .string(let decoded) = node.value else {
          Issue.record("\(json) is not a string")
          continue
        }
        #expect(decoded == text, "\(json)")
        #expect(throws: JSONSyntaxError.self) { try JSONNode.parse(Array(json.utf8), strict: true) }
      }
      let stray: [UInt8] = [0x22, 0x61, 0xE9, 0x5C, 0x6E, 0x22]  // "a<E9>\n"
      #expect(try JSONNode.parse(stray).summary == "the string \"a\u{FFFD}\n\"")
      #expect(throws: JSONSyntaxError.self) { try JSONNode.parse(stray, strict: true) }
    }

    @Test func valuesKeepTheirRangesAndDecodedText() throws {
      let json = "{\"name\": \"caf\\u00e9 \\ud83d\\ude00\", \"n\": -1.5e3}"
      let document = try JSONNode.parse(Array(json.utf8))
      let name = document.descendant(at: [.key("name")])
      #expect(name.reached)
      guard case .string(let text) = name.node.value else {
        Issue.record("name is not a string")
        return
      }
      #expect(text == "café 😀")
      #expect(String(decoding: Array(json.utf8)[name.node.range], as: UTF8.self).hasPrefix("\"caf"))
      #expect(document.descendant(at: [.key("n")]).node.summary == "the number -1.5e3")
      #expect(document.descendant(at: [.key("missing")]).reached == false)
    }

    /// What a walk should report for `node`, worked out from the tree `parse` builds.
    private func expectedEvents(_ node: JSONNode, in bytes: [UInt8]) -> [String] {
      switch node.value {
      case .object(let members):
        return members.flatMap { member in
          expectedEvents(member.value, in: bytes) + ["member \(member.key) \(member.value.range)"]
        }
      case .array(let elements):
        return elements.flatMap { expectedEvents($0, in: bytes) }
      case .string:
        return ["string \(node.range) \(!bytes[node.range].contains(UInt8(ascii: "\\")))"]
      case .number:
        return ["number \(node.range)"]
      case .bool, .null:
        return []
      }
    }

    @Test(arguments: [
      "{\"a\": tru}", "{\"a\": \"x\\qy\"}", "{\"a\": 01}", "{\"a\": 1} x", "[1 2]", "{\"a\": [1,\n",
      String(repeating: "[", count: 600), "",
      "\u{FEFF}{\"token\": \"abc\", \"n\": [1, -2.5e3, true, null, {\"x\": {}}], \"e\": \"\\u00e9\\\"\"}",
      "[{\"a\": 1, \"\\u0061\": [\"\", \"b\"],}, [], \"\\ud83d\\ude00\"]", "  \"plain\"  ", "-0.5",
    ])
    func walkReadsWhatParseReads(json: String) {
      let bytes = Array(json.utf8)
      var events: [String] = []
      let walked = bytes.withUnsafeBufferPointer { buffer in
        Result { () throws(JSONSyntaxError) in
          try JSONNode.walk(buffer) { event in
            switch event {
            case .member(let name, let isPlain, let range):
              #expect(isPlain == !bytes[name].contains(UInt8(ascii: "\\")))
              events.append("member \(JSONNode.string(at: name, in: buffer) ?? "?") \(range)")
            case .string(let range, let isPlain): events.append("string \(range) \(isPlain)")
            case .number(let range): events.append("number \(range)")
            }
          }
        }
      }
      var members: [String] = []
      _ = bytes.withUnsafeBufferPointer { buffer in
        try? JSONNode.walk(buffer, scalars: false) { event in members.append("\(event)") }
      }
      switch (walked, Result { () throws(JSONSyntaxError) in try JSONNode.parse(bytes) }) {
      case (.success, .success(let document)):
        #expect(events == expectedEvents(document, in: bytes))
        #expect(members == members.filter { $0.hasPrefix("member") })
        #expect(members.count == events.count { $0.hasPrefix("member") })
      case (.failure(let walkError), .failure(let parseError)):
        #expect(walkError.offset == parseError.offset)
        #expect(walkError.problem == parseError.problem)
      default:
        Issue.record("walk and parse disagree on \(json.debugDescription)")
      }
    }

    @Test func pathsRenderLikeJavaScript() {
      #expect(
        JSONPathComponent.render([.key("log"), .key("entries"), .index(3), .key("odd key")])
          == "log.entries[3][\"odd key\"]")
    }
  }
}
