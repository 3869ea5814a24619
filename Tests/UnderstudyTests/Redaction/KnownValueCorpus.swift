import Foundation

@testable import Understudy

/// A generated corpus of secret values, spelled and placed every way issue 40 lists, for the
/// known-value tests. The spellings are written here from the encoders' own rules, not taken
/// from ``ValueSpellings``, so a spelling the library forgets is a leak these tests find.
struct KnownValueCorpus {
  /// A small generator with a fixed seed, so a failure names a case that runs again.
  struct Seeded: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// Alphabets of real tokens, and of values that need escaping in URLs, JSON and forms.
  static let alphabets = [
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
    "0123456789abcdef",
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=",
    "abcdefghijklmnop0123456789-_.~",
    "abcdefXYZ0123456789 &=?/#%+:@!$'()*,;",
    "abcdefXYZ012345\"\\/<>&'`",
    "abcdefXYZ012345éüßøñ日本語",
  ]

  /// A value drawn from `alphabet`, `length` characters long, starting and ending with a
  /// letter so that no spelling begins with text a neighbour shares.
  static func value(
    from alphabet: String, length: Int, using generator: inout some RandomNumberGenerator
  ) -> String {
    let characters = Array(alphabet)
    var value = "Kv"
    while value.count < length - 1 { value.append(characters.randomElement(using: &generator)!) }
    return value + "q"
  }

  /// The values of the corpus: each alphabet at lengths 8 to 48.
  static var values: [String] {
    var generator = Seeded(state: 40)
    return alphabets.flatMap { alphabet in
      [8, 13, 24, 48].map { value(from: alphabet, length: $0, using: &generator) }
    }
  }

  /// Every spelling of `value` an encoder writes, by name.
  static func spellings(of value: String) -> [(name: String, text: String)] {
    // A value outside ASCII may come back composed (`ü`) or decomposed (`u` and a combining
    // diaeresis): every spelling of each form.
    // Compared as bytes: `String`'s `==` treats the two forms as one.
    let decomposed = value.decomposedStringWithCanonicalMapping
    guard !decomposed.utf8.elementsEqual(value.utf8) else { return spellings(ofForm: value) }
    return spellings(ofForm: value)
      + spellings(ofForm: decomposed).map { ("\($0.name), decomposed", $0.text) }
  }

