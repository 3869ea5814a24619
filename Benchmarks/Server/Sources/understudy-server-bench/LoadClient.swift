import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// The client every server is measured with: SwiftNIO in this process, `connections`
/// keep-alive connections each sending `GET /bench` again as soon as the previous answer has
/// been read (closed loop). A connection the server closes (HTTP/1.0 servers do, after each
/// answer) is opened again, so such a server pays for its reconnects.
final class LoadClient: Sendable {
  /// Its own event loops, so the client never queues behind the server's work on the same
  /// thread (they still share the machine's cores).
  static let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)

  let port: Int
  /// Answers after which the client stops, or `nil` to go on until told.
  let limit: Int?
  let answered = Atomic<Int>(0)
  let wrongAnswers = Atomic<Int>(0)
  let stopping = Atomic<Bool>(false)

  init(port: Int, limit: Int? = nil) {
    self.port = port
    self.limit = limit
  }

  /// Sends exactly `requests` requests, one after the other, on one keep-alive connection: a
  /// fixed amount of work, for counting instructions (callgrind) rather than timing.
  static func send(requests: Int, port: Int) async throws {
    let client = LoadClient(port: port, limit: requests)
    try await client.keepSending()
    if client.wrongAnswers.load(ordering: .relaxed) > 0 {
      throw BenchError(
        "port \(port) gave \(client.wrongAnswers.load(ordering: .relaxed)) wrong answers")
    }
  }

  /// Requests per second over `seconds`, after `warmUp` seconds of the same load.
  static func throughput(port: Int, connections: Int, warmUp: Double, seconds: Double)
    async throws -> Double
  {
    let client = LoadClient(port: port)
    let done = try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<connections {
        group.addTask { try await client.keepSending() }
      }
      try await Task.sleep(for: .seconds(warmUp))
      let clock = ContinuousClock()
      let before = client.answered.load(ordering: .relaxed)
      let start = clock.now
      try await Task.sleep(for: .seconds(seconds))
      let after = client.answered.load(ordering: .relaxed)
      let elapsed = clock.now - start
      client.stopping.store(true, ordering: .relaxed)
      try await group.waitForAll()
      let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      return Double(after - before) / wall
    }
    if client.wrongAnswers.load(ordering: .relaxed) > 0 {
      throw BenchError(
        "port \(port) gave \(client.wrongAnswers.load(ordering: .relaxed)) wrong answers")
    }
    return done
  }

  /// Seconds from `start` being called to the first answer a fresh connection gets.
  static func coldStart(_ start: () async throws -> Int) async throws -> Double {
    let clock = ContinuousClock()
    let began = clock.now
    let port = try await start()
    var answered = false
    while !answered {
      // A server that is still starting refuses the connection; try again at once.
      answered = (try? await LoadClient(port: port).oneAnswer()) ?? false
    }
    let elapsed = clock.now - began
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }

  /// One connection: sends one request and returns whether the canned answer came back.
  func oneAnswer() async throws -> Bool {
    stopping.store(true, ordering: .relaxed)
    try await connectAndSend()
    return answered.load(ordering: .relaxed) == 1
  }

  private func keepSending() async throws {
    while !stopping.load(ordering: .relaxed) {
      try await connectAndSend()
    }
  }

  /// Opens a connection and sends requests on it until told to stop or the server closes it.
  private func connectAndSend() async throws {
    let channel = try await ClientBootstrap(group: Self.group)
      .channelOption(.socketOption(.tcp_nodelay), value: 1)
      .channelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHTTPClientHandlers()
          try channel.pipeline.syncOperations.addHandler(Sender(client: self))
        }
      }
      .connect(host: "127.0.0.1", port: port).get()
    try await channel.closeFuture.get()
  }

  /// Sends a request when the connection opens and again after each complete answer.
  final class Sender: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    // Touched on the channel's event loop only.
    private let client: LoadClient
    private var status: HTTPResponseStatus?
    private var bytes = 0
    private var keepAlive = true

    init(client: LoadClient) {
      self.client = client
    }

    func channelActive(context: ChannelHandlerContext) {
      send(context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      switch unwrapInboundIn(data) {
      case .head(let head):
        status = head.status
        bytes = 0
        keepAlive = head.isKeepAlive
      case .body(let buffer):
        bytes += buffer.readableBytes
      case .end:
        if status == .ok && bytes == Canned.size {
          let answered = client.answered.add(1, ordering: .relaxed).newValue
          if let limit = client.limit, answered >= limit {
            client.stopping.store(true, ordering: .relaxed)
          }
        } else {
          client.wrongAnswers.add(1, ordering: .relaxed)
        }
        if client.stopping.load(ordering: .relaxed) || !keepAlive {
          context.close(promise: nil)
        } else {
          send(context)
        }
      }
    }

    private func send(_ context: ChannelHandlerContext) {
      let head = HTTPRequestHead(
        version: .http1_1, method: .GET, uri: "/bench", headers: ["Host": "127.0.0.1"])
      context.write(wrapOutboundOut(.head(head)), promise: nil)
      context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
  }
}

struct BenchError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
