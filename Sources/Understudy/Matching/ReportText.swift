// How values are written into match reports: short enough that one long body or header cannot
// swamp a near-miss report, quoted where whitespace matters.

extension StringProtocol {
  /// The text cut to `limit` characters, ending in an ellipsis when anything was cut.
  ///
  /// Walks at most `limit` characters, so clipping a megabyte body costs no more than a short one.
  func clipped(to limit: Int = 120) -> String {
    guard let end = index(startIndex, offsetBy: limit, limitedBy: endIndex), end != endIndex else {
      return String(self)
    }
    return String(self[..<index(before: end)]) + "…"
  }

  /// The text with line breaks written as `\r` and `\n`, so it stays on one report line.
  var oneLine: String {
    replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n")
  }

  /// The text in double quotes and clipped, so leading or trailing spaces stay visible.
  func quoted(limit: Int = 120) -> String {
    "\"" + clipped(to: limit - 2) + "\""
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
    LogRedaction.mask(String(prefix(limit * 20)), naming: naming)
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
