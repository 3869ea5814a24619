/// A value an error or a warning quotes (a malformed cassette's status, method or header name,
/// an unknown `UNDERSTUDY_RECORD`): shown in double quotes only when it is short and reads as
/// words or a small number, described by its length otherwise.
///
/// Masking finds a credential by its name or its shape; a value quoted by an error has neither,
/// and a random token pasted in the wrong place is just what such an error meets. A value is never
/// cut to fit, since a cut value shows part of itself.
package enum QuotedValue {
  /// The longest value shown.
  static let maximumShown = 32

  /// `"value"`, or `a value of N characters` when it may not be shown.
  package static func quoted(_ value: some StringProtocol) -> String {
    mayShow(value) ? "\"\(value)\"" : "a value of \(value.count) characters"
  }

  /// Whether `value` is short and each of its words is plain: letters in one case or
  /// capitalised (shorter than 16), or digits (shorter than the shortest echo searched for).
  /// Letters mixed with digits, or with capitals inside a word, in a run of eight or more are
  /// random enough to be a token.
  /// A word (between spaces) of eight characters or more that mixes digits, or lower and upper
  /// case, with a symbol password rules ask for (`!@#$%^&*+=?~`, as in `GAg4YT!Y`) is a
  /// password's shape, whatever its runs; `<!DOCTYPE`, a JSON escape's `\u12G4"}` and a date
  /// are not.
  package static func mayShow(_ value: some StringProtocol) -> Bool {
    guard value.count <= maximumShown else { return false }
    var run: [UInt8] = []
    var word = (
      length: 0, hasDigit: false, hasLower: false, hasUpper: false, hasSymbol: false,
      isSyntax: false
    )
    for byte in value.utf8 + [0x20] {
      if byte == 0x20 || byte == 0x09 {
        if word.length >= 8, word.hasSymbol, !word.isSyntax,
          word.hasDigit && (word.hasLower || word.hasUpper) || word.hasLower && word.hasUpper
        {
          return false
        }
        word = (0, false, false, false, false, false)
      } else {
        word.length += 1
      }
      if ASCIIByte.isLetter(byte) || ASCIIByte.isDigit(byte) {
        if ASCIIByte.isDigit(byte) { word.hasDigit = true }
        if ASCIIByte.isLower(byte) { word.hasLower = true }
        if ASCIIByte.isUpper(byte) { word.hasUpper = true }
        run.append(byte)
        continue
      }
      switch byte {
      case UInt8(ascii: "!"), UInt8(ascii: "@"), UInt8(ascii: "#"), UInt8(ascii: "$"),
        UInt8(ascii: "%"), UInt8(ascii: "^"), UInt8(ascii: "&"), UInt8(ascii: "*"),
        UInt8(ascii: "+"), UInt8(ascii: "="), UInt8(ascii: "?"), UInt8(ascii: "~"):
        word.hasSymbol = true
      case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "}"),
        UInt8(ascii: "<"), UInt8(ascii: ">"):
        // A JSON escape or markup a syntax error quotes (`\u+041"}`), not a password.
        word.isSyntax = true
      default:
        break
      }
      if !isPlain(run) { return false }
      run.removeAll(keepingCapacity: true)
    }
    return true
  }

  private static func isPlain(_ run: [UInt8]) -> Bool {
    if run.allSatisfy(ASCIIByte.isDigit) { return run.count < Redaction.minimumEchoLength }
    guard run.count >= 8 else { return true }
    guard run.count < 16, run.allSatisfy(ASCIIByte.isLetter) else { return false }
    let capitals = run.filter { $0 < 0x60 }.count
    return capitals == 0 || capitals == run.count || (capitals == 1 && run[0] < 0x60)
  }
}
