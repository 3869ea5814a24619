/// A value held by reference: a member most values leave unset costs one pointer in place of
/// its whole size.
///
/// A loaded cassette holds one model per entry, so every byte of a rarely set member is paid
/// 10,000 times in a large cassette (issue 17). The box is immutable: setting the member makes a
/// new one, so copies of the value never share a change.
final class Boxed<Value: Sendable>: Sendable {
  let value: Value

  init(_ value: Value) {
    self.value = value
  }
}

extension Boxed: Equatable where Value: Equatable {
  static func == (lhs: Boxed, rhs: Boxed) -> Bool {
    lhs === rhs || lhs.value == rhs.value
  }
}

extension Boxed: Hashable where Value: Hashable {
  func hash(into hasher: inout Hasher) {
    hasher.combine(value)
  }
}
