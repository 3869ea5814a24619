import Foundation
import Testing

@testable import Understudy

extension RecordingTests {
  /// The byte-level primitives the cassette loader and the JSON body matchers share.
  @Suite struct JSONScannerTests {
    private enum Scanned: Equatable {
      case decoded(String)
      case stopped(at: Int)
    }

    /// What `scanString` makes of a whole input that is one string token: the decoded text, or
    /// the offset where it stopped.
    private func scanString(_ json: [UInt8]) -> Scanned {
      json.withUnsafeBytes { bytes in
        var scanner = JSONScanner(bytes)
        guard let span = scanner.scanString() else { return .stopped(at: scanner.index) }
        return .decoded(JSONScanner.decode(span, in: bytes))
      }
    }

    private func scanString(_ json: String) -> Scanned {
      scanString(Array(json.utf8))
    }

    @Test(arguments: [
      (#""plain""#, "plain"),
      (
        #""a run longer than eight bytes, without escapes""#,
        "a run longer than eight bytes, without escapes"
      ),
      (
        #""quote \" backslash \\ slash \/ controls \b\f\n\r\t""#,
        "quote \" backslash \\ slash / controls \u{08}\u{0C}\n\r\t"
      ),
      (#""\u00e9t\u00C9 \u0000""#, "étÉ \u{0}"),
      (#""pair \ud83d\ude00 after""#, "pair 😀 after"),
      (#""raw é and 😀 in a long run of text""#, "raw é and 😀 in a long run of text"),
      (#""""#, ""),
    ])
    func decodesWhatItAccepts(json: String, expected: String) {
      #expect(scanString(json) == .decoded(expected))
    }

    /// The word-at-a-time runs stop at the first special byte wherever it falls in a word, and
    /// judge UTF-8 by the bytes before it only; past 32 bytes a run is searched with `memchr`,
    /// which must stop at the same byte.
    @Test func stopsAtTheFirstSpecialByteAtEveryOffsetInAWord() {
      for length in 0..<80 {
        let plain = String(repeating: "a", count: length)
        var json = Array("\"\(plain)\"".utf8)
        // Not UTF-8, but after the closing quote: not the string's business.
        json += [0x80, 0x80, 0x80]
        json.withUnsafeBytes { bytes in
          var scanner = JSONScanner(bytes)
          let span = scanner.scanString()
          #expect(span.map { JSONScanner.decode($0, in: bytes) } == plain, "\(length)")
          #expect(scanner.index == length + 2, "\(length)")
        }
        // A byte that is not UTF-8 just before the quote, in the same word.
        #expect(
          scanString(Array("\"\(plain)".utf8) + [0x80, 0x22]) == .stopped(at: length + 1),
          "\(length)")
        #expect(scanString("\"\(plain)é\"") == .decoded(plain + "é"), "\(length)")
        #expect(scanString("\"\(plain)\\n\"") == .decoded(plain + "\n"), "\(length)")
        #expect(scanString(Array("\"\(plain)".utf8) + [0x1F, 0x22]) == .stopped(at: length + 1))
        #expect(scanString("\"\(plain)") == .stopped(at: length + 1), "unterminated, \(length)")
        #expect(scanString("\"\(plain)\\\"\(plain)\"") == .decoded(plain + "\"" + plain))
        // UTF-8 is judged over the whole run, whichever path passed its bytes.
        #expect(scanString("\"é\(plain)\"") == .decoded("é" + plain), "\(length)")
        #expect(scanString([0x22, 0x80] + Array(plain.utf8) + [0x22]) == .stopped(at: 1))
      }
    }

    @Test func skipsWhiteSpaceRunsOfEveryLength() {
      for length in 0..<20 {
        for lead in ["", "\n", "\r\n", "\t", " \n"] {
          let json = Array((lead + String(repeating: " ", count: length) + "x").utf8)
          json.withUnsafeBytes { bytes in
            var scanner = JSONScanner(bytes)
            scanner.skipWhitespace()
            #expect(scanner.index == bytes.count - 1, "\(lead.debugDescription) \(length)")
          }
          // A run that ends with the input.
          Array((lead + String(repeating: " ", count: length)).utf8).withUnsafeBytes { bytes in
            var scanner = JSONScanner(bytes)
            scanner.skipWhitespace()
            #expect(scanner.isAtEnd, "\(lead.debugDescription) \(length)")
          }
        }
      }
      // Spaces, then a line break in the middle of a word.
      Array("   \n      \t  x".utf8).withUnsafeBytes { bytes in
        var scanner = JSONScanner(bytes)
        scanner.skipWhitespace()
        #expect(scanner.index == bytes.count - 1)
      }
    }

    @Test(arguments: [
      (#""unterminated"#, 13),
      (#""bad \x escape""#, 5),
      (#""lone high \ud83d here""#, 11),
      (#""lone low \ude00 here""#, 10),
      (#""short \u12""#, 7),
      ("\"tab\there\"", 4),
      ("\"new\nline in a long string\"", 4),
    ])
    func stopsAtTheProblem(json: String, offset: Int) {
      #expect(scanString(json) == .stopped(at: offset))
    }

    @Test func refusesBytesThatAreNotUTF8() {
      // Overlong "/", an encoded surrogate, a stray continuation byte, past U+10FFFF, cut short.
      for bad: [UInt8] in [
        [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82],
      ] {
        let json = Array("\"ok so far, then ".utf8) + bad + Array(" and more\"".utf8)
        #expect(scanString(json) == .stopped(at: 17), "\(bad)")
      }
    }

    @Test(arguments: [
      ("0", 0.0), ("-0", 0.0), ("12", 12.0), ("-3.25", -3.25), ("1e3", 1000.0), ("2.5E-1", 0.25),
    ])
    func scansNumbers(text: String, value: Double) {
      Array(text.utf8).withUnsafeBytes { bytes in
        var scanner = JSONScanner(bytes)
        let range = scanner.scanNumber()
        #expect(range == 0..<bytes.count)
        #expect(range.flatMap { scanner.double($0) } == value)
      }
    }

    @Test(arguments: ["-", "1.", ".5", "1e", "+1", "x"])
    func refusesMalformedNumbers(text: String) {
      Array(text.utf8).withUnsafeBytes { bytes in
        var scanner = JSONScanner(bytes)
        #expect(scanner.scanNumber() == nil)
        #expect(scanner.index == 0)
      }
    }

    @Test func readsWholeNumbersOnlyWhenTheyFit() {
      for (text, value) in [
        ("42", 42 as Int?), ("-7", -7), ("9223372036854775807", Int.max),
        ("-9223372036854775808", Int.min), ("9223372036854775808", nil), ("1.0", nil),
        ("1e2", nil),
      ] {
        Array(text.utf8).withUnsafeBytes { bytes in
          var scanner = JSONScanner(bytes)
          let range = scanner.scanNumber()!
          #expect(scanner.int(range) == value, "\(text)")
        }
      }
    }

    @Test(arguments: [
      #"{"a": [1, {"b": null}, "c\"}"], "d": true} tail"#, "[]  tail", #""s" tail"#,
      "-1.5e3 tail", "false tail",
    ])
    func skipsOneWholeValue(json: String) {
      Array(json.utf8).withUnsafeBytes { bytes in
        var scanner = JSONScanner(bytes)
        let skipped = scanner.skipValue()
        #expect(skipped)
        scanner.skipWhitespace()
        #expect(scanner.index == bytes.count - 4)
      }
    }

    @Test(arguments: [
      #"{"a" 1}"#, #"{"a": 1,}"#, "[1 2]", "[1,]", "{1: 2}", "[tru]", #"{"a": [}"#, "[",
    ])
    func refusesMalformedValues(json: String) {
      Array(json.utf8).withUnsafeBytes { bytes in
        var scanner = JSONScanner(bytes)
        let skipped = scanner.skipValue()
        #expect(!skipped)
      }
    }

    @Test func refusesNestingPastItsLimit() {
      let deep = String(repeating: "[", count: 20) + String(repeating: "]", count: 20)
      Array(deep.utf8).withUnsafeBytes { bytes in
        var scanner = JSONScanner(bytes)
        let tooDeep = scanner.skipValue(depthLimit: 19)
        scanner.index = 0
        let deepEnough = scanner.skipValue(depthLimit: 20)
        #expect(!tooDeep && deepEnough)
      }
    }

    @Test func countsLinesAndCharacterColumns() {
      Array("{\n  \"é\": x".utf8).withUnsafeBytes { bytes in
        let start = JSONScanner.lineAndColumn(of: 0, in: bytes)
        #expect(start.line == 1 && start.column == 1)
        let secondLine = JSONScanner.lineAndColumn(of: 2, in: bytes)
        #expect(secondLine.line == 2 && secondLine.column == 1)
        // "é" is two bytes but one column.
        let last = JSONScanner.lineAndColumn(of: bytes.count - 1, in: bytes)
        #expect(last.line == 2 && last.column == 8)
      }
    }
  }
}
