import Foundation
import Testing

@testable import Understudy

extension RecordingTests {
  /// Redaction finds credential members with `JSONMemberWalk` and falls back to
  /// `JSONNode.walk` when it declines: every document it reads to the end must give the members
  /// that walk gives, and it must never read one the parser refuses.
  @Suite struct JSONMemberWalkTests {
    private struct Recorder: JSONMemberVisitor {
      var events: [String] = []
      mutating func member(name: Range<Int>, isPlain: Bool, value: Range<Int>) {
        events.append("member name: \(name), isPlain: \(isPlain), value: \(value)")
      }
    }

    /// The lean walk's members, or `nil` when it declined.
    private func lean(_ bytes: [UInt8]) -> [String]? {
      bytes.withUnsafeBufferPointer { buffer in
        var recorder = Recorder()
        return JSONMemberWalk.members(in: buffer, to: &recorder) ? recorder.events : nil
      }
    }

    /// The parser's walk's members, or `nil` when it threw.
    private func full(_ bytes: [UInt8]) -> [String]? {
      bytes.withUnsafeBufferPointer { buffer in
        var events: [String] = []
        do {
          try JSONNode.walk(buffer, scalars: false) { event in
            guard case .member(let name, let isPlain, let value) = event else { return }
            events.append("member name: \(name), isPlain: \(isPlain), value: \(value)")
          }
          return events
        } catch {
          return nil
        }
      }
    }

    private func expectAgreement(_ bytes: [UInt8], _ comment: Comment? = nil) {
      guard let leanEvents = lean(bytes) else { return }
      #expect(full(bytes) == leanEvents, comment)
    }

    @Test(arguments: [
      #"{"a": 1, "token": "x", "b": {"password": [1, {"c": null}], "d": true}}"#,
      "\u{FEFF}{\"token\": \"abc\"}", #"[{"a": 1,}, [1, 2,], {}]"#, #"{"\u0074oken": "x"}"#,
      #"{"café": "é", "😀": "\ud83d\ude00"}"#, #"{"a": "\/"}"#, "  {\"a\"\n:\t1 }  ",
      #"{"a": -0.5e+3, "b": 0, "c": -0}"#, #"{"quoted \" name": 1}"#,
      #"{"a long member name that passes several words": "and a value that is long too, longer than sixty-four bytes"}"#,
    ])
    func readsWhatTheParserReads(json: String) {
      let bytes = Array(json.utf8)
      #expect(lean(bytes) != nil, "the lean walk should read \(json.debugDescription)")
      expectAgreement(bytes)
    }

    /// Whatever the parser refuses, the lean walk must not read; what it declines the parser
    /// decides.
    @Test(arguments: [
      #"{"a": tru}"#, #"{"a": 01}"#, #"{"a": 1} x"#, "[1 2]", "{\"a\": [1,\n", "", "  ",
      #"{"a" 1}"#, #"{"a": 1 "b": 2}"#, #"{1: 2}"#, #"{"a": "x\qy"}"#, "{\"a\": \"\u{01}\"}",
      #"{"a": "\ud800"}"#, #"{"a": +1}"#, #"{"a": 1."#, "[", "{", #"{"a""#, #"["a"#,
    ])
    func declinesWhatTheParserRefuses(json: String) {
      let bytes = Array(json.utf8)
      if full(bytes) == nil { #expect(lean(bytes) == nil, "\(json.debugDescription)") }
      expectAgreement(bytes)
    }

    @Test func declinesBytesThatAreNotUTF8AndDeepNesting() {
      // The parser reads these leniently; the lean walk leaves them to it.
      let notUTF8: [UInt8] = Array(#"{"a": ""#.utf8) + [0xFF] + Array(#""}"#.utf8)
      #expect(lean(notUTF8) == nil)
      #expect(full(notUTF8) != nil)
      let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
      #expect(lean(Array(deep.utf8)) == nil)
      #expect(full(Array(deep.utf8)) == [])
      let shallow =
        String(repeating: "[", count: 200) + "{\"a\":1}" + String(repeating: "]", count: 200)
      #expect(lean(Array(shallow.utf8)) == full(Array(shallow.utf8)))
    }

    /// Generated documents, whole and cut short at every tenth byte: strings of every length
    /// around a word with quotes, escapes and non-ASCII at every position.
    @Test func generatedDocumentsAndTheirPrefixesAgree() {
      var generator = SplitMix(seed: 150)
      let pieces = [
        "a", "token", "é", "\\\"", "\\\\", "\\n", "\\u00e9", "\\/", "0123456789", "😀", " ",
      ]
      func text() -> String {
        (0..<Int(generator.next() % 12)).map { _ in pieces[Int(generator.next() % 11)] }.joined()
      }
      func value(_ depth: Int) -> String {
        switch generator.next() % (depth > 3 ? 4 : 6) {
        case 0: return "\"\(text())\""
        case 1: return ["0", "-1.5e3", "12", "0.25"][Int(generator.next() % 4)]
        case 2: return ["true", "false", "null"][Int(generator.next() % 3)]
        case 3: return "\"\""
        case 4:
          let members = (0..<Int(generator.next() % 5)).map { _ in
            "\"\(text())\"\(generator.next() % 3 == 0 ? " " : ""):\(value(depth + 1))"
          }
          return "{" + members.joined(separator: generator.next() % 2 == 0 ? "," : ", ") + "}"
        default:
          return "["
            + (0..<Int(generator.next() % 4)).map { _ in value(depth + 1) }
            .joined(separator: ",") + "]"
        }
      }
      var read = 0
      for _ in 0..<300 {
        let bytes = Array(value(0).utf8)
        if lean(bytes) != nil { read += 1 }
        expectAgreement(bytes, "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
        for cut in stride(from: 0, to: bytes.count, by: 10) {
          let prefix = Array(bytes[..<cut])
          if full(prefix) == nil { #expect(lean(prefix) == nil) }
        }
      }
      // Most generated documents are read, so the comparison is not vacuous.
      #expect(read > 200)
    }

    /// The memo's verdict for a name's bytes is the rule's, for short names sharing slots and
    /// long ones.
    @Test func theNameMemoGivesTheRulesVerdict() {
      let rules = CredentialName(Redaction.default.jsonMemberNames + ["*_secret_*"])
      var memo = CredentialName.Memo(rules)
      var names = ["token", "TOKEN", "api_key", "apiKey", "id", "", "t", "password", "secret"]
      names += (0..<2_000).map { "n\($0)" } + (0..<40).map { String(repeating: "x", count: $0) }
      names += ["a_very_long_member_name_token", "client_secret_of_the_app_here_x"]
      for _ in 0..<2 {
        for name in names {
          let verdict = name.utf8.withContiguousStorageIfAvailable { memo.matches(utf8: $0) }
          #expect(verdict == rules.matches(name), "\(name)")
        }
      }
    }
  }
}
