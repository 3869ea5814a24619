import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A request that ended (a timeout, a cancel) while the test's own code still worked on it: a
/// body stream, a redirect delegate, a pass-through rewrite, a custom matcher. Whatever that code
/// does afterwards must not act for the request: no memory grown without end, no issue blamed
/// on the test, no second hop, no request to the network, no stub used up. Found by an audit
/// (2026-11-27).
@Suite struct EndedRequestTests {
  private func post(_ path: String, stream: InputStream, timeout: TimeInterval = 60)
    -> URLRequest
  {
    var request = URLRequest(url: URL(string: "https://api.test\(path)")!)
    request.httpMethod = "POST"
    request.httpBodyStream = stream
    request.timeoutInterval = timeout
    return request
  }

  /// Returns once URLSession has handled everything asked of it before: a cancel reaches the
  /// protocol's `stopLoading` through the work queue, which every session shares in order, so
  /// a request through another session that comes back has followed it there. Without this the
  /// test's own code could be released before the cancel had landed, which under load it was.
  private func afterTheWorkQueue() async throws {
    let barrier = StubRegistry()
    barrier.stub(.get("/barrier"), .ok)
    _ = try await withWatchdog {
      try await barrier.makeSession().data(from: URL(string: "https://api.test/barrier")!)
    }
  }

  @Test func aBodyStreamThatNeverEndsIsReadNoFurtherOnceItsRequestTimedOut() async throws {
    let registry = StubRegistry()
    registry.stub(.post("/upload"), .ok)
    let stream = EndlessStream()
    let sent = post("/upload", stream: stream, timeout: 0.3)
    let error = try await withWatchdog {
      try await errorOf { try await registry.makeSession().data(for: sent) }
    }
    #expect(error?.code == .timedOut)
    try await Task.sleep(nanoseconds: 200_000_000)
    let afterTimeout = stream.reads
    try await Task.sleep(nanoseconds: 500_000_000)
    #expect(stream.reads == afterTimeout)
  }

