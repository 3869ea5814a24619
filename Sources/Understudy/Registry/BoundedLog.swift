/// An append-only list that keeps its newest `capacity` elements, or all of them when `capacity`
/// is `nil`.
///
/// Trimming waits until twice the capacity is stored and then drops the surplus in one move, so
/// an append stays O(1) amortised instead of shifting the whole list each time once it is full.
struct BoundedLog<Element> {
  let capacity: Int?
  private var storage: [Element] = []

  init(capacity: Int?) {
    self.capacity = capacity
  }

  /// The kept elements, oldest first.
  var elements: [Element] {
    guard let capacity, storage.count > capacity else { return storage }
    return Array(storage.suffix(capacity))
  }

  mutating func append(_ element: Element) {
    if let capacity {
      guard capacity > 0 else { return }
      if storage.count >= 2 * capacity { storage.removeFirst(storage.count - capacity + 1) }
    }
    storage.append(element)
  }

  /// Changes the newest element that satisfies `predicate`, if one is still stored.
  mutating func updateLast(
    where predicate: (Element) -> Bool, with update: (inout Element) -> Void
  ) {
    guard let index = storage.lastIndex(where: predicate) else { return }
    update(&storage[index])
  }

  mutating func removeAll() {
    storage.removeAll()
  }
}

extension BoundedLog: Sendable where Element: Sendable {}