  private static func spellings(ofForm value: String) -> [(name: String, text: String)] {
    let bytes = Array(value.utf8)
    func percent(_ keep: (UInt8) -> Bool, upper: Bool = true, plus: Bool = false) -> String {
      bytes.map { byte in
        if plus, byte == 0x20 { return "+" }
        if keep(byte) { return String(UnicodeScalar(byte)) }
        return String(format: upper ? "%%%02X" : "%%%02x", byte)
      }.joined()
    }
    let unreserved = { (byte: UInt8) in
      ASCIIByte.isLetter(byte) || ASCIIByte.isDigit(byte) || "-._~".utf8.contains(byte)
    }
    // encodeURIComponent's set.
    let component = { (byte: UInt8) in unreserved(byte) || "!'()*".utf8.contains(byte) }
    func json(escapingSlash: Bool, unicode: String, upper: Bool, nonASCII: Bool) -> String {
      var out = ""
      for scalar in value.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "/" where escapingSlash: out += "\\/"
        default:
          if (nonASCII && !scalar.isASCII) || unicode.unicodeScalars.contains(scalar) {
            for unit in String(scalar).utf16 {
              out += String(format: upper ? "\\u%04X" : "\\u%04x", unit)
            }
          } else {
            out.unicodeScalars.append(scalar)
          }
        }
      }
      return out
    }
    var spellings: [(String, String)] = [
      ("as written", value),
      ("upper case", value.uppercased()),
      ("lower case", value.lowercased()),
      ("percent, upper", percent(unreserved)),
      ("percent, lower", percent(unreserved, upper: false)),
      ("form, +", percent(unreserved, plus: true)),
      ("form, + lower", percent(unreserved, upper: false, plus: true)),
      ("encodeURIComponent", percent(component)),
      ("every byte", percent({ _ in false })),
      ("letters and digits", percent({ ASCIIByte.isLetter($0) || ASCIIByte.isDigit($0) })),
      ("JSON", json(escapingSlash: false, unicode: "", upper: false, nonASCII: false)),
      ("JSON \\/", json(escapingSlash: true, unicode: "", upper: false, nonASCII: false)),
      ("JSON, Go", json(escapingSlash: false, unicode: "<>&", upper: false, nonASCII: false)),
      ("JSON, Python", json(escapingSlash: false, unicode: "", upper: false, nonASCII: true)),
      ("JSON, PHP", json(escapingSlash: true, unicode: "", upper: false, nonASCII: true)),
      ("JSON, .NET", json(escapingSlash: false, unicode: "<>&'+`", upper: true, nonASCII: true)),
      (
        "JSON, every character",
        value.utf16.map { String(format: "\\u%04x", $0) }.joined()
      ),
      (
        "JSON, every character, upper",
        value.utf16.map { String(format: "\\u%04X", $0) }.joined()
      ),
      ("hex", bytes.map { String(format: "%02x", $0) }.joined()),
      ("HEX", bytes.map { String(format: "%02X", $0) }.joined()),
    ]
    // Each character escaped on its own, as code and debug output write it: Python's bytes
    // repr and C's `\xHH` in either case, C's and Python's octal `\ooo`, JavaScript's
    // `escape()` as `%uXXXX` in either case, and the bytes' decimal values apart at spaces.
    spellings += [
      ("\\x, lower", bytes.map { String(format: "\\x%02x", $0) }.joined()),
      ("\\x, upper", bytes.map { String(format: "\\x%02X", $0) }.joined()),
      ("octal", bytes.map { String(format: "\\%03o", $0) }.joined()),
      ("%u, upper", value.utf16.map { String(format: "%%u%04X", $0) }.joined()),
      ("%u, lower", value.utf16.map { String(format: "%%u%04x", $0) }.joined()),
      ("decimal, spaces", bytes.map(String.init).joined(separator: " ")),
    ]
    for lead in 0..<5 {
      // Base32 (RFC 4648), padded; inside a longer run after `lead` bytes, before two more.
      let run = Array("vwxyz".utf8.prefix(lead)) + bytes + (lead == 0 ? [] : Array("!?".utf8))
      spellings.append(("base32 after \(lead)", base32(run)))
    }
    spellings.append(("base32, unpadded", String(base32(bytes).prefix { $0 != "=" })))
    for lead in 0..<3 {
      // Inside a longer base64 run: the value after `lead` bytes, before two more.
      let run = Data(Array("xyz".utf8.prefix(lead)) + bytes + Array("!?".utf8))
      let standard = run.base64EncodedString()
      spellings.append(("base64 after \(lead)", standard))
      spellings.append(
        (
          "base64url after \(lead)",
          standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        ))
    }
    return spellings
  }

  /// `bytes` in base32 as RFC 4648 writes it: 5 bits a character, from the alphabet
  /// `A`–`Z`, `2`–`7`, padded with `=` to a multiple of 8 characters.
  static func base32(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
    let bits = bytes.map { byte in
      let digits = String(byte, radix: 2)
      return String(repeating: "0", count: 8 - digits.count) + digits
    }.joined()
    var text = ""
    var index = bits.startIndex
    while index < bits.endIndex {
      let end = bits.index(index, offsetBy: 5, limitedBy: bits.endIndex) ?? bits.endIndex
      let chunk = String(bits[index..<end]).padding(toLength: 5, withPad: "0", startingAt: 0)
      text.append(alphabet[Int(chunk, radix: 2)!])
      index = end
    }
    return text + String(repeating: "=", count: (8 - text.count % 8) % 8)
  }

  /// What a grep of an artifact looks for: every spelling's part that holds only the value
  /// (a base64 or base32 run's characters that depend on the value alone), at least 8
  /// characters long.
  static func needles(of value: String) -> [(name: String, text: String)] {
    var needles = spellings(of: value).filter {
      !$0.name.hasPrefix("base64") && !$0.name.hasPrefix("base32")
    }
    let data = Data(value.utf8)
    for lead in 0..<5 {
      let encoded = Array(
        base32(Array(repeating: 0, count: lead) + Array(data)).utf8.prefix {
          $0 != 61
        })
      let before = (lead * 8 + 4) / 5
      let after = ((lead + data.count) * 8) % 5 == 0 ? 0 : 1
      needles.append(
        (
          "base32 after \(lead)",
          String(decoding: encoded[before..<(encoded.count - after)], as: UTF8.self)
        ))
    }
    for lead in 0..<3 {
      let encoded = Array((Data(count: lead) + data).base64EncodedString().utf8.prefix { $0 != 61 })
      let before = (lead * 8 + 5) / 6
      let after = ((lead + data.count) * 8) % 6 == 0 ? 0 : 1
      let inner = String(decoding: encoded[before..<(encoded.count - after)], as: UTF8.self)
      needles.append(("base64 after \(lead)", inner))
      needles.append(
        (
          "base64url after \(lead)",
          inner.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        ))
    }
    // Any spelling a URL holds is percent-encoded once more by what wrote the URL.
    needles += needles.map { ("\($0.name), in a URL", urlWritten($0.text)) }
    return needles.filter { $0.text.utf8.count >= 8 }
  }

  /// `text` as a URL writer puts it in a path: every byte but RFC 3986's unreserved ones
  /// escaped, as Python's `quote(text, safe="")` does.
  static func urlWritten(_ text: String) -> String {
    Array(text.utf8).map { byte in
      ASCIIByte.isLetter(byte) || ASCIIByte.isDigit(byte) || "-._~".utf8.contains(byte)
        ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
    }.joined()
  }

  /// The spellings of `value` found in `artifact`, by name.
  static func leaks(of value: String, in artifact: String) -> [String] {
    needles(of: value).filter { artifact.contains($0.text) }.map(\.name)
  }

  /// `entry` as a cassette writes it, with its response body decoded too when it is base64 of
  /// text: what a reader of the file can recover from it.
  static func readable(_ entry: HAR.Entry) throws -> String {
    let text = String(decoding: try JSONEncoder().encode(HARReference(entry)), as: UTF8.self)
    guard let body = entry.response.content.text,
      let data = Data(
        base64Encoded: body + String(repeating: "=", count: (4 - body.utf8.count % 4) % 4)),
      let decoded = String(data: data, encoding: .utf8)
    else { return text }
    return text + "\n" + decoded
  }

  /// The places a value can stand in an exchange, each building an entry around `text`.
  static let places: [(name: String, entry: @Sendable (String) -> HAR.Entry)] = [
    ("URL path", { HAR.Entry.sample(url: "https://api.test/v1/\($0)/download") }),
    (
      "URL path, escaped by its writer",
      { HAR.Entry.sample(url: "https://api.test/v1/\(urlWritten($0))/download") }
    ),
    ("query", { HAR.Entry.sample(url: "https://api.test/v1/items?q=\($0)&page=2") }),
    (
      "header value", { HAR.Entry.sample(requestHeaders: [HAR.Header(name: "X-Trace", value: $0)]) }
    ),
    (
      "header name", { HAR.Entry.sample(requestHeaders: [HAR.Header(name: "X-\($0)", value: "1")]) }
    ),
    (
      "JSON string",
      {
        HAR.Entry.sample(
          content: HAR.Content(
            body: Data(#"{"note":"a \#($0) b"}"#.utf8), mimeType: "application/json"))
      }
    ),
    (
      "form",
      {
        HAR.Entry.sample(
          method: "POST",
          postData: HAR.PostData(
            mimeType: "application/x-www-form-urlencoded", text: "a=1&note=\($0)"))
      }
    ),
    (
      "text",
      {
        HAR.Entry.sample(
          content: HAR.Content(body: Data("hello \($0) bye".utf8), mimeType: "text/plain"))
      }
    ),
    (
      "XML",
      {
        HAR.Entry.sample(
          content: HAR.Content(body: Data("<a><b>\($0)</b></a>".utf8), mimeType: "application/xml"))
      }
    ),
    (
      "base64-wrapped body",
      {
        HAR.Entry.sample(
          content: HAR.Content(
            body: Data(
              #"{"blob":"\#(Data("{\"v\":\"\($0)\"}".utf8).base64EncodedString())"}"#.utf8),
            mimeType: "application/json"))
      }
    ),
    (
      // A body that is, whole, base64 of a JSON document (a blob a service hands back).
      "base64 body",
      {
        HAR.Entry.sample(
          content: HAR.Content(
            body: Data(
              Data("{\"id\":7,\"v\":\"\($0)\"}".utf8).base64EncodedString().utf8),
            mimeType: "text/plain"))
      }
    ),
    (
      "file name",
      {
        HAR.Entry.sample(
          method: "POST",
          postData: HAR.PostData(
            mimeType: "multipart/form-data; boundary=XyZ",
            text:
              "--XyZ\r\nContent-Disposition: form-data; name=\"f\"; filename=\"\($0).txt\"\r\n\r\nhi\r\n--XyZ--\r\n"
          ))
      }
    ),
  ]
}
