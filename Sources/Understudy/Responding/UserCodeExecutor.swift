import Dispatch

/// Where async responders and WebSocket conversations run: libdispatch's overcommitting threads,
/// not Swift's cooperative pool.
///
/// The cooperative pool has one thread per core and never adds one. Test bodies share it, and a
/// test that computes for a minute without suspending holds a thread the whole time. With two
/// cores, two such tests left a responder's next step (after the request it awaited came back)
/// waiting more than 60 s for a thread, so its request timed out though the responder had
/// nothing left to do. A serial dispatch queue runs on the overcommitting pool, which starts a
/// thread when every thread is busy, as synchronous closures already get.
///
/// Each job gets a queue of its own, so a responder's child tasks run side by side, as they would
/// on the pool, and one that blocks a thread holds up no other.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class UserCodeExecutor: TaskExecutor {
  static let shared = UserCodeExecutor()

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    DispatchQueue(label: "Understudy async user code").async {
      job.runSynchronously(on: executor)
    }
  }
}
