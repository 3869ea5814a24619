/// Carries a value the compiler cannot prove `Sendable` across a queue hop.
///
/// `URLProtocol` and `URLSessionTask` are declared non-`Sendable`, yet FoundationNetworking
/// requires us to reach them from timer and network queues. Each use is paired with the lock or
/// queue discipline that makes the access safe; the box only states that on the hop itself.
struct Unchecked<Value>: @unchecked Sendable {
  let value: Value

  init(_ value: Value) {
    self.value = value
  }
}

/// A weak reference that can cross a queue hop.
///
/// Pending work (timers, network completions, delegate questions) holds the protocol weakly: once
/// URLSession has finished with a protocol instance, late work must find it gone rather than keep
/// it alive and release it from a foreign queue.
struct WeakUnchecked<Object: AnyObject>: @unchecked Sendable {
  weak var value: Object?

  init(_ value: Object) {
    self.value = value
  }
}
