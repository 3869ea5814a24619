/// One request a loopback server (the UnderstudyServer module) received, answered by the
/// registry exactly as an intercepted request is: the same matching, responders, sequences,
/// scenarios, latency, cassettes, pass-through, journal and near-miss reports.
///
/// The server owns the socket; this owns everything else, so the server never reaches into the
/// registry. What differs from the `URLProtocol` path is only what a real server does differently:
/// redirects go back to the client (which follows them, through the server again), a stubbed
/// error closes the connection, and a request no stub matches gets a `404` whose body is the
/// near-miss report.
package final class ServedExchange: @unchecked Sendable {
  // Written only by `serve`, before the exchange is handed to the server; the body is then read
  // by the one task that writes the response.

  /// The status line's code; meaningless when ``dropsConnection``.
  package private(set) var status = 200
  /// The response's header fields, with a `Content-Length` when the length is known and the body
  /// is not streamed.
  package private(set) var headers = HTTPHeaders()
  /// The body, part by part; `nil` for none (`HEAD`, or a dropped connection) and for a
  /// ``cannedBody``.
  package private(set) var body: ServedBody?
  /// The whole body, when it goes out at once with nothing to wait for or cut short: the server
  /// writes it as it is, with no copy into parts.
  package private(set) var cannedBody: Data?
  /// Seconds to wait before the first body byte (`bodyDelayed(by:)`).
  package private(set) var bodyDelay: TimeInterval = 0
  /// Why the connection closes without an answer: a stubbed error, said in the server's own
  /// terms (a real server's only way to fail a request is to hang up).
  package private(set) var dropsConnection: String?
  /// Whether writing the body waits (`bodyDelayed(by:)`, throttling, a streamed body) or reads
  /// a fixture file: the server then writes it from a task, never from its event loop.
  package private(set) var waitsInBody = false
  /// The conversation to hold once the server has switched the connection to WebSocket: set
  /// (with status `101`) when a WebSocket stub matched an upgrade request.
  package private(set) var webSocket: WebSocketConversation?

  private let registry: StubRegistry
  private var flight: (entry: Int, startedAt: Date)?
  private var journalResponse: JournalEntry.Response?
  /// Where a decision user code makes arrives; set, before that code runs, only when it does.
  private var later: FirstValue<StubRegistry.Decision>?
  /// Whether the answer's bytes started going out (``start()``), and whether its request left
  /// flight (``finish()``, ``cut(leavingFlight:)``).
  private let progress = Locked((started: false, done: false))

  private init(registry: StubRegistry) {
    self.registry = registry
  }

  /// How the registry answers a request: at once, or after something has to be waited for.
  package enum Answer: Sendable {
    /// Decided: the server can start writing it from its event loop (unless ``waitsInBody``).
    case now(ServedExchange)
    /// A responder or custom matcher (user code, run off the caller's thread), latency or the
    /// network has to be waited for: await it from a task. Cancelling that task cancels an async
    /// responder.
    case later(@Sendable () async -> ServedExchange)
  }

  /// Answers `request` from `registry` without waiting when it can: canned stubs, replayed
  /// cassette entries and near-miss reports are decided here and now, on the caller's thread,
  /// which never runs user code. `origin` is the server's own base URL, which a pass-through must
  /// never be sent back to.
  package static func answer(
    _ request: InterceptedRequest, by registry: StubRegistry, origin: URL
  ) -> Answer {
    let exchange = ServedExchange(registry: registry)
    // The server holds `registry`, so it is never deallocated here: only an ended scope retires
    // it, and the registry knows that itself.
    if let (reason, reportAt) = registry.scopeState.withLock({ $0.retirement }) {
      let message =
        "Understudy: \(request) arrived at the loopback server after \(reason). It is not "
        + "answered, so no other test's stubs can answer it; make sure the code under test "
        + "finishes its requests before the test or registry ends."
      if let reportAt { IssueReporter.reportOrphaned(message, at: reportAt) }
      exchange.setText(503, message, for: request)
      return .now(exchange)
    }
    let startedAt = Date()
    var run: UserCodeRun?
    let decided = registry.answer(
      request, startsFlight: true, deferringReports: true,
      userCode: { _ in
        // Only a decision user code makes arrives later, and the registry asks for the run
        // before that code can decide: the common canned answer never builds the mailbox.
        exchange.later = FirstValue()
        let started = UserCodeRun()
        run = started
        return started
      }, later: { exchange.later?.settle($0) })
    if let decided {
      exchange.flight = (decided.entry, startedAt)
      if exchange.settle(decided, for: request, origin: origin) { return .now(exchange) }
    }
    return .later { [run, later = exchange.later] in
      var decision: StubRegistry.Decision
      if let decided {
        decision = decided
      } else if let later {
        decision = await withTaskCancellationHandler {
          await later.value
        } onCancel: {
          run?.cancel()
        }
        exchange.flight = (decision.entry, startedAt)
      } else {
        // The registry gave no decision and asked for no user code: it never does.
        exchange.setText(500, "Understudy: \(request) was left unanswered", for: request)
        return exchange
      }
      await exchange.settleLater(decision, for: request, origin: origin)
      return exchange
    }
  }

  /// Answers `request` from `registry`, waiting for whatever the answer needs.
  package static func serve(
    _ request: InterceptedRequest, by registry: StubRegistry, origin: URL
  ) async -> ServedExchange {
    switch answer(request, by: registry, origin: origin) {
    case .now(let exchange): return exchange
    case .later(let exchange): return await exchange()
    }
  }

  /// Sets the answer `decision` gives when nothing has to be waited for; returns whether it did.
  private func settle(
    _ decision: StubRegistry.Decision, for request: InterceptedRequest, origin: URL
  ) -> Bool {
    switch decision.resolution {
    case .unmatched(let report):
      // The report masks credentials itself (LogRedaction), as it does for the console.
      setText(404, report.description, for: request)
    case .respondLater, .replayLater:
      // `answer(_:startsFlight:userCode:later:)` runs the responder before it hands a
      // decision over; this is never the final decision.
      setText(500, "Understudy: \(request) was left unanswered", for: request)
    case .respond(let response):
      guard response.delay <= 0 else { return false }
      set(response, for: request)
    case .passThrough(let rewrite, _):
      guard let url = rewrite.apply(to: request).url, url.port == origin.port,
        ["127.0.0.1", "localhost", "::1", origin.host].contains(url.host)
      else { return false }
      setText(
        508,
        "Understudy: \(request) would pass through to "
          + "\(LogRedaction.mask(url: url.absoluteString)), this loopback server itself. Give "
          + "PassThrough a baseURL (the real server), or stub the request.",
        for: request)
    }
    return true
  }

  /// Sets the answer `decision` gives, waiting for its latency or the network.
  private func settleLater(
    _ decision: StubRegistry.Decision, for request: InterceptedRequest, origin: URL
  ) async {
    switch decision.resolution {
    case .respond(let response) where response.delay > 0:
      try? await Task.sleep(for: .wait(seconds: response.delay))
      set(response, for: request)
    case .passThrough(let rewrite, let recording)
    where !settle(decision, for: request, origin: origin):
      let reply = await Self.passThrough(
        rewrite.apply(to: request), for: request, recording: recording)
      set(reply, for: request)
    default:
      _ = settle(decision, for: request, origin: origin)
    }
  }

  /// Sends `outgoing` to the network as the `URLProtocol` path does, recording or comparing it
  /// against the cassette.
  private static func passThrough(
    _ outgoing: URLRequest, for request: InterceptedRequest, recording: StubRegistry.Recording?
  ) async -> Reply {
    await withCheckedContinuation { continuation in
      let sentAt = Date()
      _ = PassThroughSession.send(outgoing) { reply in
        recording?.keep(reply, for: request, sentAt: sentAt)
        guard case .response(var http) = reply else { return continuation.resume(returning: reply) }
        // URLSession hands the body over decoded and whole: the upstream's framing (gzip, its
        // compressed length, chunking) no longer describes it, and the server sends its own.
        for name in ["Content-Encoding", "Content-Length", "Transfer-Encoding"] {
          http.headers[name] = nil
        }
        continuation.resume(returning: .response(http))
      }
    }
  }

  private func set(_ response: StubResponse, for request: InterceptedRequest) {
    if let conversation = response.webSocket, Self.asksForWebSocket(request) {
      // The server completes the handshake (Sec-WebSocket-Accept, Upgrade, Connection).
      status = 101
      webSocket = conversation
      journalResponse = JournalEntry.Response(
        status: 101, headers: ["Upgrade": "websocket", "Connection": "Upgrade"], body: nil,
        error: nil, duration: 0)
      return
    }
    if case .http(_, _, let responseBody) = response.outcome, let problem = responseBody.problem {
      // The stub's declaration was already reported; the client gets the reason, not a hang-up.
      return setText(500, "Understudy: cannot serve \(request): \(problem)", for: request)
    }
    if case .http(let status, let headers, let body) = response.outcome,
      case .data(let data) = body.storage, response.bodyDelay == 0,
      response.bytesPerSecond == nil, response.chunks == nil, response.dropAfterBytes == nil
    {
      // A canned answer, the common case: what the reply below would give, without building
      // the reply (its URL, pacing and cache) and taking it apart again for every request.
      journalResponse = JournalEntry.Response(
        status: status, headers: headers, body: data, error: nil, duration: 0)
      self.status = status
      self.headers = response.responseCache.headers(framing: data.count) {
        Self.framing(headers, length: data.count)
      }
      if request.method != "HEAD" { cannedBody = data }
      return
    }
    set(Reply(response, for: request), for: request)
  }

  /// `headers` announcing a body of `length` bytes, unless they frame it already.
  private static func framing(_ headers: HTTPHeaders, length: Int) -> HTTPHeaders {
    guard !headers.contains("Content-Length"), !headers.contains("Transfer-Encoding") else {
      return headers
    }
    var framed = headers
    framed.add(name: "Content-Length", value: String(length))
    return framed
  }

  private func set(_ reply: Reply, for request: InterceptedRequest) {
    journalResponse = reply.journalResponse(duration: 0)
    switch reply {
    case .failure(let error):
      dropsConnection = error.localizedDescription
    case .response(let http):
      status = http.status
      headers = http.headers
      bodyDelay = http.bodyDelay
      waitsInBody = http.bodyDelay > 0 || http.bytesPerSecond != nil || http.chunks != nil
      if case .file = http.body.storage { waitsInBody = true }
      let source: BodySender.Source
      let length: Int?
      do {
        (source, length) = try BodySender.Source.opening(http.body)
      } catch {
        return setText(500, error.message, for: request)
      }
      // A streamed body has no length up front, as with a real server sending events.
      if http.chunks == nil, let length { headers = Self.framing(headers, length: length) }
      if case .data(let data, _) = source, !waitsInBody, http.dropAfterBytes == nil {
        if request.method != "HEAD" { cannedBody = data }
        return
      }
      let sender = BodySender(
        source: source, bytesPerSecond: http.bytesPerSecond, dropAfterBytes: http.dropAfterBytes,
        chunks: http.chunks, deliversChunks: true, url: http.url)
      if request.method == "HEAD" {
        sender.close()
      } else {
        body = ServedBody(sender)
      }
    }
  }

  /// Whether `request` asks to switch to the WebSocket protocol (`Upgrade: websocket`).
  package static func asksForWebSocket(_ request: InterceptedRequest) -> Bool {
    request.headers.values(for: "Upgrade").contains {
      $0.split(separator: ",").contains {
        $0.trimmingCharacters(in: .whitespaces).lowercased() == "websocket"
      }
    }
  }

  private func setText(_ status: Int, _ text: String, for request: InterceptedRequest) {
    // The client under test may log the answer: a text quoting the request is masked as a
    // report is, whoever wrote it.
    let data = Data(LogRedaction.mask(text).utf8)
    self.status = status
    headers = [
      "Content-Type": "text/plain; charset=utf-8", "Content-Length": String(data.count),
    ]
    body =
      request.method == "HEAD"
      ? nil
      : ServedBody(
        BodySender(
          source: .data(data, offset: 0), bytesPerSecond: nil, dropAfterBytes: nil,
          deliversChunks: true, url: request.url))
    journalResponse = JournalEntry.Response(
      status: status, headers: headers, body: data, error: nil, duration: 0)
  }

  /// Journals the answer the client is about to receive and notes its bytes on their way: call
  /// it before writing the answer's head, or the whole answer at once. A test that has the
  /// answer finds it in the journal, while the request stays in flight until ``finish()``.
  /// Later calls do nothing.
  package func start() {
    let first = progress.withLock { progress in
      defer { progress.started = true }
      return !progress.started && !progress.done
    }
    guard first, let flight else { return }
    registry.startBody(
      ofFlight: flight.entry, response: response(since: flight), forEntry: flight.entry)
  }

  /// Ends the request's flight, journaling what the client received: call it once the last byte
  /// of the answer was written to the socket, from the event loop that wrote it (a scope's end
  /// waits for those loops, so what a client has is never counted in flight). Later calls do
  /// nothing.
  package func finish() {
    end(leavingFlight: false)
  }

  /// The answer was cut short: the client hung up, or the server closed the connection. A
  /// server that is stopping leaves the request in flight, so the end of the scope reports that
  /// it never got its whole answer; a client that hung up ends it. Later calls do nothing.
  package func cut(leavingFlight: Bool) {
    end(leavingFlight: leavingFlight)
  }

  private func end(leavingFlight: Bool) {
    let first = progress.withLock { progress in
      defer { progress.done = true }
      return !progress.done
    }
    guard first else { return }
    body?.close()
    guard let flight, !leavingFlight else { return }
    registry.finish(flight: flight.entry, response: response(since: flight), forEntry: flight.entry)
  }

  private func response(since flight: (entry: Int, startedAt: Date)) -> JournalEntry.Response? {
    var response = journalResponse
    response?.duration = Date().timeIntervalSince(flight.startedAt)
    return response
  }
}

