import Testing

@testable import Understudy

/// Strict means strict for every scheme: a TCP canary on loopback counts the connections that
/// requests through strict sessions open, and must see none, whatever the scheme.
@Suite struct SchemeCanaryTests {
  /// How a request ended, or `nil` when it had not ended after `seconds` (a refused request must
  /// fail at once; this only keeps a regression from hanging the run).
  private static func outcome(
    within seconds: Double = 20, _ request: @escaping @Sendable () async throws -> Data
  ) async -> Result<Data, any Error>? {
    let settled = Locked(false)
    return await withCheckedContinuation { continuation in
      func settle(_ value: Result<Data, any Error>?) {
        let first = settled.withLock { done -> Bool in
          defer { done = true }
          return !done
        }
        if first { continuation.resume(returning: value) }
      }
      Task.detached {
        do { settle(.success(try await request())) } catch { settle(.failure(error)) }
      }
      Task.detached {
        try? await Task.sleep(for: .seconds(seconds))
        settle(nil)
      }
    }
  }

  /// Expects `request` to fail promptly with Understudy's refusal for `scheme`.
  private static func expectRefused(
    _ scheme: String, sourceLocation: Testing.SourceLocation = #_sourceLocation,
    _ request: @escaping @Sendable () async throws -> Data
  ) async {
    switch await outcome(request) {
    case nil:
      Issue.record("the \(scheme) request hung", sourceLocation: sourceLocation)
    case .success:
      Issue.record("the \(scheme) request succeeded", sourceLocation: sourceLocation)
    case .failure(let failure):
      // Delegate tasks hand their error over wrapped.
      let error = (failure as? DelegateFailure)?.error ?? failure
      let described = (error as? URLError).map { $0.localizedDescription } ?? "\(error)"
      #expect(error is URLError, sourceLocation: sourceLocation)
      if scheme != "http" {
        #expect(
          described.contains("refused this \(scheme):// request"), "\(described)",
          sourceLocation: sourceLocation)
      }
    }
  }

  @Test(arguments: ["ftp", "ftps", "ws", "wss", "http", "FTP"])
  func noSchemeOpensAConnectionFromAStrictSession(scheme: String) async throws {
    let canary = try TCPCanary()
    defer { canary.stop() }
    let url = URL(string: "\(scheme)://127.0.0.1:\(canary.port)/x")!
    let registry = StubRegistry()
    let session = registry.makeSession()
    await Self.expectRefused(scheme.lowercased()) { try await session.data(from: url).0 }
    await Self.expectRefused(scheme.lowercased()) {
      try await withCheckedThrowingContinuation { continuation in
        session.dataTask(with: url) { data, _, error in
          if let error {
            continuation.resume(throwing: error)
          } else {
            continuation.resume(returning: data ?? Data())
          }
        }.resume()
      }
    }
    await Self.expectRefused(scheme.lowercased()) {
      var upload = URLRequest(url: url)
      upload.httpMethod = "PUT"
      return try await session.upload(for: upload, from: Data("x".utf8)).0
    }
    let delegate = CollectingDelegate()
    await Self.expectRefused(scheme.lowercased()) {
      registry.makeSession(delegate: delegate).dataTask(with: url).resume()
      return try await delegate.result().body
    }
    #expect(try await canary.connections() == 0)
    // The refusal is also the test's failure, naming the request.
    let failures = registry.endScope(testName: "canary", location: SourceLocation())
    #expect(
      failures.contains { failure in
        failure.message.contains("127.0.0.1:\(canary.port)/x")
          && (scheme == "http" || failure.message.contains("refused this"))
      })
  }

  /// Cassettes and the pass-through policy serve http(s) only: other schemes stay refused.
  @Test func neitherThePassThroughPolicyNorACassetteOpensAnFTPConnection() async throws {
    let canary = try TCPCanary()
    defer { canary.stop() }
    let url = URL(string: "ftp://127.0.0.1:\(canary.port)/x")!
    let passing = StubRegistry(unmatchedRequests: .passThrough)
    await Self.expectRefused("ftp") { try await passing.makeSession().data(from: url).0 }
    let recording = StubRegistry()
    let cassette = Cassette(
      at: FileManager.default.temporaryDirectory.appendingPathComponent("ftp-\(UUID()).har"),
      mode: .all)
    recording.use(cassette)
    await Self.expectRefused("ftp") { try await recording.makeSession().data(from: url).0 }
    #expect(try await canary.connections() == 0)
    #expect(cassette.finish().isEmpty)
    #expect(try HAR.load(contentsOf: cassette.url).log.entries.isEmpty)
  }

  @Test func aStubThatNamesTheSchemeAnswersIt() async throws {
    let canary = try TCPCanary()
    defer { canary.stop() }
    let registry = StubRegistry()
    registry.stub(.url("ftp://127.0.0.1:\(canary.port)/x"), .text("from the stub"))
    let url = URL(string: "ftp://127.0.0.1:\(canary.port)/x")!
    let (data, _) = try await registry.makeSession().data(from: url)
    #expect(String(decoding: data, as: UTF8.self) == "from the stub")
    #expect(try await canary.connections() == 0)
  }

  #if canImport(FoundationNetworking)
    /// WebSocket tasks never reach a URL protocol; on this toolchain FoundationNetworking fails
    /// them itself (its libcurl has no WebSocket support). Should a toolchain ever connect, this
    /// says so.
    @Test func aWebSocketTaskFromAStrictSessionOpensNoConnection() async throws {
      let canary = try TCPCanary()
      defer { canary.stop() }
      let session = StubRegistry().makeSession()
      let task = session.webSocketTask(with: URL(string: "ws://127.0.0.1:\(canary.port)/x")!)
      task.resume()
      let result = await Self.outcome {
        _ = try await task.receive()
        return Data()
      }
      #expect(result != nil, "the WebSocket task hung")
      if case .success = result { Issue.record("the WebSocket task received a message") }
      #expect(try await canary.connections() == 0)
    }

    /// The canary does count connections: a session without Understudy opens one for http and
    /// for ftp on Linux, which is what strict sessions prevent.
    @Test func aPlainSessionReachesTheCanary() async throws {
      let canary = try TCPCanary()
      defer { canary.stop() }
      let session = URLSession(configuration: .ephemeral)
      for scheme in ["http", "ftp"] {
        _ = await Self.outcome {
          try await session.data(from: URL(string: "\(scheme)://127.0.0.1:\(canary.port)/x")!).0
        }
      }
      #expect(try await canary.connections() == 2)
    }
  #endif

  @Test func theSharedSessionRefusesFTPToo() async throws {
    try #require(SharedSessionInterception.install() == .active)
    let canary = try TCPCanary()
    defer { canary.stop() }
    let url = URL(string: "ftp://127.0.0.1:\(canary.port)/x")!
    let registry = StubRegistry()
    await SharedSessionLock.shared.acquire()
    await SharedSessionInterception.withOwner(registry) {
      await Self.expectRefused("ftp") { try await URLSession.shared.data(from: url).0 }
    }
    await SharedSessionLock.shared.release()
    #expect(try await canary.connections() == 0)
    let failures = registry.endScope(testName: "canary", location: SourceLocation())
    #expect(failures.contains { $0.message.contains("refused this ftp:// request") })
  }
}
