import Foundation

/// A body, a JSON string or a value that is hex of text (`7b2270617373776f7264223a…` is
/// `{"password":…`), which redaction reads as the text it holds and writes back in hex of the
/// same case, as it does base64 of text (``Base64Body``).
enum HexBody {
  /// At least 16 bytes of text: shorter hex is an id or a hash far more often.
  static let minimumDigits = 32

  /// `body` decoded when it is hex of UTF-8 text, digits of one case only, and whether they were
  /// upper case; `nil` otherwise. Its first 64 digits are looked at first, so a body that is no
  /// hex of text costs no more than that.
  static func decoded(_ body: String) -> (text: String, upperCase: Bool)? {
    let count = body.utf8.count
    guard count >= minimumDigits, count % 2 == 0 else { return nil }
    var body = body
    return body.withUTF8 { digits -> (String, Bool)? in
      guard let head = decode(UnsafeBufferPointer(rebasing: digits[..<min(count, 64)])),
        isText(head), let whole = decode(digits), isText(whole),
        let text = String(validating: whole, as: UTF8.self)
      else { return nil }
      return (text, digits.contains { (UInt8(ascii: "A")...UInt8(ascii: "F")).contains($0) })
    }
  }

  /// `text` in hex of the case `decoded(_:)` found.
  static func encoded(_ text: String, upperCase: Bool) -> String {
    text.utf8.map { String(format: upperCase ? "%02X" : "%02x", $0) }.joined()
  }

  private static func decode(_ digits: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    var lower = false
    var upper = false
    var index = 0
    while index + 1 < digits.count {
      guard let high = value(of: digits[index], lower: &lower, upper: &upper),
        let low = value(of: digits[index + 1], lower: &lower, upper: &upper)
      else { return nil }
      bytes.append(high << 4 | low)
      index += 2
    }
    // One case only: `DeadBeef…` is a word with digits, not hex.
    return lower && upper ? nil : bytes
  }

  private static func value(of digit: UInt8, lower: inout Bool, upper: inout Bool) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"):
      lower = true
      return digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"):
      upper = true
      return digit - UInt8(ascii: "A") + 10
    default: return nil
    }
  }

  /// Printable ASCII and white space, or UTF-8 with no control character but white space.
  private static func isText(_ bytes: [UInt8]) -> Bool {
    bytes.allSatisfy { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 >= 0x20 && $0 != 0x7F }
  }
}
