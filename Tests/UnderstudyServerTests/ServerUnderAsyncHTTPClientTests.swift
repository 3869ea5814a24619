#if ClientTests
  import AsyncHTTPClient
  import Foundation
  import NIOCore
  import NIOHTTP1
  import Testing
  import Understudy
  import UnderstudyServer

  /// The server under what a suite of hundreds of tests does with AsyncHTTPClient: many servers
  /// at once, keep-alive pools, paced and delayed answers, scopes that end right after the last
  /// byte.
  @Suite struct ServerUnderAsyncHTTPClientTests {

    /// Sends a GET to `url` and reads the whole answer.
    static func get(_ url: URL, with client: HTTPClient) async throws -> (
      status: HTTPResponseStatus, body: ByteBuffer
    ) {
      let response = try await client.execute(
        HTTPClientRequest(url: url.absoluteString), timeout: .seconds(30))
      return (response.status, try await response.body.collect(upTo: 64 << 20))
    }

    /// The report's shape: rounds of eight servers, each answering twenty concurrent requests
    /// from one AsyncHTTPClient (whose pool opens up to eight keep-alive connections, and keeps
    /// one it opened too late to use), then stopped while the client still holds its pool. One
    /// stop in about a hundred used to wait for the client's idle timeout.
    @Test func everyStopReturnsAfterRoundsOfServersUnderAsyncHTTPClient() async throws {
      let rounds = 15
      let stops = try await withThrowingTaskGroup(of: [Duration?].self) { group in
        for _ in 0..<8 {
          group.addTask {
            var stops: [Duration?] = []
            for _ in 0..<rounds {
              let registry = StubRegistry()
              registry.stub(.get("/items/{id}")) { request in
                .json(["id": request.pathParameters["id"]!])
              }
              registry.stub(.get("/health"), .text("ok"))
              let server = try await registry.startServer()
              let client = HTTPClient(eventLoopGroupProvider: .singleton)
              try await withThrowingTaskGroup(of: HTTPResponseStatus.self) { requests in
                for index in 0..<20 {
                  let path = index.isMultiple(of: 2) ? "health" : "items/\(index)"
                  requests.addTask {
                    try await Self.get(server.baseURL.appending(path: path), with: client).status
                  }
                }
                for try await status in requests { #expect(status == .ok) }
              }
              stops.append(
                await ServerStopTests.duration(of: { await server.stop() }, within: .seconds(5)))
              try await client.shutdown()
            }
            return stops
          }
        }
        return try await group.reduce(into: []) { $0 += $1 }
      }
      #expect(stops.count == 8 * rounds)
      let hung = stops.filter { $0 == nil }.count
      #expect(hung == 0, "\(hung) of \(stops.count) stops had not returned 5 s later")
      let slowest = stops.compactMap { $0 }.max() ?? .zero
      #expect(slowest < .seconds(2), "the slowest stop took \(slowest)")
    }

    /// A scope that ends right after the client read the last byte of a paced answer (whose
    /// last part used to be followed by one more pause before the answer counted as sent) or a
    /// delayed one finds nothing in flight: each round ends its scope at once.
    @Test(arguments: ["throttled", "delayed", "bodyDelayed"])
    func aFullyReadAnswerIsNeverInFlightAtTheScopesEnd(_ kind: String) async throws {
      let client = HTTPClient(eventLoopGroupProvider: .singleton)
      var reported: [String] = []
      for _ in 0..<10 {
        let registry = StubRegistry()
        // 10,000 bytes at 100,000 bytes a second: two parts of 5,000, 50 ms apart.
        let video = StubResponse.data(Data(repeating: 7, count: 10_000))
        let response =
          switch kind {
          case "throttled": video.throttled(bytesPerSecond: 100_000)
          case "delayed": video.delayed(by: 0.05)
          default: video.bodyDelayed(by: 0.05)
          }
        registry.stub(.get("/video"), response)
        let server = try await registry.startServer()
        let answer = try await Self.get(server.baseURL.appending(path: "video"), with: client)
        #expect(answer.body.readableBytes == 10_000)
        reported += registry.endScope(testName: "round", location: registry.location).map(\.message)
        #expect(registry.journal.first?.response?.status == 200)
      }
      try await client.shutdown()
      #expect(reported == [])
    }

    /// A request whose answer is still 30 s away when the scope ends is reported, its
    /// connection is closed (the client gets an error, not the answer), and the scope's end
    /// does not wait for it.
    @Test func aRequestStillWaitingWhenTheScopeEndsIsReportedAndCut() async throws {
      let registry = StubRegistry()
      registry.stub(.get("/slow"), StubResponse.text("late").delayed(by: 30))
      let server = try await registry.startServer()
      let client = HTTPClient(eventLoopGroupProvider: .singleton)
      let started = ContinuousClock.now
      let request = Task {
        try await Self.get(server.baseURL.appending(path: "slow"), with: client)
      }
      while registry.journal.isEmpty, ContinuousClock.now - started < .seconds(10) {
        try await Task.sleep(for: .milliseconds(10))
      }
      let failures = registry.endScope(testName: "waitsForSlow()", location: registry.location)
      let answer = await request.result
      try await client.shutdown()
      #expect(
        failures.map(\.message) == [
          "GET http://127.0.0.1:\(server.port)/slow was still waiting for its answer when "
            + "waitsForSlow() ended. Await every request the test starts (or cancel it) before "
            + "the test returns; answers that arrive now are not delivered to a later test."
        ])
      #expect(throws: (any Error).self) { try answer.get() }
      #expect(ContinuousClock.now - started < .seconds(10))
    }

    /// A paced answer whose client is still reading when the scope ends is reported as such.
    @Test func anAnswerStillBeingReadWhenTheScopeEndsIsReported() async throws {
      let registry = StubRegistry()
      registry.stub(
        .get("/video"),
        StubResponse.data(Data(repeating: 7, count: 100_000)).throttled(bytesPerSecond: 20_000))
      let server = try await registry.startServer()
      let client = HTTPClient(eventLoopGroupProvider: .singleton)
      let response = try await client.execute(
        HTTPClientRequest(url: server.baseURL.appending(path: "video").absoluteString),
        timeout: .seconds(30))
      let failures = registry.endScope(testName: "watchesVideo()", location: registry.location)
      _ = try? await response.body.collect(upTo: 1 << 20)
      try await client.shutdown()
      #expect(failures.count == 1)
      #expect(
        failures.first?.message.hasPrefix(
          "GET http://127.0.0.1:\(server.port)/video was still receiving its response body when "
            + "watchesVideo() ended.") == true, "\(failures.map(\.message))")
    }
  }
#endif
