/// The `URLProtocol` that answers a registry's sessions; one specialisation per registry (see
/// ``ScopeTag``).
///
/// The delivery rules come from the platform notes (section 7):
/// - the client is called only on the task's own work queue: synchronously inside
///   `startLoading`, or, for answers that come later (a delay, the network, a timeout), by
///   re-entering `startLoading` with `task.suspend(); task.resume()` on Linux, and on the loading
///   thread's run loop on Darwin;
/// - `didReceive(response)` always comes first, and the body goes in one `didLoad` unless the
///   task's consumer sees chunks;
/// - nothing touches the client after completion or after a real `stopLoading`;
/// - `startLoading` never waits.
final class InterceptingProtocol<Tag: ScopeTag>: URLProtocol {
  private enum Phase {
    case idle
    case waiting
    case ready(Reply)
    case streaming(FileHandle)
    case finished
    case stopped
  }

  private struct State {
    var phase = Phase.idle
    var timers: [DispatchWorkItem] = []
    var network: URLSessionDataTask?
    /// The registry that counts this request as in flight, and its token there.
    var flight: (registry: StubRegistry, token: Int)?
    /// The journal entry to complete with the answer, and when the request arrived.
    var journalEntry: Int?
    var startedAt = Date()
    #if !canImport(FoundationNetworking)
      var runLoop: CFRunLoop?
    #endif
  }

  // Guards the delivery phase and the pending work that can still produce an answer.
  private let state = Locked(State())

  /// Bytes handed to the client per `didLoad` when streaming a file, and per visit to the work
  /// queue, so a large fixture never holds the queue every session shares for long.
  static var chunkSize: Int { 256 * 1024 }
  static var bytesPerVisit: Int { 4 * 1024 * 1024 }

  override class func canInit(with request: URLRequest) -> Bool {
    guard let scheme = request.url?.scheme?.lowercased() else { return false }
    if scheme == "http" || scheme == "https" { return true }
    if case .live(let registry) = RegistryDirectory.shared.lookup(Tag.id) {
      return registry.claims(scheme: scheme)
    }
    return false
  }

  override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

  #if canImport(FoundationNetworking)
    // URLSessionTask.cancel() calls stopLoading and then reports through the client. Once we
    // have completed the task that late call must find no client, or it reaches a task that has
    // already left the session's registry (platform notes, section 7).
    override var client: URLProtocolClient? {
      get {
        let finished = state.withLock { state in
          if case .finished = state.phase { return true }
          return false
        }
        return finished ? nil : super.client
      }
      set { super.client = newValue }
    }
  #endif

  override func startLoading() {
    let step: Step = state.withLock { state in
      switch state.phase {
      case .idle:
        state.phase = .waiting
        #if !canImport(FoundationNetworking)
          state.runLoop = CFRunLoopGetCurrent()
        #endif
        return .begin
      case .ready(let reply):
        state.phase = .finished
        for timer in state.timers { timer.cancel() }
        return .deliver(reply)
      case .streaming(let handle):
        return .stream(handle)
      case .waiting, .finished, .stopped:
        // A resume of our own re-entry that found nothing ready, or a user's suspend/resume.
        return .none
      }
    }
    switch step {
    case .begin: begin()
    case .deliver(let reply): deliver(reply)
    case .stream(let handle): continueStreaming(handle)
    case .none: break
    }
  }

  override func stopLoading() {
    #if canImport(FoundationNetworking)
      // suspend() calls stopLoading too; that is the first half of our own re-entry, not a stop.
      if task?.state == .suspended { return }
    #endif
    settle()
    let pending = state.withLock { state -> ([DispatchWorkItem], URLSessionDataTask?) in
      if case .streaming(let handle) = state.phase { try? handle.close() }
      state.phase = .stopped
      defer {
        state.timers = []
        state.network = nil
      }
      return (state.timers, state.network)
    }
    for timer in pending.0 { timer.cancel() }
    pending.1?.cancel()
  }

  private enum Step {
    case begin
    case deliver(Reply)
    case stream(FileHandle)
    case none
  }

