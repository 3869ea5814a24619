/// An append-only list that keeps its newest `capacity` elements, or all of them when `capacity`
/// is `nil`.
///
/// Elements live in chunks of at most 1,024 (or `capacity`, if smaller). A journal that keeps every request grows for
/// as long as a test sends them; one flat array would copy everything it holds each time it
/// doubles, touching fresh pages for the copy (the benchmark's profile showed that copy in every
/// request's cost). Chunks are written once and never moved, and a bounded log drops whole chunks
/// from the front, so an append is O(1) and a bounded log holds at most twice its capacity.
struct BoundedLog<Element> {
  let capacity: Int?
  private let chunkSize: Int
  private var chunks: [[Element]] = []
  /// Elements stored, including any older than the capacity not yet dropped with their chunk.
  private var stored = 0

  init(capacity: Int?) {
    // A negative capacity would make `suffix` trap; it keeps none, as 0 does.
    self.capacity = capacity.map { max(0, $0) }
    self.chunkSize = min(max(capacity ?? 1024, 1), 1024)
  }

  /// The kept elements, oldest first.
  var elements: [Element] {
    let all = Array(chunks.joined())
    guard let capacity, all.count > capacity else { return all }
    return Array(all.suffix(capacity))
  }

  mutating func append(_ element: Element) {
    if capacity == 0 { return }
    // Counted, not `indices.last`: every request appends, and a debug build builds the range.
    let last = chunks.count - 1
    if last >= 0, chunks[last].count < chunkSize {
      chunks[last].append(element)
    } else {
      var chunk: [Element] = [element]
      // A log that has filled a chunk is a long one: size the next chunk at once rather than
      // copying it as it doubles. Short logs (most stubs) never allocate more than they hold.
      if !chunks.isEmpty { chunk.reserveCapacity(chunkSize) }
      chunks.append(chunk)
    }
    stored += 1
    if let capacity, stored - chunks[0].count >= capacity {
      stored -= chunks[0].count
      chunks.removeFirst()
    }
  }

  /// Changes the newest element that satisfies `predicate`, if one is still stored.
  mutating func updateLast(
    where predicate: (Element) -> Bool, with update: (inout Element) -> Void
  ) {
    // Counted loops: every answer updates its entry, and a debug build pays for the reversed
    // range and the generic `lastIndex(where:)` in metadata lookups.
    var chunk = chunks.count - 1
    while chunk >= 0 {
      var index = chunks[chunk].count - 1
      while index >= 0 {
        if predicate(chunks[chunk][index]) {
          update(&chunks[chunk][index])
          return
        }
        index -= 1
      }
      chunk -= 1
    }
  }

  mutating func removeAll() {
    chunks.removeAll()
    stored = 0
  }
}

extension BoundedLog: Sendable where Element: Sendable {}
