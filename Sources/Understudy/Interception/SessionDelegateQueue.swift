import Dispatch
import Foundation

/// The delegate queue of a session the registry makes: serial, as the one URLSession would make,
/// but on a dispatch queue made with a label.
///
/// The one FoundationNetworking makes runs on `DispatchQueue.global()`, whose threads on Linux
/// are Swift's concurrency pool: while other tests computed on every thread of it, an answer
/// that had arrived waited for one (until the test let them go), and a responder awaiting its
/// own request timed out after 60 s. A labelled queue is served even then. It is held here
/// because FoundationNetworking's `underlyingQueue` does not retain it.
final class SessionDelegateQueue: OperationQueue, @unchecked Sendable {
  private let queue = DispatchQueue(label: "Understudy session delegate queue")

  override init() {
    super.init()
    maxConcurrentOperationCount = 1
    underlyingQueue = queue
  }
}
