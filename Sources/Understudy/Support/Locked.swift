import Foundation

/// A value guarded by a lock, for state shared between URLSession's queues and test tasks.
///
/// `Mutex` from Synchronization would need macOS 15 and iOS 18; an `NSLock` keeps the deployment
/// targets of the test suites that import us.
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) {
    self.value = value
  }

  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }

  var current: Value {
    withLock { $0 }
  }
}
