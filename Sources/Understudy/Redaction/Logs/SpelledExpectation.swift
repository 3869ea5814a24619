/// What a stub expects, as its description writes it: a query value percent-encoded
/// (`http%3A%2F%2Fapp.test%2Fcb%3Ftoken%3D…`), a regular expression with `\` before punctuation
/// (`^http:\/\/deploy:…@127\.0\.0\.1`, `SG\.…\.…`). Masking reads text as written, where those
/// escapes hide a pair, user information or a token's shape; a copy with them undone is masked
/// too, and what it masks is masked in the text as written.
enum SpelledExpectation {
  /// `text` masked as written and as read with its escapes undone.
  static func masked(_ text: String, naming: NamedSecrets?) -> String {
    // The text in quotes after the comparison (`contains "…"`, `== "…"`) is a body as the
    // request would send it, read so: a multipart body starts at its boundary line.
    var echoes: [String] = []
    if let open = text.firstIndex(of: "\""), let close = text.lastIndex(of: "\""), open < close {
      let inner = String(text[text.index(after: open)..<close])
      echoes = LogRedaction.removedByCassettes(from: inner, in: .body(mimeType: ""))
    }
    // What the cassette would take out is masked first, as written: a form's value holding
    // escaped delimiters (`password=…%26%3C…`) is one value there, where its unescaped copy
    // reads `&<` and ends the value early, leaving the rest as written.
    let text =
      echoes.isEmpty
      ? text : LogRedaction.mask(text, naming: naming, echoes: echoes, asTraffic: true)
    return LogRedaction.mask(
      maskingUnescaped(text, naming: naming), naming: naming, echoes: echoes, asTraffic: true)
  }

  /// `text` with each range that masking its unescaped copy masks replaced by a masked value
  /// of the copy's length; `text` when it has no escapes or nothing is masked.
  static func maskingUnescaped(_ text: String, naming: NamedSecrets?) -> String {
    let bytes = Array(text.utf8)
    guard
      bytes.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "\\") })
    else { return text }
    let (copy, sources) = unescaped(bytes)
    guard copy.count < bytes.count else { return text }
    let readable = String(decoding: copy, as: UTF8.self)
    let ranges = LogRedaction.maskedRanges(in: readable, naming: naming)
    guard !ranges.isEmpty else { return text }
    var result: [UInt8] = []
    var position = 0
    for range in ranges {
      let lower = readable.utf8.distance(from: readable.startIndex, to: range.lowerBound)
      let upper = readable.utf8.distance(from: readable.startIndex, to: range.upperBound)
      guard lower < upper, sources[lower].lowerBound >= position else { continue }
      result += bytes[position..<sources[lower].lowerBound]
      result += Array("\(LogRedaction.marker)(\(readable[range].count) chars)".utf8)
      position = sources[upper - 1].upperBound
    }
    result += bytes[position...]
    return String(decoding: result, as: UTF8.self)
  }

  /// `bytes` with each `%XX` of an ASCII byte, each `\` before ASCII punctuation and each
  /// `\s` (with its `+`, `*` or `?`) undone,
  /// and for each byte of the result the range of `bytes` it was read from. An escape of a
  /// byte of a longer UTF-8 sequence stays as written, so the result is UTF-8 when `bytes` are.
  static func unescaped(_ bytes: [UInt8]) -> ([UInt8], [Range<Int>]) {
    var copy: [UInt8] = []
    var sources: [Range<Int>] = []
    copy.reserveCapacity(bytes.count)
    sources.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
        let high = ASCIIByte.hexValue(bytes[index + 1]),
        let low = ASCIIByte.hexValue(bytes[index + 2]),
        high < 8
      {
        copy.append(high << 4 | low)
        sources.append(index..<(index + 3))
        index += 3
      } else if byte == UInt8(ascii: "\\"), index + 1 < bytes.count,
        bytes[index + 1] == UInt8(ascii: "s")
      {
        // A regular expression's white space (`Bearer\s+…`) reads as the space it stands for,
        // with its quantifier, so `Bearer\s+ghp_…` is a bearer token's shape.
        var end = index + 2
        if end < bytes.count,
          [UInt8(ascii: "+"), UInt8(ascii: "*"), UInt8(ascii: "?")]
            .contains(bytes[end])
        {
          end += 1
        }
        copy.append(0x20)
        sources.append(index..<end)
        index = end
      } else if byte == UInt8(ascii: "\\"), index + 1 < bytes.count,
        isPunctuation(bytes[index + 1])
      {
        copy.append(bytes[index + 1])
        sources.append(index..<(index + 2))
        index += 2
      } else {
        copy.append(byte)
        sources.append(index..<(index + 1))
        index += 1
      }
    }
    return (copy, sources)
  }

  private static func isPunctuation(_ byte: UInt8) -> Bool {
    byte > 0x20 && byte < 0x7F && !ASCIIByte.isAlphanumeric(byte)
  }
}