  // MARK: Deciding

  private func begin() {
    let body = RequestBodyReader.body(of: request, task: task)
    let intercepted = InterceptedRequest(request, body: body)
    let registry: StubRegistry
    switch RegistryDirectory.shared.lookup(Tag.id) {
    case .live(let live):
      registry = live
    case .retired(let reason, let reportAsIssue):
      let message =
        "Understudy: \(intercepted) arrived after \(reason). It is not answered, so no other "
        + "test's stubs can answer it; make sure the code under test finishes its requests "
        + "before the test or registry ends."
      if reportAsIssue { IssueReporter.reportOrphaned(message) }
      finishNow(.failure(URLError.understudy(.resourceUnavailable, message, intercepted.url)))
      return
    }
    let token = registry.requestStarted(intercepted)
    let decision = registry.resolve(intercepted)
    state.withLock { state in
      state.flight = (registry, token)
      state.journalEntry = decision.entry
      state.startedAt = Date()
    }
    switch decision.resolution {
    case .unmatched(let report):
      finishNow(
        .failure(
          URLError.understudy(
            .resourceUnavailable, report.description, intercepted.url,
            underlying: UnmatchedRequestError(report: report))))
    case .respond(let response, _):
      let reply = Reply(response, for: intercepted)
      if response.delay > 0 {
        armTimeout(intercepted)
        let instance = Unchecked(self)
        schedule(after: response.delay) { instance.value.complete(reply) }
      } else {
        finishNow(reply)
      }
    case .passThrough(let rewrite):
      armTimeout(intercepted)
      let outgoing = rewrite.apply(to: intercepted)
      let instance = Unchecked(self)
      let network = PassThroughSession.send(outgoing) { reply in
        instance.value.complete(reply)
      }
      let keep = state.withLock { state -> Bool in
        guard case .waiting = state.phase else { return false }
        state.network = network
        return true
      }
      if !keep { network.cancel() }
    }
  }

  private func armTimeout(_ request: InterceptedRequest) {
    let timeout = request.timeoutInterval
    guard timeout > 0, timeout.isFinite else { return }
    let url = request.url
    let instance = Unchecked(self)
    schedule(after: timeout) {
      instance.value.complete(
        .failure(
          URLError.understudy(
            .timedOut, "Understudy: \(request) timed out after \(timeout) s", url)))
    }
  }

