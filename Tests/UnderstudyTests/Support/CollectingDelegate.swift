@testable import Understudy

/// Collects a delegate-based task's callbacks, and answers redirect questions.
final class CollectingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  struct Result {
    var status: Int
    var body: Data
    var chunks: Int
    var response: HTTPURLResponse?
  }

  private struct Collected {
    var response: HTTPURLResponse?
    var body = Data()
    var chunks = 0
    var error: (any Error)?
    var done = false
    var redirects: [Int] = []
  }

  // Guards what the callbacks collected; they arrive on the session's delegate queue.
  private let state = Locked(Collected())
  /// Answers redirects: `nil` refuses, otherwise the request to follow.
  private let redirectDecision: (@Sendable (URLRequest) -> URLRequest?)?
  /// Whether a redirect's completion handler is called a second time, from another thread, as a
  /// careless delegate might.
  private let answersTwice: Bool

  init(
    answeringTwice answersTwice: Bool = false,
    redirectDecision: (@Sendable (URLRequest) -> URLRequest?)? = nil
  ) {
    self.answersTwice = answersTwice
    self.redirectDecision = redirectDecision
  }

  /// The statuses of the redirects the delegate was asked about.
  var redirectStatuses: [Int] { state.current.redirects }

  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
    completionHandler: @escaping (URLRequest?) -> Void
  ) {
    state.withLock { $0.redirects.append(response.statusCode) }
    let chosen = redirectDecision.map { $0(request) } ?? request
    completionHandler(chosen)
    if answersTwice {
      let again = Unchecked(completionHandler)
      DispatchQueue.global().async { again.value(chosen) }
    }
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    state.withLock { $0.response = response as? HTTPURLResponse }
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    state.withLock {
      $0.body.append(data)
      $0.chunks += 1
    }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    state.withLock {
      $0.error = error
      $0.done = true
    }
  }

  /// Waits for completion; throws ``DelegateFailure`` (with the bytes received) on an error.
  func result() async throws -> Result {
    while !state.current.done { try await Task.sleep(nanoseconds: 1_000_000) }
    let collected = state.current
    if let error = collected.error { throw DelegateFailure(error: error, body: collected.body) }
    return Result(
      status: collected.response?.statusCode ?? 0, body: collected.body, chunks: collected.chunks,
      response: collected.response)
  }
}

/// A delegate task's error, with the body bytes it received before the error.
struct DelegateFailure: Error {
  let error: any Error
  let body: Data
  var urlError: URLError? { error as? URLError }
}
