import Foundation
import Testing

@testable import Understudy

/// The byte scanner that finds `name=value` pairs in bodies finds exactly what a regular
/// expression finds, on text built to reach every branch of it.
@Suite struct EmbeddedQueryPairsTests {
  /// The expression the scanner replaced, run by ICU, with what was added since: a value runs on
  /// over a `&`, `#` or `;` followed by value characters up to the next end without an `=`,
  /// unless that is an HTML character reference (`&amp;`); a name is the whole run of name
  /// characters (URL characters but `~`) before the `=`, whatever stands before it (`Creds(user=ada,apiKey=…)`,
  /// `~hmac=`, `//registry.npmjs.org/:_authToken=`); and a name may hold letters of any script
  /// (`пароль=`).
  private static let expression = try! NSRegularExpression(
    pattern: #"(?<![\p{Alphabetic}0-9_.%+\-\[\]])"#
      + #"([\p{Alphabetic}0-9_.%+\-\[\]]{1,100})="#
      + #"([^&#;\s"'<>\\]+(?:(?!&[A-Za-z]+;)[&#;][^&#;\s"'<>\\=]+(?![^&#;\s"'<>\\]))*)"#)

  private static func byExpression(_ text: String) -> [[Range<Int>]] {
    expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
      (1...2).map { group in
        CompiledRedaction.byteRange(of: Range(match.range(at: group), in: text)!, in: text)
      }
    }
  }

  private static func byScanner(_ text: String) -> [[Range<Int>]] {
    var text = text
    return text.withUTF8 { bytes in
      var found: [[Range<Int>]] = []
      EmbeddedQueryPairs.forEach(in: bytes) { found.append([$0, $1]) }
      return found
    }
  }

  /// Pieces that meet at every boundary the expression has: delimiters, name characters, `=`,
  /// each character that ends a value (ASCII and Unicode white space among them), non-ASCII
  /// text that does not, and names of 100 and 101 characters.
  private static let pieces: [String] = [
    "?", "&", ";", "#", "=", "==", "a", "Z9", "_.~%+-[]", "token", "%41", "+", "b=c", "?k=v",
    "\"", "'", "<", ">", "\\", " ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{A0}",
    "\u{1680}", "\u{2000}", "\u{200A}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}",
    "\u{3000}", "\u{200B}", "\u{1681}", "\u{2030}", "\u{3001}", "é", "日本", "👍", "/", ":",
    "http://h/p?", String(repeating: "n", count: 100), String(repeating: "n", count: 101),
    "amp", "&amp;", "&#38;", "P@ss", "#x", "@", "//r.test/:_authToken", "db:", "(", ",", "{",
    "~", "*", "$", "|", "\u{200B}token",
  ]

  @Test func findsWhatTheExpressionFinds() {
    // A fixed generator, so a failure repeats.
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    var compared = 0
    for _ in 0..<3_000 {
      let text = (0..<(1 + next(40))).map { _ in Self.pieces[next(Self.pieces.count)] }.joined()
      let expected = Self.byExpression(text)
      compared += expected.count
      #expect(Self.byScanner(text) == expected, "in \(text.debugDescription)")
    }
    // The corpus must reach matches, not only agree that there are none.
    #expect(compared > 1_000)
  }

  @Test func findsPairsInURLsInsideABody() {
    let text = #"{"next":"https://api.example.com/items?page=2&access_token=abc123","x":"?a"}"#
    let pairs = Self.byScanner(text).map { ranges in
      ranges.map { String(decoding: Array(text.utf8)[$0], as: UTF8.self) }
    }
    #expect(pairs == [["page", "2"], ["access_token", "abc123"]])
  }

  /// A secret written in a text holds `#`, `&` and `;` as often as any character; a query's next
  /// pair, a fragment's pairs and a page's `&amp;` still end a value.
  @Test(arguments: [
    ("password=P@ss#word;1&2 next", [["password", "P@ss#word;1&2"]]),
    ("db.password=Ab1;Cd2\nuser=ada", [["db.password", "Ab1;Cd2"], ["user", "ada"]]),
    ("?token=abc&page=2", [["token", "abc"], ["page", "2"]]),
    ("?token=abc&flag&page=2", [["token", "abc&flag"], ["page", "2"]]),
    (
      "cb#state=abc#access_token=xyz&type=bearer",
      [["state", "abc"], ["access_token", "xyz"], ["type", "bearer"]]
    ),
    ("href=\"?token=abc&amp;page=2\"", [["token", "abc"], ["page", "2"]]),
    ("token=abc# trailing; token=def;", [["token", "abc"], ["token", "def"]]),
    ("token=abc&=x", [["token", "abc"]]),
  ])
  func aValueRunsOnOverDelimitersThatStartNoPair(text: String, expected: [[String]]) {
    let pairs = Self.byScanner(text).map { ranges in
      ranges.map { String(decoding: Array(text.utf8)[$0], as: UTF8.self) }
    }
    #expect(pairs == expected)
    #expect(Self.byScanner(text) == Self.byExpression(text))
  }
}
