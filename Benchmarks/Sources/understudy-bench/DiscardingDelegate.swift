import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A session delegate that counts body bytes and drops them, so the only memory a streamed
/// response can hold is what URLSession and the library hold.
final class DiscardingDelegate: NSObject, URLSessionDataDelegate, Sendable {
  // Guards the byte count of the task in progress and the caller waiting for it to complete.
  private let state = Mutex<(bytes: Int, waiter: CheckedContinuation<Int, any Error>?)>((0, nil))

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    state.withLock { $0.bytes += data.count }
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    let (bytes, waiter) = state.withLock { state in
      defer { state = (0, nil) }
      return state
    }
    if let error { waiter?.resume(throwing: error) } else { waiter?.resume(returning: bytes) }
  }

  /// Runs a data task for `url` (one at a time) and returns how many body bytes it delivered.
  func fetch(_ url: URL, with session: URLSession) async throws -> Int {
    try await withCheckedThrowingContinuation { continuation in
      state.withLock { $0 = (0, continuation) }
      session.dataTask(with: url).resume()
    }
  }
}
