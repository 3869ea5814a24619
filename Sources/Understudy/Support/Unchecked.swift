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