  @Test func aBodyStreamThatFailsFailsItsRequest() async throws {
    let registry = StubRegistry()
    registry.stub(.post("/upload"), .text("answered"))
    let sent = post("/upload", stream: FailingStream())
    let error = try await withWatchdog {
      try await errorOf { try await registry.makeSession().data(for: sent) }
    }
    #expect(error?.localizedDescription.contains("the body of POST") == true)
    #expect(
      error?.localizedDescription.contains("could not be read: its stream failed after 7 bytes")
        == true)
    #expect(registry.stubs[0].callCount == 0)
  }

  /// The test did everything right: it awaited its request, which timed out. The stream that
  /// request was still reading must not, once read, have the request decided after all: the
  /// stub used up, the request journaled, and after the test's end a straggler reported
  /// against it.
  @Test func aBodyStreamReadAfterItsRequestTimedOutIsNotDecided() async throws {
    let registry = StubRegistry()
    registry.beginScope(verifying: .default)
    let stub = registry.stub(.post("/upload"), .ok)
    let stream = BlockingStream()
    let sent = post("/upload", stream: stream, timeout: 0.3)
    let error = try await withWatchdog {
      try await errorOf { try await registry.makeSession().data(for: sent) }
    }
    #expect(error?.code == .timedOut)
    stream.release.signal()
    try await Task.sleep(nanoseconds: 300_000_000)
    #expect(stub.callCount == 0)
    #expect(registry.journal.isEmpty)
    #expect(registry.endScope(testName: "t", location: registry.location).isEmpty)
  }

  @Test func aRedirectDelegateThatAnswersTwiceIsHeardOnce() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/a"), .redirect(to: "/b"))
    let target = registry.stub(.get("/b"), .text("followed"))
    let delegate = CollectingDelegate(answeringTwice: true)
    registry.makeSession(delegate: delegate).dataTask(with: URL(string: "https://api.test/a")!)
      .resume()
    let result = try await withWatchdog { try await delegate.result() }
    #expect(String(decoding: result.body, as: UTF8.self) == "followed")
    try await Task.sleep(nanoseconds: 200_000_000)
    #expect(target.callCount == 1)
    #expect(registry.journal.map(\.request.url.path) == ["/a", "/b"])
  }

  @Test func aRedirectFollowedAfterTheTaskWasCancelledIsNotRequested() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/a"), .redirect(to: "/b"))
    let target = registry.stub(.get("/b"), .text("followed"))
    let asked = Arrival()
    let answer = DispatchSemaphore(value: 0)
    let delegate = CollectingDelegate { request in
      asked.signal()
      _ = answer.wait(timeout: .now() + TestTiming.never)
      return request
    }
    let task = registry.makeSession(delegate: delegate)
      .dataTask(with: .heldOpen(URL(string: "https://api.test/a")!))
    task.resume()
    try await asked.wait(within: 20)
    task.cancel()
    try await afterTheWorkQueue()
    // The delegate answers after the cancel; its queue is free again for the completion.
    answer.signal()
    let error = try await withWatchdog { try await errorOf { try await delegate.result() } }
    try await Task.sleep(nanoseconds: 300_000_000)
    #expect(error?.code == .cancelled)
    #expect(target.callCount == 0)
  }

  @Test func aPassThroughWhoseRequestEndedWhileItsRewriteRanNeverReachesTheNetwork()
    async throws
  {
    let canary = try TCPCanary()
    defer { canary.stop() }
    let rewriting = Arrival()
    let release = DispatchSemaphore(value: 0)
    let registry = StubRegistry()
    registry.stub(
      .get("/slow"),
      .passThrough(
        PassThrough(transform: { request in
          rewriting.signal()
          _ = release.wait(timeout: .now() + TestTiming.never)
          request.url = URL(string: "http://127.0.0.1:\(canary.port)/x")
        })))
    let work = Task {
      try await registry.makeSession().data(for: .heldOpen(URL(string: "https://api.test/slow")!))
    }
    try await rewriting.wait(within: 20)
    work.cancel()
    let error = try await withWatchdog { try await errorOf { try await work.value } }
    try await afterTheWorkQueue()
    release.signal()
    try await Task.sleep(nanoseconds: 500_000_000)
    #expect(error?.code == .cancelled)
    #expect(try await canary.connections() == 0)
  }

  @Test func aStubACustomMatcherChoseAfterItsRequestEndedIsNotUsedUp() async throws {
    let registry = StubRegistry()
    let matching = Arrival()
    let release = DispatchSemaphore(value: 0)
    let slow = Locked(true)
    registry.stub(
      .get("/once")
        && .custom("slow the first time") { _ in
          let first = slow.withLock { isFirst -> Bool in
            defer { isFirst = false }
            return isFirst
          }
          if first {
            matching.signal()
            _ = release.wait(timeout: .now() + TestTiming.never)
          }
          return true
        },
      .text("answered"), limit: .once)
    let url = URL(string: "https://api.test/once")!
    let first = Task { try await registry.makeSession().data(for: .heldOpen(url)) }
    try await matching.wait(within: 20)
    first.cancel()
    let error = try await withWatchdog { try await errorOf { try await first.value } }
    try await afterTheWorkQueue()
    release.signal()
    try await Task.sleep(nanoseconds: 300_000_000)
    #expect(error?.code == .cancelled)
    #expect(try await registry.makeSession().text(from: url) == "answered")
  }
}

/// A body stream that always has 64 KiB more, counting its reads.
final class EndlessStream: InputStream {
  private let count = Locked(0)
  var reads: Int { count.current }

  init() { super.init(data: Data()) }

  override func open() {}
  override func close() {}
  override var hasBytesAvailable: Bool { true }
  override var streamStatus: Stream.Status { .open }

  override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
    count.withLock { $0 += 1 }
    Thread.sleep(forTimeInterval: 0.001)
    buffer.update(repeating: UInt8(ascii: "x"), count: length)
    return length
  }
}

/// A body stream that gives `partial` and then fails.
final class FailingStream: InputStream {
  private let done = Locked(false)

  init() { super.init(data: Data()) }

  override func open() {}
  override func close() {}
  override var hasBytesAvailable: Bool { true }
  override var streamStatus: Stream.Status { done.current ? .error : .open }
  override var streamError: (any Error)? {
    done.current ? URLError(.networkConnectionLost) : nil
  }

  override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
    guard !done.current else { return -1 }
    done.withLock { $0 = true }
    for (index, byte) in "partial".utf8.enumerated() { buffer[index] = byte }
    return 7
  }
}
