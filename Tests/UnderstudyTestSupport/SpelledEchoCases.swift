import Foundation

/// A secret value in the spellings a cassette searches for an echo in, written out here without
/// the library's code (`ValueSpellings`), so a test can place each where a report or the tool
/// prints it and check that none shows: what a cassette would not write, no output may print.
public enum SpelledEchoCases {
  /// One spelling of ``value``.
  public struct Case: Sendable, CustomStringConvertible {
    /// Which spelling, as a failing check names it.
    public var name: String
    /// The text placed in the traffic: the spelling, and for base64 inside a longer run, the
    /// run.
    public var placed: String
    /// What no output may hold: the characters that spell the value alone (for base64 inside
    /// a run, those that depend on no byte around it).
    public var evidence: String

    /// Whether ``placed`` can stand in a URL's query as it is.
    public var fitsURL: Bool {
      guard let url = URL(string: "http://h.test/x?h=" + placed) else { return false }
      return url.absoluteString.hasSuffix("?h=" + placed)
    }

    /// ``name``, so a parameterised test names its case.
    public var description: String { name }
  }

  /// The value: a cookie's, with a space (a form writes `+`), characters that percent-encoding
  /// escapes with letters (`/`, `?`, `>`), and bytes whose base64 holds `+` and `/` at each of
  /// the three alignments (so standard and URL-safe base64 differ).
  public static let value = "Sid ~7x/Qk?>Lw9+Ty"

  /// Every spelling of ``value``.
  public static var cases: [Case] { cases(of: value) }

  /// Every spelling of `value`: as written; percent-encoded, escapes in upper and lower case;
  /// form-encoded; every character as JSON's `\\uXXXX`; base64, standard and URL-safe, alone
  /// and inside a longer run at each alignment; hex in either case; and for a value holding
  /// markup's special characters, those as character references.
  public static func cases(of value: String) -> [Case] {
    let bytes = Array(value.utf8)
    var cases = [Case(name: "as written", placed: value, evidence: value)]
    for upper in [true, false] {
      let escaped = percentEncoded(bytes, upper: upper, plusForSpace: false)
      cases.append(
        Case(name: "percent \(upper ? "upper" : "lower")", placed: escaped, evidence: escaped))
    }
    let form = percentEncoded(bytes, upper: true, plusForSpace: true)
    cases.append(Case(name: "+ for space", placed: form, evidence: form))
    for upper in [false, true] {
      let escaped = value.utf16.map { unit -> String in
        let hex = String(unit, radix: 16, uppercase: upper)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      }.joined()
      cases.append(
        Case(name: "JSON \\uXXXX \(upper ? "upper" : "lower")", placed: escaped, evidence: escaped)
      )
    }
    for urlSafe in [false, true] {
      let kind = urlSafe ? "URL-safe" : "standard"
      let alone = base64(bytes, urlSafe: urlSafe)
      cases.append(Case(name: "base64 \(kind) alone", placed: alone, evidence: alone))
      // Inside a longer run: after 0, 1 and 2 bytes, and with bytes after it.
      for leading in 0..<3 {
        let lead = Array("Ab".utf8.prefix(leading))
        let run = base64(lead + bytes + Array("Zz".utf8), urlSafe: urlSafe)
        let start = (leading * 8 + 5) / 6
        let end = (leading + bytes.count) * 8 / 6
        let inner = String(run.dropFirst(start).prefix(end - start))
        cases.append(
          Case(name: "base64 \(kind) in a run after \(leading)", placed: run, evidence: inner))
      }
    }
    for upper in [false, true] {
      let hex = bytes.map { String(format: upper ? "%02X" : "%02x", $0) }.joined()
      cases.append(Case(name: "hex \(upper ? "upper" : "lower")", placed: hex, evidence: hex))
    }
    // Markup's character references, by name, by number and by hex number in either case:
    // the references a page writes for the value's `<`, `>`, `&` and quotes.
    let references: [(String, (UInt8) -> String)] = [
      (
        "named",
        {
          ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"][
            Character(Unicode.Scalar($0))] ?? ""
        }
      ),
      ("decimal", { "&#\($0);" }),
      ("hex lower", { "&#x" + String($0, radix: 16) + ";" }),
      ("hex upper", { "&#X" + String($0, radix: 16, uppercase: true) + ";" }),
    ]
    if bytes.contains(where: { "&<>\"'".utf8.contains($0) }) {
      for (name, reference) in references {
        let escaped = String(
          decoding: bytes.flatMap { "&<>\"'".utf8.contains($0) ? Array(reference($0).utf8) : [$0] },
          as: UTF8.self)
        cases.append(Case(name: "markup \(name)", placed: escaped, evidence: escaped))
      }
    }
    return cases
  }

  /// `bytes` with every one outside RFC 3986's unreserved characters escaped, and with
  /// `plusForSpace` a space as `+` (a form's encoding).
  private static func percentEncoded(_ bytes: [UInt8], upper: Bool, plusForSpace: Bool) -> String {
    bytes.map { byte -> String in
      let scalar = Unicode.Scalar(byte)
      if byte < 0x80,
        CharacterSet.alphanumerics.contains(scalar) || "-._~".contains(Character(scalar))
      {
        return String(Character(scalar))
      }
      if plusForSpace, byte == 0x20 { return "+" }
      return String(format: upper ? "%%%02X" : "%%%02x", byte)
    }.joined()
  }

  private static func base64(_ bytes: [UInt8], urlSafe: Bool) -> String {
    let text = Data(bytes).base64EncodedString()
    return urlSafe
      ? text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      : text
  }
}
