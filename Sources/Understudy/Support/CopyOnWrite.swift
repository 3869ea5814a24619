/// A value kept behind one reference: copying its holder is one retain, and changing it copies
/// the value first when another holder shares it.
///
/// Request snapshots and stub responses are copied at every step of a request (into the
/// journal, a decision, a reply) and changed rarely; held inline, each copy ran a copy function
/// over every field, cold in every test's scope.
struct CopyOnWrite<Value: Sendable>: @unchecked Sendable {
  // Changed only through `value`'s modify accessor, which first makes the box this holder's own.
  private final class Box {
    var value: Value

    init(_ value: Value) {
      self.value = value
    }
  }

  private var box: Box

  init(_ value: Value) {
    box = Box(value)
  }

  var value: Value {
    _read { yield box.value }
    _modify {
      if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
      yield &box.value
    }
  }
}
