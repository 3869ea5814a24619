import Foundation

extension SharedRegex {
  /// The ranges of `text`'s UTF-8 bytes that the expression's matches (group 1 when it has
  /// one) take when `text` is read with its character references decoded, for the matches that
  /// stand on a reference only: a pattern that names a quote (`'sk-[a-z0-9]+'`) finds it where
  /// a page wrote `&#x27;`, `&#39;` or `&apos;`, as it finds it written plainly. One reading,
  /// ``HTMLCharacterReferences/mappedReading(_:)``, for the rules and for the logs.
  func matchRangesThroughReferences(in text: String) -> [Range<Int>] {
    var copy = text
    guard
      let reading = copy.withUTF8({
        HTMLCharacterReferences.mappedReading(UnsafeRawBufferPointer($0))
      })
    else { return [] }
    let read = String(decoding: reading.bytes, as: UTF8.self)
    let utf8 = read.utf8
    var ranges: [Range<Int>] = []
    for match in matches(in: read) {
      let group = match.numberOfRanges > 1 ? match.range(at: 1) : match.range
      guard group.location != NSNotFound, group.length > 0, let range = Range(group, in: read)
      else { continue }
      let lower = utf8.distance(from: utf8.startIndex, to: range.lowerBound)
      let upper = utf8.distance(from: utf8.startIndex, to: range.upperBound)
      let source = reading.sources[lower].lowerBound..<reading.sources[upper - 1].upperBound
      // A match on no reference is the expression's match in the text as written.
      if source.count != upper - lower { ranges.append(source) }
    }
    return ranges
  }
}
