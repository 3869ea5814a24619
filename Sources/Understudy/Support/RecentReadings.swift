/// What was read from the last few inputs, so an input seen again gets the same value back
/// (one shared copy) without being read again; the oldest is replaced first.
///
/// Each lookup compares the input with every kept one, newest first, so keep it small.
struct RecentReadings<Input: Equatable & Sendable, Value: Sendable>: Sendable {
  private struct Ring {
    var inputs: [Input] = []
    var values: [Value] = []
    var next = 0
  }

  let capacity: Int
  private let ring = Locked(Ring())

  init(capacity: Int) {
    self.capacity = max(1, capacity)
  }

  /// The value read from `input` before, or `read(input)`, kept for next time.
  func reading(_ input: Input, _ read: (Input) -> Value) -> Value {
    if let known = find(input) { return known }
    let value = read(input)
    // Read outside the lock: two threads may read one input at once; both copies are kept.
    ring.withLock { ring in
      if ring.inputs.count < capacity {
        ring.inputs.append(input)
        ring.values.append(value)
      } else {
        ring.inputs[ring.next] = input
        ring.values[ring.next] = value
      }
      ring.next = (ring.next + 1) % capacity
    }
    return value
  }

  private func find(_ input: Input) -> Value? {
    ring.withLock { ring in
      // Newest first: a test usually repeats what it just sent. A counted loop, since every
      // request looks up its URL here and a debug build builds `indices` through metadata.
      let count = ring.inputs.count
      var index = ring.next
      var looked = 0
      while looked < count {
        index = (index == 0 ? count : index) - 1
        if ring.inputs[index] == input { return ring.values[index] }
        looked += 1
      }
      return nil
    }
  }
}
