// How values are written into match reports: short enough that one long body or header cannot
// swamp a near-miss report, quoted where whitespace matters.

extension StringProtocol {
  /// The text cut to `limit` characters, ending in an ellipsis when anything was cut.
  ///
  /// Walks at most `limit` characters, so clipping a megabyte body costs no more than a short one.
  /// A cut never shows part of a word that may be a token: when it falls inside a run of
  /// letters, digits, `_` and `-` that reads as a token, the run is left out whole, as masking
  /// would have masked it whole had it known it.
  func clipped(to limit: Int = 120) -> String {
    guard let end = index(startIndex, offsetBy: limit, limitedBy: endIndex), end != endIndex else {
      return String(self)
    }
    let cut = ClippedRun.safeCut(in: self, at: index(before: end))
    return String(self[..<cut]) + "…"
  }

  /// The text with line breaks written as `\r` and `\n`, so it stays on one report line.
  var oneLine: String {
    replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n")
  }

  /// The text in double quotes and clipped, so leading or trailing spaces stay visible.
  func quoted(limit: Int = 120) -> String {
    "\"" + clipped(to: limit - 2) + "\""
  }

  /// Text a stub expects of a body, quoted for its description: masked before it is cut when a
  /// cut would fall inside it, since a cut multipart part or XML element no longer reads as one
  /// (`name="password"` with its value but not the boundary after it); masked when shown
  /// otherwise, as every expectation is.
  /// `prefix` (`contains `) and the text, in at most the 120 characters a condition shows.
  func quotedForDescription(after prefix: String) -> String {
    let limit = 120 - prefix.count
    return prefix + (count <= limit - 2 ? quoted(limit: limit) : maskedQuoted(limit: limit))
  }

  /// Text a request sent, quoted for a report: masked before it is cut, so a credential the cut
  /// would split (`{"password":"hunt…`) is still recognised whole. With `oneLine`, line breaks
  /// are written as `\r` and `\n` after masking, which reads headers line by line.
  func maskedQuoted(limit: Int = 120, oneLine: Bool = false, naming: NamedSecrets? = nil)
    -> String
  {
    let masked = masked(beforeCuttingTo: limit, naming: naming)
    return (oneLine ? masked.oneLine : masked).quoted(limit: limit)
  }

  /// The text masked, as far as a cut to `limit` characters could show it and well beyond, so a
  /// credential that straddles the cut is read whole; what lies further is left out unread.
  func masked(beforeCuttingTo limit: Int, naming: NamedSecrets? = nil) -> String {
    LogRedaction.mask(String(prefix(limit * 20)), naming: naming, asTraffic: true)
  }
}

extension InterceptedRequest {
  /// The body as reports show it: quoted text, or why it cannot be shown as text.
  var bodySummary: String {
    guard let body else { return "no body" }
    guard let text = bodyText else { return "\(body.count) bytes, not UTF-8" }
    return text.maskedQuoted()
  }
}

/// The offset of the first element where `lhs` and `rhs` differ, or the shorter length when one is
/// a prefix of the other; `nil` when they are equal.
func firstDifference<C: Collection>(_ lhs: C, _ rhs: C) -> Int? where C.Element: Equatable {
  var offset = 0
  var left = lhs.makeIterator()
  var right = rhs.makeIterator()
  while true {
    switch (left.next(), right.next()) {
    case (nil, nil): return nil
    case (let l?, let r?) where l == r: offset += 1
    default: return offset
    }
  }
}

/// Where a cut may fall without showing part of a token.
enum ClippedRun {
  /// The longest run looked at either side of a cut.
  static let reach = 256

  /// `cut`, or the start of the run of word characters it falls inside when that run reads as
  /// a token rather than a word. `cut` is a character boundary of `text`.
  static func safeCut<S: StringProtocol>(in text: S, at cut: S.Index) -> S.Index {
    guard cut > text.startIndex, cut < text.endIndex, isWord(text[text.index(before: cut)]),
      isWord(text[cut])
    else { return cut }
    var start = cut
    var steps = 0
    while start > text.startIndex, steps < reach, isWord(text[text.index(before: start)]) {
      start = text.index(before: start)
      steps += 1
    }
    var end = cut
    steps = 0
    while end < text.endIndex, steps < reach, isWord(text[end]) {
      end = text.index(after: end)
      steps += 1
    }
    return isTokenLike(text[start..<end]) ? start : cut
  }

  /// Whether a run reads as a token rather than a word or a number: eight characters or more,
  /// with letters and digits mixed, or a capital after a small letter (`Zq7Secret…`,
  /// `aBcDeFgH`); `hello`, `aaaa…` and `2026` are cut where the limit falls.
  private static func isTokenLike<S: StringProtocol>(_ run: S) -> Bool {
    guard run.utf8.count >= 8 else { return false }
    var letters = false
    var digits = false
    var previousIsSmall = false
    for byte in run.utf8 {
      if ASCIIByte.isDigit(byte) { digits = true }
      if ASCIIByte.isLetter(byte) {
        letters = true
        let isSmall = byte >= 0x61
        if previousIsSmall && !isSmall { return true }
        previousIsSmall = isSmall
      } else {
        previousIsSmall = false
      }
    }
    return letters && digits
  }

  private static func isWord(_ character: Character) -> Bool {
    guard let ascii = character.asciiValue else { return false }
    return ASCIIByte.isLetter(ascii) || ASCIIByte.isDigit(ascii) || ascii == UInt8(ascii: "_")
      || ascii == UInt8(ascii: "-")
  }
}
