import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Stream parts are due at offsets from the response's start, so one late wake-up on a busy
/// machine delays that part only, never every part after it (issue 41).
@Suite struct StreamDeadlineTests {
  /// When each callback came, on the delegate's queue.
  final class TimingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Guards the times; callbacks come on the session's delegate queue.
    let times = Locked((response: Date?.none, parts: [Date](), done: false))

    func urlSession(
      _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
      completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
      times.withLock { $0.response = Date() }
      completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
      times.withLock { $0.parts.append(Date()) }
    }

    func urlSession(
      _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
    ) {
      times.withLock { $0.done = true }
    }
  }

  /// A cassette whose one entry answers in five parts recorded 150 ms apart.
  private static func cassette() throws -> URL {
    let parts = (0..<5).map { #"{"size": 5, "time": \#($0 * 150)}"# }.joined(separator: ", ")
    let json = #"""
      {"log": {"version": "1.2", "creator": {"name": "x", "version": "1"}, "entries": [{
      "startedDateTime": "2024-01-01T00:00:00.000Z", "time": 600, "request": {"method": "GET",
      "url": "https://a.example/events", "httpVersion": "HTTP/1.1", "cookies": [], "headers": [],
      "queryString": [], "headersSize": -1, "bodySize": 0}, "response": {"status": 200,
      "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [], "headers": [], "content":
      {"size": 25, "mimeType": "text/event-stream", "text": "one\n\ntwo\n\nthr\n\nfou\n\nfiv\n\n",
      "_chunks": [\#(parts)]}, "redirectURL": "", "headersSize": -1, "bodySize": -1},
      "cache": {}, "timings": {"send": 0, "wait": 0, "receive": 600}}]}}
      """#
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("stream-deadlines-\(UUID().uuidString).har")
    try Data(json.utf8).write(to: url)
    return url
  }

  /// The neighbour: work that holds the queue every wake-up goes through for 50 ms at a time,
  /// again and again, as a busy parallel suite's requests do. A wake-up waits up to 50 ms;
  /// counted from the part before, five of those waits added up.
  private static func hold(while running: Locked<Bool>) {
    EngineQueue.inTurn {
      Thread.sleep(forTimeInterval: 0.05)
      if running.current { hold(while: running) }
    }
  }

  @Test func aReplayedStreamKeepsEachPartNearItsOffsetBesideABusyNeighbour() async throws {
    let file = try Self.cassette()
    defer { try? FileManager.default.removeItem(at: file) }
    let registry = StubRegistry()
    registry.use(Cassette(at: file, options: CassetteOptions(replaySpeed: .recorded)))
    let running = Locked(true)
    Self.hold(while: running)
    defer { running.withLock { $0 = false } }
    let delegate = TimingDelegate()
    registry.makeSession(delegate: delegate)
      .dataTask(with: URL(string: "https://a.example/events")!).resume()
    var deadline = HangDeadline(seconds: 30)
    while !delegate.times.current.done, !deadline.hasPassed {
      try await deadline.pause(nanoseconds: 5_000_000)
    }
    let times = delegate.times.current
    let start = try #require(times.response)
    try #require(times.parts.count == 5)
    let lateness = times.parts.enumerated().map { index, arrival in
      arrival.timeIntervalSince(start) - Double(index) * 0.15
    }
    for (index, late) in lateness.enumerated() {
      #expect(late > -0.02, "part \(index + 1) came \(Int(-late * 1000)) ms early")
    }
    // What the deadlines prevent is lateness that adds up: counted from the part before, each
    // held wake-up (50 ms) lands on every later part (0, 58, 120, 184, 245 ms late). Judged by
    // how lateness grows, not by one part's lateness, so a busy machine's one slow wake-up
    // (100 ms and more at a load of 10 on 2 cores) is not taken for it: the slope of a
    // least-squares line through the five latenesses stays under 25 ms a part, and no part is
    // more than 150 ms later than the least late one.
    let mean = lateness.reduce(0, +) / 5
    let slope =
      zip(0..., lateness).map { (Double($0) - 2) * ($1 - mean) }.reduce(0, +) / 10
    let described = lateness.map { "\(Int($0 * 1000))" }.joined(separator: ", ")
    #expect(slope < 0.025, "lateness grows \(Int(slope * 1000)) ms a part: \(described) ms")
    #expect(
      lateness.max()! - lateness.min()! < 0.15, "lateness spreads too far: \(described) ms")
  }
}
