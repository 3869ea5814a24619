import Testing

@testable import Understudy

/// Latency, bandwidth and timeouts, through every API, without blocking URLSession's queue.
@Suite struct TimingTests {
  let url = URL(string: "https://api.test/data")!

  @Test(arguments: API.allCases)
  func latencyDelaysTheResponse(api: API) async throws {
    let registry = StubRegistry()
    registry.stub(.get("/data"), StubResponse.text("slow").delayed(by: 0.15))
    let start = Date()
    let (data, response, _) = try await withWatchdog {
      try await api.send(URLRequest(url: url), to: registry)
    }
    #expect(Date().timeIntervalSince(start) >= 0.14)
    #expect(response.statusCode == 200)
    #expect(String(decoding: data, as: UTF8.self) == "slow")
  }

  @Test func aDelayedStubDoesNotHoldOtherSessions() async throws {
    let registry = StubRegistry()
    // Long enough that no load can make it finish first; cancelled (long before it is due) below.
    registry.stub(.get("/slow"), StubResponse.text("slow").delayed(by: TestTiming.never))
    registry.stub(.get("/fast"), .text("fast"))
    let slow = Task {
      try await registry.makeSession().data(for: .heldOpen(URL(string: "https://api.test/slow")!))
    }
    try await eventually { !registry.requestsInFlight.isEmpty }
    #expect(
      try await registry.makeSession().text(from: URL(string: "https://api.test/fast")!) == "fast")
    // Order, not time: the fast answer arrived while the slow request was still waiting.
    #expect(registry.requestsInFlight.map(\.path) == ["/slow"])
    slow.cancel()
    #expect(try await errorOf { try await slow.value }?.code == .cancelled)
  }

  @Test func bodyDelaySeparatesTheResponseFromItsBody() async throws {
    let registry = StubRegistry()
    // Long enough that no load can make the body due before the checks; cancelled below.
    registry.stub(.get("/data"), StubResponse.text("body").bodyDelayed(by: TestTiming.never))
    let delegate = TimestampingDelegate()
    let session = registry.makeSession(delegate: delegate)
    let task = session.dataTask(with: .heldOpen(url))
    task.resume()
    // Order, not time: the response is out while the body still waits for its delay.
    try await withWatchdog { try await delegate.responded() }
    #expect(delegate.body.isEmpty)
    #expect(delegate.times.data == nil)
    task.cancel()
    try await withWatchdog { try await delegate.finished() }
    #expect(delegate.body.isEmpty)
  }

  @Test func bodyDelayHoldsTheBodyBack() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/data"), StubResponse.text("body").bodyDelayed(by: 0.2))
    let delegate = TimestampingDelegate()
    let session = registry.makeSession(delegate: delegate)
    session.dataTask(with: url).resume()
    try await withWatchdog { try await delegate.finished() }
    // A lower bound only, measured from before the request started: a busy machine can make
    // the body later, never earlier. (The gap between the two callbacks is no bound: the
    // response callback itself can be late.)
    #expect(delegate.times.data! >= 0.2)
    #expect(String(decoding: delegate.body, as: UTF8.self) == "body")
  }

  @Test(arguments: API.allCases)
  func throttledBodiesArriveWholeAfterTheSimulatedTransferTime(api: API) async throws {
    let body = Data((0..<20_000).map { UInt8($0 % 251) })
    let registry = StubRegistry()
    registry.stub(.get("/data"), StubResponse.data(body).throttled(bytesPerSecond: 80_000))
    let start = Date()
    let (data, _, chunks) = try await withWatchdog {
      try await api.send(URLRequest(url: url), to: registry)
    }
    let elapsed = Date().timeIntervalSince(start)
    #expect(data == body)
    #expect(elapsed >= 0.2)
    if api == .delegate {
      // 80 kB/s in 50 ms ticks: 4,000-byte chunks.
      #expect(chunks == 5)
    }
  }

  /// An hour, and delays no clock can count: an infinite one is an answer that never comes.
  @Test(arguments: API.allCases, [3_600, .infinity, .greatestFiniteMagnitude])
  func aStubSlowerThanTheRequestTimeoutTimesOut(api: API, delay: TimeInterval) async throws {
    let registry = StubRegistry()
    registry.stub(.get("/data"), StubResponse.text("late").delayed(by: delay))
    var request = URLRequest(url: url)
    request.timeoutInterval = 0.2
    let start = Date()
    let timed = request
    let error = try await withWatchdog {
      try await errorOf { try await api.send(timed, to: registry) }
    }
    #expect(error?.code == .timedOut)
    // The timeout ended it, not the stub's hour-long delay: anything short of the hour proves
    // it. No tighter: on a busy machine every session in the process waits its turn on
    // FoundationNetworking's one serial queue, and a loaded run has held this test for 71 s.
    #expect(Date().timeIntervalSince(start) < TestTiming.never / 2)
  }

  @Test func theConfigurationsRequestTimeoutApplies() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/data"), StubResponse.text("late").delayed(by: 5))
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 0.2
    let error = try await withWatchdog {
      try await errorOf {
        try await API.async.send(URLRequest(url: url), to: registry, configuration: configuration)
      }
    }
    #expect(error?.code == .timedOut)
  }

  @Test(arguments: [
    StubResponse.text("late body").bodyDelayed(by: 5),
    StubResponse.text("late body").bodyDelayed(by: .infinity),
    .streaming([(Data("first".utf8), after: 0), (Data("never".utf8), after: .infinity)]),
  ])
  func aBodyDelayLongerThanTheTimeoutTimesOut(response: StubResponse) async throws {
    let registry = StubRegistry()
    registry.stub(.get("/data"), response)
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForResource = 0.3
    let error = try await withWatchdog {
      try await errorOf {
        try await API.delegate.send(
          URLRequest(url: url), to: registry, configuration: configuration)
      }
    }
    #expect(error?.code == .timedOut)
  }
}

/// The URLError a call fails with, or `nil` when it succeeds.
func errorOf<T>(_ call: () async throws -> T) async throws -> URLError? {
  do {
    _ = try await call()
    return nil
  } catch let failure as DelegateFailure {
    return failure.urlError
  } catch let error as URLError {
    return error
  }
}

/// Notes when the response and the first body bytes arrived.
final class TimestampingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  private let state = Locked<
    (response: TimeInterval?, data: TimeInterval?, body: Data, done: Bool)
  >(
    (nil, nil, Data(), false))
  private let start = Date()

  var times: (response: TimeInterval?, data: TimeInterval?) {
    let snapshot = state.current
    return (snapshot.response, snapshot.data)
  }

  var body: Data { state.current.body }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    let now = Date().timeIntervalSince(start)
    state.withLock { $0.response = now }
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let now = Date().timeIntervalSince(start)
    state.withLock {
      if $0.data == nil { $0.data = now }
      $0.body.append(data)
    }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    state.withLock { $0.done = true }
  }

  func finished() async throws {
    while !state.current.done { try await Task.sleep(nanoseconds: 2_000_000) }
  }

  func responded() async throws {
    while state.current.response == nil { try await Task.sleep(nanoseconds: 2_000_000) }
  }
}