/// A response body going out in parts: paced, sliced, streamed or cut short as the stub says.
package final class ServedBody: @unchecked Sendable {
  // Used by one task at a time: the one writing the response.
  private let sender: BodySender
  /// The part after the one last handed out, read early to see whether the body ends there.
  private var ahead: BodySender.Step?

  init(_ sender: BodySender) {
    self.sender = sender
  }

  /// The next part to write.
  package enum Step {
    /// Write the bytes, wait the seconds, ask again.
    case send(Data, thenAfter: TimeInterval)
    /// Write the bytes (maybe none) and end the response.
    case finish(Data)
    /// Write the bytes (maybe none) and drop the connection, for the reason given.
    case drop(Data, String)
  }

  /// Seconds before the first part of a streamed body.
  package var initialDelay: TimeInterval { sender.initialDelay }

  /// The next part.
  package func next() -> Step {
    let step = ahead ?? sender.next()
    ahead = nil
    // A paced body's last bytes are followed by one more wait before its end, while a client
    // that knows the length has them all already and its test may end: the end goes with them.
    if case .send(let data, let delay) = step, delay > 0 {
      let following = sender.next()
      if case .finish(let rest) = following, rest.isEmpty { return .finish(data) }
      ahead = following
    }
    switch step {
    case .send(let data, let delay): return .send(data, thenAfter: delay)
    case .finish(let data): return .finish(data)
    case .fail(let data, let error): return .drop(data, error.localizedDescription)
    }
  }

  func close() {
    sender.close()
  }
}
