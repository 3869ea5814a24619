import Testing

@testable import Understudy

/// ``NeedleSet`` finds what reading the text from the left finds, whichever of its two searches
/// runs, and the echo search built on it stays linear in the number of values.
@Suite struct NeedleSetTests {
  /// At each position, the longest needle that matches there (of equal ones, the first
  /// given); then on after it.
  private func fromTheLeft(_ needles: [[UInt8]], in text: [UInt8]) -> [(Range<Int>, Int)] {
    var found: [(Range<Int>, Int)] = []
    var position = 0
    while position < text.count {
      let matching = needles.indices.filter { index in
        let needle = needles[index]
        return !needle.isEmpty && needle.count <= text.count - position
          && Array(text[position..<(position + needle.count)]) == needle
      }
      if let index = matching.max(by: {
        needles[$0].count < needles[$1].count || (needles[$0].count == needles[$1].count && $0 > $1)
      }) {
        found.append((position..<(position + needles[index].count), index))
        position += needles[index].count
      } else {
        position += 1
      }
    }
    return found
  }

  /// Texts over three letters and needles of 1 to 9 bytes overlap each other and themselves at
  /// every offset, short and long needles mixed, the few that `memmem` searches one by one and
  /// the many that one pass reads.
  @Test(arguments: [3, NeedleSet.passThreshold - 1, NeedleSet.passThreshold, 300])
  func bothSearchesFindWhatReadingFromTheLeftFinds(needleCount: Int) {
    var random = SplitMix(seed: UInt64(needleCount) &* 7919)
    for round in 0..<(needleCount > 100 ? 40 : 300) {
      let needles = (0..<needleCount).map { _ in
        (0..<Int.random(in: 1...9, using: &random)).map { _ in
          UInt8(ascii: "a") + UInt8.random(in: 0...2, using: &random)
        }
      }
      let text = (0..<Int.random(in: 0...120, using: &random)).map { _ in
        UInt8(ascii: "a") + UInt8.random(in: 0...2, using: &random)
      }
      // Added one at a time, as redaction adds them, searching between.
      var set = NeedleSet()
      for (added, needle) in needles.enumerated() {
        set.append(needle)
        if added % 17 == 0 { _ = text.withUnsafeBytes { set.matches(in: $0) } }
      }
      let found = text.withUnsafeBytes { set.matches(in: $0) }
      let expected = fromTheLeft(needles, in: text)
      #expect(found.map(\.range) == expected.map(\.0), "round \(round)")
      #expect(found.map(\.needle) == expected.map(\.1), "round \(round)")
      let firstOnly = text.withUnsafeBytes { set.matches(in: $0, first: true) }
      #expect(firstOnly.map(\.range) == expected.prefix(1).map(\.0), "round \(round)")
    }
  }

  /// 2,000 passwords, each echoed once in a 4 MB body, every one of them found: searching once
  /// per spelling made this 44,000 reads of the body (100 s in the debug build); one pass reads
  /// it once. The size is what would hang, so a return at all is the check.
  @Test func twoThousandValuesAreFoundInOneReadOfALargeBody() throws {
    var echoes = RedactionEchoes()
    let values = (0..<2_000).map { "pw-\($0)-" + String(repeating: "k\($0 % 10)", count: 8) }
    for value in values { echoes.remember(value, as: "password") }
    var body = String(repeating: "ordinary text ", count: 280_000)
    for value in values { body += " said \(value);" }
    let found = echoes.ranges(in: body)
    #expect(found.count == 2_000)
    #expect(Set(found.map(\.name)) == ["password"])
  }
}
