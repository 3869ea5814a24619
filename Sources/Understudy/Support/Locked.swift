#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A value guarded by a lock, for state shared between URLSession's queues and test tasks.
///
/// Copies share the value and the lock. `Mutex` from Synchronization would need macOS 15 and iOS
/// 18, and `NSLock` costs two extra allocations per instance; every intercepted request creates
/// one of these, so the value and the platform's lock live in a single allocation.
struct Locked<Value>: @unchecked Sendable {
  private let storage: Storage

  init(_ value: consuming Value) {
    storage = Storage.make(value)
  }

  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    try storage.withUnsafeMutablePointers { value, lock in
      PlatformLock.lock(lock)
      defer { PlatformLock.unlock(lock) }
      return try body(&value.pointee)
    }
  }

  var current: Value {
    withLock { $0 }
  }

  /// The value as the header, the lock as the one element, so the lock has a stable address.
  private final class Storage: ManagedBuffer<Value, PlatformLock.Primitive> {
    static func make(_ value: consuming Value) -> Storage {
      // Moved in, not copied: a copy of a large value (a protocol instance's state, say) runs
      // its copy function, and every request makes one of these.
      var moving = Optional(value)
      let buffer = create(minimumCapacity: 1) { _ in moving.take()! }
      buffer.withUnsafeMutablePointerToElements { PlatformLock.initialize($0) }
      return unsafeDowncast(buffer, to: Storage.self)
    }

    deinit {
      withUnsafeMutablePointerToElements { PlatformLock.destroy($0) }
    }
  }
}

/// The platform's cheapest mutual-exclusion lock: `os_unfair_lock` on Darwin, a pthread mutex
/// elsewhere.
enum PlatformLock {
  #if canImport(Darwin)
    typealias Primitive = os_unfair_lock

    static func initialize(_ lock: UnsafeMutablePointer<Primitive>) {
      lock.initialize(to: os_unfair_lock())
    }

    static func destroy(_ lock: UnsafeMutablePointer<Primitive>) {
      lock.deinitialize(count: 1)
    }

    static func lock(_ lock: UnsafeMutablePointer<Primitive>) {
      os_unfair_lock_lock(lock)
    }

    static func unlock(_ lock: UnsafeMutablePointer<Primitive>) {
      os_unfair_lock_unlock(lock)
    }
  #else
    typealias Primitive = pthread_mutex_t

    static func initialize(_ lock: UnsafeMutablePointer<Primitive>) {
      lock.initialize(to: pthread_mutex_t())
      let result = pthread_mutex_init(lock, nil)
      precondition(result == 0, "pthread_mutex_init failed with \(result)")
    }

    static func destroy(_ lock: UnsafeMutablePointer<Primitive>) {
      pthread_mutex_destroy(lock)
      lock.deinitialize(count: 1)
    }

    static func lock(_ lock: UnsafeMutablePointer<Primitive>) {
      pthread_mutex_lock(lock)
    }

    static func unlock(_ lock: UnsafeMutablePointer<Primitive>) {
      pthread_mutex_unlock(lock)
    }
  #endif
}
