/// What redaction removed from one string: each placeholder it wrote and the length of the
/// text that placeholder stands for, so a scan can say what it found without showing it.
struct RedactedValue: CustomStringConvertible {
  /// The placeholder as written, `<redacted:authorization>` or `%3Credacted:token%3E`.
  let placeholder: String
  /// The text replaced, when the two strings line up; never printed.
  let removed: String?

  /// `<redacted:authorization> for 42 characters`.
  var description: String {
    removed.map { "\(placeholder) for \($0.count) characters" } ?? placeholder
  }

  /// The placeholders `redacted` has that `original` did not, each with the text it replaced.
  ///
  /// The text between placeholders is the same in both strings, so it is found again in the
  /// original in order; the gaps are what was removed. When the strings do not line up (a
  /// rule rewrote more than one value into one place) the placeholders are listed alone.
  /// A change that wrote no placeholder is reported as one unnamed replacement.
  static func replacements(from original: String, to redacted: String) -> [RedactedValue] {
    let old = Array(original.utf8)
    let new = Array(redacted.utf8)
    let spans = new.withUnsafeBufferPointer { CredentialShape.placeholders(in: $0) }
    guard !spans.isEmpty else {
      return [RedactedValue(placeholder: "(changed)", removed: original)]
    }
    var segments: [ArraySlice<UInt8>] = []
    var start = 0
    for span in spans {
      segments.append(new[start..<span.lowerBound])
      start = span.upperBound
    }
    segments.append(new[start...])
    var gaps: [Range<Int>]? = []
    var position = segments[0].count
    if !old.starts(with: segments[0]) { gaps = nil }
    for index in spans.indices where gaps != nil {
      let next = segments[index + 1]
      let gapEnd: Int?
      if index == spans.count - 1 {
        gapEnd =
          old.count - next.count >= position && old.suffix(next.count).elementsEqual(next)
          ? old.count - next.count : nil
      } else {
        gapEnd = next.isEmpty ? nil : firstIndex(of: next, in: old, from: position)
      }
      guard let gapEnd else {
        gaps = nil
        break
      }
      gaps?.append(position..<gapEnd)
      position = gapEnd + next.count
    }
    var result: [RedactedValue] = []
    for (index, span) in spans.enumerated() {
      let placeholder = String(decoding: new[span], as: UTF8.self)
      guard let gap = gaps?[index] else {
        if !original.contains(placeholder) {
          result.append(RedactedValue(placeholder: placeholder, removed: nil))
        }
        continue
      }
      // A placeholder already in the original was not written by this redaction.
      guard !old[gap].elementsEqual(new[span]) else { continue }
      result.append(
        RedactedValue(placeholder: placeholder, removed: String(decoding: old[gap], as: UTF8.self)))
    }
    return result
  }

  private static func firstIndex(
    of needle: ArraySlice<UInt8>, in haystack: [UInt8], from start: Int
  )
    -> Int?
  {
    guard let first = needle.first, haystack.count - needle.count >= start else { return nil }
    var index = start
    while index <= haystack.count - needle.count {
      if haystack[index] == first, haystack[index..<index + needle.count].elementsEqual(needle) {
        return index
      }
      index += 1
    }
    return nil
  }
}