  private func schedule(after seconds: TimeInterval, _ work: @escaping @Sendable () -> Void) {
    let item = DispatchWorkItem(block: work)
    let armed = state.withLock { state -> Bool in
      guard case .waiting = state.phase else { return false }
      state.timers.append(item)
      return true
    }
    if armed { DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: item) }
  }

  // MARK: Delivering

  /// Called from any queue when a later answer is ready; the first answer wins.
  private func complete(_ reply: Reply) {
    let accepted = state.withLock { state -> Bool in
      guard case .waiting = state.phase else { return false }
      state.phase = .ready(reply)
      return true
    }
    if accepted { wake() }
  }

  /// Gets back onto the task's work queue, where the client may be called.
  private func wake() {
    #if canImport(FoundationNetworking)
      guard let task else { return }
      let sendableTask = Unchecked(task)
      // suspend/resume must not run on the work queue itself (platform notes 11g).
      DispatchQueue.global().async {
        sendableTask.value.suspend()
        sendableTask.value.resume()
      }
    #else
      guard let runLoop = state.withLock({ $0.runLoop }) else { return }
      let instance = Unchecked(self)
      CFRunLoopPerformBlock(runLoop, CFRunLoopMode.commonModes.rawValue) {
        instance.value.startLoading()
      }
      CFRunLoopWakeUp(runLoop)
    #endif
  }

  private func finishNow(_ reply: Reply) {
    let go = state.withLock { state -> Bool in
      guard case .waiting = state.phase else { return false }
      state.phase = .finished
      return true
    }
    if go { deliver(reply) }
  }

  /// Tells the registry this request no longer waits for an answer, and journals the answer.
  private func settle(with reply: Reply? = nil) {
    let taken = state.withLock { state in
      defer { state.flight = nil }
      return (state.flight, state.journalEntry, state.startedAt)
    }
    guard let flight = taken.0 else { return }
    if let reply, let entry = taken.1 {
      flight.registry.recordResponse(
        reply.journalResponse(duration: Date().timeIntervalSince(taken.2)), forEntry: entry)
    }
    flight.registry.requestFinished(flight.token)
  }

  /// Hands `reply` to the client. The phase is already `.finished` (or about to stream).
  private func deliver(_ reply: Reply) {
    settle(with: reply)
    guard let client = super.client else { return }
    switch reply {
    case .failure(let error):
      client.urlProtocol(self, didFailWithError: error)
    case .response(let url, let status, let headers, let body):
      switch body.storage {
      case .data(let data):
        let response = Reply.httpResponse(
          url: url, status: status, headers: headers, bodyLength: data.count)
        client.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        // Always one didLoad, even when empty: async data(for:) on Linux expects body data.
        client.urlProtocol(self, didLoad: data)
        client.urlProtocolDidFinishLoading(self)
      case .file(let fileURL):
        deliverFile(fileURL, url: url, status: status, headers: headers, client: client)
      case .unavailable(let message):
        client.urlProtocol(
          self, didFailWithError: URLError.understudy(.fileDoesNotExist, message, url))
      }
    }
  }

  private func deliverFile(
    _ fileURL: URL, url: URL, status: Int, headers: HTTPHeaders, client: URLProtocolClient
  ) {
    let size =
      (try? FileManager.default.attributesOfItem(atPath: fileURL.path)[.size] as? Int) ?? nil
    guard let handle = try? FileHandle(forReadingFrom: fileURL) else {
      client.urlProtocol(
        self,
        didFailWithError: URLError.understudy(
          .noPermissionsToReadFile, "Understudy: cannot open fixture file \(fileURL.path)", url))
      return
    }
    let response = Reply.httpResponse(url: url, status: status, headers: headers, bodyLength: size)
    client.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
    #if canImport(FoundationNetworking)
      // Async and completion-handler tasks keep only the last chunk on Linux, so they get the
      // file in one piece; they hold the whole body in memory anyway.
      guard let task, PrivateField.deliversChunks(task) else {
        let data = (try? handle.readToEnd()) ?? Data()
        try? handle.close()
        client.urlProtocol(self, didLoad: data)
        client.urlProtocolDidFinishLoading(self)
        return
      }
      let keep = state.withLock { state -> Bool in
        guard case .finished = state.phase else { return false }
        state.phase = .streaming(handle)
        return true
      }
      if keep { continueStreaming(handle) } else { try? handle.close() }
    #else
      while let chunk = try? handle.read(upToCount: Self.chunkSize), !chunk.isEmpty {
        client.urlProtocol(self, didLoad: chunk)
      }
      try? handle.close()
      client.urlProtocolDidFinishLoading(self)
    #endif
  }

  /// Sends the next part of a streamed file, then comes back for more through the work queue.
  private func continueStreaming(_ handle: FileHandle) {
    guard let client = super.client else { return }
    var sent = 0
    while sent < Self.bytesPerVisit {
      let chunk: Data
      do {
        chunk = try handle.read(upToCount: Self.chunkSize) ?? Data()
      } catch {
        finishStreaming(handle)
        client.urlProtocol(
          self,
          didFailWithError: URLError.understudy(
            .cannotDecodeContentData, "Understudy: reading fixture failed: \(error)", request.url))
        return
      }
      if chunk.isEmpty {
        finishStreaming(handle)
        client.urlProtocolDidFinishLoading(self)
        return
      }
      client.urlProtocol(self, didLoad: chunk)
      sent += chunk.count
    }
    wake()
  }

  private func finishStreaming(_ handle: FileHandle) {
    state.withLock { $0.phase = .finished }
    try? handle.close()
  }
}
