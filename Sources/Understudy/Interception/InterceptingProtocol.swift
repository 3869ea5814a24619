/// The `URLProtocol` that answers a registry's sessions. Each registry's sessions use a subclass
/// that only names the registry (``TaggedInterceptingProtocol``, see ``ScopeTag``); everything
/// else lives here, outside the generic subclass, so the per-request path runs as ordinary
/// compiled code rather than unspecialised generic code that looks up type metadata at run time.
///
/// The delivery rules come from the platform notes (section 7):
/// - the client is called only on the task's own work queue: synchronously inside
///   `startLoading`, or, for answers that come later (a delay, the network, a timeout, a paced
///   body), by re-entering `startLoading` with `task.suspend(); task.resume()` on Linux, and on the
///   loading thread's run loop on Darwin;
/// - `didReceive(response)` always comes first, and the body goes in one `didLoad` unless the
///   task's consumer sees chunks;
/// - nothing touches the client after completion or after a real `stopLoading`;
/// - `startLoading` never waits.
class InterceptingProtocol: URLProtocol {
  /// The identifier of the registry this class answers for; subclasses name it.
  class var registryID: Int { 0 }

  private enum Phase {
    case idle
    /// Deciding: a delay, the network or a redirect decision is pending.
    case waiting
    /// An answer is ready for the work queue. This case and the redirect are held by reference:
    /// only answers that come later take them, and inline they made every phase as large as a
    /// reply, copied by code each request runs cold.
    indirect case ready(Reply)
    /// A redirect waits for the task delegate's decision, which is asked on the work queue.
    indirect case redirect(RedirectQuestion)
    /// The response is out; the body is going out in parts (`due` when the next part may go).
    case sending(BodySender, due: Bool)
    case finished
    case stopped
  }

  private struct State {
    var phase = Phase.idle
    var timers: [DispatchWorkItem] = []
    var timeoutsArmed = false
    /// The request timeout restarts whenever bytes move, as URLSession's idle timeout does.
    var idleTimer: DispatchWorkItem?
    var idleTimeout: TimeInterval = 0
    var network: URLSessionDataTask?
    /// The closures the user wrote that decide the answer, while they run.
    var userCode: (run: UserCodeRun, registry: StubRegistry)?
    /// A failure (a timeout) that arrived while the body was going out.
    var pendingFailure: (any Error & Sendable)?
    /// The registry that counts this request as in flight, and the entry it is noted under.
    var flight: (registry: StubRegistry, entry: Int)?
    /// The journal entry of the current hop, to complete with its answer.
    var journalEntry: Int?
    /// Set when the first hop is resolved; a clock read per protocol instance is not free.
    var startedAt = Date.distantPast
    /// Read on the work queue the first time an answer needs them (a delay, a redirect,
    /// cookies, a paced body); immediate answers never pay for the reflection it takes. Under
    /// the lock: a quick closure's answer can arrive from its own thread just as the work queue,
    /// done waiting for it, reads them.
    var readFacts: SessionFacts?
    #if !canImport(FoundationNetworking)
      var runLoop: CFRunLoop?
    #endif
  }

  // Guards the delivery phase and the pending work that can still produce an answer. Both
  // stored properties are `final`, so their accessors take no slot in the table of methods
  // every minted subclass copies (see the extension below).
  private final let state = Locked(State())

  override class func canInit(with request: URLRequest) -> Bool {
    guard let scheme = request.url?.scheme?.lowercased() else { return false }
    // Declined, these would reach the network through a built-in handler, even in strict mode.
    if NetworkSchemes.claimed.contains(scheme) { return true }
    if case .live(let registry) = RegistryDirectory.shared.lookup(registryID) {
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
        state.phase = .waiting
        return .deliver(reply)
      case .redirect(let question):
        state.phase = .waiting
        return .ask(question)
      case .sending(let sender, true):
        state.phase = .sending(sender, due: false)
        if let failure = state.pendingFailure {
          state.pendingFailure = nil
          state.phase = .finished
          return .abort(sender, failure, Self.takeFlight(&state))
        }
        return .send(sender)
      case .sending, .waiting, .finished, .stopped:
        // A resume of our own re-entry with nothing due, or a user's suspend/resume.
        return .none
      }
    }
    switch step {
    case .begin: begin()
    case .deliver(let reply): deliver(reply)
    case .ask(let question): ask(question)
    case .send(let sender): send(sender)
    case .abort(let sender, let error, let flight):
      sender.close()
      cancelTimers()
      Self.end(flight)
      super.client?.urlProtocol(self, didFailWithError: error)
    case .none: break
    }
  }

  override func stopLoading() {
    #if canImport(FoundationNetworking)
      // suspend() calls stopLoading too; that is the first half of our own re-entry, not a stop.
      if task?.state == .suspended { return }
    #endif
    let (settlement, network, timers) = state.withLock { state in
      if case .sending(let sender, _) = state.phase { sender.close() }
      // Once stopped, nothing arms a new timer, so the ones cancelled below are all there are.
      state.phase = .stopped
      defer { state.network = nil }
      return (Self.takeSettlement(&state), state.network, Self.takeTimers(&state))
    }
    settle(settlement)
    for timer in timers { timer.cancel() }
    if let network { Self.cancelLater(network) }
    // Cancelling a task runs its cancellation handlers here and now, and an async responder
    // awaiting a request of its own cancels that request's URLSessionTask, which waits for the
    // work queue this runs on: a crash (`__DISPATCH_WAIT_FOR_QUEUE__`).
    guard let task = state.withLock({ $0.userCode })?.run.markCancelled() else { return }
    #if canImport(FoundationNetworking)
      // An invalidated session cancels every task it has, the responder's own requests on it
      // too, and their cancels complete on the work queue while this one runs. Cancelling the
      // responder as well deadlocked the process (swift-corelibs-foundation #5412, fixed in
      // 6.4): the Swift task's cancel holds its status lock while URLSession waits for the work
      // queue, where the same task's request completes and wants that lock. The responder then
      // ends with its requests' cancellation; its answer is not used either way.
      if let urlTask = self.task, PrivateField.sessionIsInvalidated(urlTask) { return }
    #endif
    EngineQueue.async { task.cancel() }
  }
}

// The rest is in an extension, where methods take no slot in the class's table of methods: every
// registry mints a subclass, whose metadata copies that table and lives as long as the process.
extension InterceptingProtocol {
  /// The session facts. Off the work queue they can only be what was read on it before (the
  /// field they come from is written there); unread, they are empty.
  private func facts(onWorkQueue: Bool) -> SessionFacts {
    if let read = state.withLock({ $0.readFacts }) { return read }
    guard onWorkQueue else { return SessionFacts() }
    let read = SessionFacts(task: task)
    return state.withLock { state in
      if let earlier = state.readFacts { return earlier }
      state.readFacts = read
      return read
    }
  }

  /// Cancels a pass-through task from another queue: every URLSession work queue targets one
  /// process-wide serial queue, and `cancel()` waits on it, so cancelling from a work queue (in
  /// `stopLoading`, say) would wait on itself.
  private static func cancelLater(_ network: URLSessionDataTask) {
    let task = Unchecked(network)
    EngineQueue.async { task.value.cancel() }
  }

  private enum Step {
    case begin
    // Held by reference for the reason the phase holds its answer so.
    indirect case deliver(Reply)
    indirect case ask(RedirectQuestion)
    case send(BodySender)
    case abort(BodySender, any Error & Sendable, (registry: StubRegistry, entry: Int)?)
    case none
  }

  // MARK: Deciding

  private func begin() {
    #if canImport(FoundationNetworking)
      // FoundationNetworking hands over a cached answer only to sessions with a cache, which
      // only a registry that caches responses makes; the lookup costs nothing otherwise.
      if ResponseCaching.inUse.current,
        cachedResponse != nil || request.cachePolicy == .returnCacheDataDontLoad,
        let cache = registryCache, answeredFromCache(cache)
      {
        return
      }
    #endif
    let source = RequestBodyReader.source(of: request, task: task)
    #if canImport(FoundationNetworking)
      // A body stream is the test's own code, and every session's work queue targets one serial
      // queue: a stream that blocked while read here stalled every test in the process, past
      // its own request's timeout. It is read on a thread of its own, with the timeouts armed.
      if source.mayBlock {
        _ = facts(onWorkQueue: true)
        armTimeouts(for: InterceptedRequest(request))
        let instance = Unchecked(self)
        let request = self.request
        // Only this thread reads the stream from here on.
        let unread = Unchecked(source)
        DispatchQueue(label: "Understudy request body").async {
          // A stream that never ends is read only while its request waits; a request that
          // ended meanwhile was answered with its timeout or cancel and is not decided again.
          let read = unread.value.read { instance.value.isWaiting }
          guard instance.value.isWaiting else { return }
          instance.value.decide(read, for: request, onWorkQueue: false)
        }
        return
      }
    #endif
    decide(source.read { true }, for: request, onWorkQueue: true)
  }

  /// Decides on a request whose body was read, or fails it when its body could not be read.
  private func decide(_ read: RequestBodyReader.Read, for request: URLRequest, onWorkQueue: Bool) {
    if let failure = read.failure {
      let message =
        "Understudy: the body of \(InterceptedRequest(request)) could not be read: \(failure); "
        + "a server would not have received the whole body, so the request fails instead of "
        + "being answered."
      return finalize(
        .failure(
          URLError.understudy(.cannotLoadFromNetwork, message, for: InterceptedRequest(request))),
        onWorkQueue: onWorkQueue)
    }
    decide(InterceptedRequest(request, body: read.body), onWorkQueue: onWorkQueue)
  }

  /// Finds the registry and resolves the request, now that its body is read.
  private func decide(_ intercepted: InterceptedRequest, onWorkQueue: Bool) {
    let registry: StubRegistry
    switch RegistryDirectory.shared.lookup(type(of: self).registryID) {
    case .live(let live):
      registry = live
    case .retired(let reason, let reportLocation):
      let message =
        "Understudy: \(intercepted) arrived after \(reason). It is not answered, so no other "
        + "test's stubs can answer it; make sure the code under test finishes its requests "
        + "before the test or registry ends."
      if let reportLocation { IssueReporter.reportOrphaned(message, at: reportLocation) }
      finalize(
        .failure(URLError.understudy(.resourceUnavailable, message, for: intercepted)),
        onWorkQueue: onWorkQueue)
      return
    }
    #if canImport(FoundationNetworking)
      if task is URLSessionDownloadTask {
        finalize(.failure(DownloadTasks.unsupported(intercepted.url)), onWorkQueue: onWorkQueue)
        return
      }
    #endif
    runHop(intercepted, registry, hops: 0, onWorkQueue: onWorkQueue)
  }

  /// Resolves one request of the exchange (the first, or one a redirect led to).
  private func runHop(
    _ request: InterceptedRequest, _ registry: StubRegistry, hops: Int, onWorkQueue: Bool
  ) {
    let startsFlight = hops == 0
    let startedAt = startsFlight ? Date() : .distantPast
    let instance = Unchecked(self)
    let decided = registry.answer(
      request, startsFlight: startsFlight, waitingBriefly: onWorkQueue,
      userCode: { entry in
        startUserCode(
          for: request, entry: entry, registry, startsFlight: startsFlight, startedAt: startedAt,
          onWorkQueue: onWorkQueue)
      },
      later: { decision in
        instance.value.proceed(
          decision, request, registry, hops: hops, startedAt: startedAt, onWorkQueue: false)
      })
    if let decided {
      proceed(
        decided, request, registry, hops: hops, startedAt: startedAt, onWorkQueue: onWorkQueue)
    } else if onWorkQueue {
      // A closure the user wrote is still deciding, past the hand-off's patience: its answer
      // comes back later, and the request's timeouts run meanwhile. Armed only now, since
      // reading the session's facts costs a reflection of the task, which a quick closure
      // answered without (issue 41).
      _ = facts(onWorkQueue: true)
      armTimeouts(for: request)
    }
  }

  /// Prepares for a closure the user wrote to decide the answer: it runs off the work queue while
  /// the request's timeouts run, so the answer comes back later, through the re-entry path, or
  /// at once when the closure is quick (``UserCodeHandOff``; on the work queue the timeouts are
  /// armed once the hand-off stops waiting). `entry` is the journal entry of the request when a
  /// stub was chosen already, so the request counts as in flight while its responder runs.
  private func startUserCode(
    for request: InterceptedRequest, entry: Int?, _ registry: StubRegistry, startsFlight: Bool,
    startedAt: Date, onWorkQueue: Bool
  ) -> UserCodeRun {
    let run = UserCodeRun()
    state.withLock { state in
      state.userCode = (run, registry)
      if let entry {
        state.journalEntry = entry
        if startsFlight {
          state.flight = (registry, entry)
          state.startedAt = startedAt
        }
      }
    }
    if !onWorkQueue { armTimeouts(for: request) }
    return run
  }

  /// Acts on the registry's decision for one hop.
  private func proceed(
    _ decision: StubRegistry.Decision, _ request: InterceptedRequest, _ registry: StubRegistry,
    hops: Int, startedAt: Date, onWorkQueue: Bool
  ) {
    let startsFlight = hops == 0
    let current = state.withLock { state -> Bool in
      // A decision that took user code may arrive after the exchange ended (a timeout), here
      // too when the work queue waited for a quick closure (UserCodeHandOff).
      guard case .waiting = state.phase else { return false }
      state.journalEntry = decision.entry
      if startsFlight {
        state.flight = (registry, decision.entry)
        state.startedAt = startedAt
      }
      return true
    }
    guard current else {
      if startsFlight {
        let ended = JournalEntry.Response(
          status: nil, headers: [:], body: nil,
          error: "the request had ended (timed out or cancelled) when its answer was decided",
          duration: Date().timeIntervalSince(startedAt))
        registry.finish(flight: decision.entry, response: ended, forEntry: decision.entry)
      }
      return
    }
    switch decision.resolution {
    case .unmatched(let report):
      finalize(
        .failure(
          URLError.understudy(
            .resourceUnavailable, registry.errorMessage(for: report), for: request,
            cassette: registry.cassette?.compiledRedaction,
            hiding: registry.cassette?.valuesAtPlaceholders(of: request) ?? [],
            underlying: UnmatchedRequestError(report: report))),
        onWorkQueue: onWorkQueue)
    case .respondLater, .replayLater:
      // The registry runs the responder before deciding; it never hands this on.
      break
    case .respond(let response):
      let reply = Reply(response, for: request)
      if response.delay > 0 {
        _ = facts(onWorkQueue: onWorkQueue)
        armTimeouts(for: request)
        let instance = WeakUnchecked(self)
        schedule(after: response.delay) {
          instance.value?.conclude(reply, for: request, registry, hops: hops, onWorkQueue: false)
        }
      } else {
        conclude(reply, for: request, registry, hops: hops, onWorkQueue: onWorkQueue)
      }
    case .passThrough(let rewrite, let recording):
      _ = facts(onWorkQueue: onWorkQueue)
      armTimeouts(for: request)
      let instance = Unchecked(self)
      // Creating a task on any session waits on the one queue every URLSession work queue
      // targets, so it cannot happen here, on a work queue; nor can the rewrite's transform,
      // which is user code. A queue of its own gets a thread even when every other is blocked.
      DispatchQueue(label: "Understudy pass-through").async {
        // Nothing reaches the network for a request that ended (a timeout, a cancel) before
        // this queue ran, or while the rewrite, which is user code, did.
        guard instance.value.isWaiting else { return }
        let outgoing = rewrite.apply(to: request)
        guard instance.value.isWaiting else { return }
        let sentAt = Date()
        let network = PassThroughSession.send(outgoing) { reply in
          instance.value.state.withLock { $0.network = nil }
          recording?.keep(reply, for: request, sentAt: sentAt)
          instance.value.conclude(reply, for: request, registry, hops: hops, onWorkQueue: false)
        }
        let keep = instance.value.state.withLock { state -> Bool in
          guard case .waiting = state.phase else { return false }
          state.network = network
          return true
        }
        if !keep { network.cancel() }
      }
    }
  }

  /// Follows a redirect inside the protocol (Linux), or hands the answer on.
  private func conclude(
    _ reply: Reply, for request: InterceptedRequest, _ registry: StubRegistry, hops: Int,
    onWorkQueue: Bool
  ) {
    #if canImport(FoundationNetworking)
      // FoundationNetworking's wasRedirectedTo is a fatal error (platform notes, row 5a), so the
      // redirect is followed here, through the same registry, as URLSession would follow it.
      if case .response(let http) = reply,
        var next = Redirect.nextRequest(after: http, for: request)
      {
        guard hops < Redirect.maximumHops else {
          finalize(
            .failure(
              URLError.understudy(
                .httpTooManyRedirects,
                "Understudy: more than \(Redirect.maximumHops) redirects, the last to \(next.url!)",
                for: request)),
            onWorkQueue: onWorkQueue)
          return
        }
        let entry = state.withLock { $0.journalEntry }
        if let entry {
          registry.recordResponse(reply.journalResponse(duration: 0), forEntry: entry)
        }
        let facts = facts(onWorkQueue: onWorkQueue)
        facts.storeCookies(from: http.headers, for: http.url)
        facts.addCookies(to: &next)
        let question = RedirectQuestion(
          reply: reply, redirect: http, next: next, registry: registry, hops: hops)
        // Whether a delegate is asked is read from the task, which is read on the work queue
        // only: an answer that came later is parked and decided there.
        if onWorkQueue {
          ask(question)
        } else {
          armTimeouts(for: request)
          let parked = state.withLock { state -> Bool in
            guard case .waiting = state.phase else { return false }
            state.phase = .redirect(question)
            return true
          }
          if parked { wake() }
        }
        return
      }
    #endif
    finalize(reply, onWorkQueue: onWorkQueue)
  }

  /// Goes on to the redirect's target, or delivers the redirect itself when it was declined.
  private func follow(
    _ chosen: URLRequest?, instead reply: Reply, _ registry: StubRegistry, hops: Int,
    onWorkQueue: Bool
  ) {
    guard let chosen else { return finalize(reply, onWorkQueue: onWorkQueue) }
    // A delegate may answer after the task was cancelled; the next hop must then not be asked.
    guard onWorkQueue || isWaiting else { return }
    runHop(InterceptedRequest(chosen), registry, hops: hops + 1, onWorkQueue: onWorkQueue)
  }

  /// Asks the task's (or session's) delegate whether to follow a redirect, on the session's
  /// delegate queue, where URLSession asks. The task and its session are read here, on the
  /// work queue (FoundationNetworking's task fields may only be read there; platform notes,
  /// row 5c), and the answer comes back through the re-entry path. Asked on the work queue, a
  /// delegate that blocked stalled every session in the process, and one that started a task
  /// crashed it.
  private func ask(_ question: RedirectQuestion) {
    guard let task, let delegate = task.delegate,
      let session = facts(onWorkQueue: true).session
    else {
      return follow(
        question.next, instead: question.reply, question.registry, hops: question.hops,
        onWorkQueue: true)
    }
    armTimeouts(for: InterceptedRequest(question.next))
    let instance = WeakUnchecked(self)
    let asked = Unchecked((delegate, session, task))
    let answered = Locked(false)
    session.delegateQueue.addOperation {
      let (delegate, session, task) = asked.value
      delegate.urlSession(
        session, task: task,
        willPerformHTTPRedirection: question.redirect.httpResponse(bodyLength: nil),
        newRequest: question.next
      ) { chosen in
        // A completion handler called twice is answered once, as URLSession answers it.
        let first = answered.withLock { already -> Bool in
          defer { already = true }
          return !already
        }
        guard first else { return }
        instance.value?.follow(
          chosen, instead: question.reply, question.registry, hops: question.hops,
          onWorkQueue: false)
      }
    }
  }

  /// Whether the exchange still waits for its answer: not ended by a timeout, a cancel or an
  /// answer.
  private var isWaiting: Bool {
    state.withLock { state in
      if case .waiting = state.phase { true } else { false }
    }
  }

  /// Hands the final answer on: now when on the work queue, else by waking it.
  private func finalize(_ reply: Reply, onWorkQueue: Bool) {
    if onWorkQueue { return deliver(reply) }
    let accepted = state.withLock { state -> Bool in
      guard case .waiting = state.phase else { return false }
      state.phase = .ready(reply)
      return true
    }
    if accepted { wake() }
  }

  // MARK: Timers

  /// Arms the idle and resource timeouts once the answer stops being immediate; immediate
  /// answers, the common case, never pay for timers.
  private func armTimeouts(for request: InterceptedRequest) {
    let first = state.withLock { state -> Bool in
      defer { state.timeoutsArmed = true }
      return !state.timeoutsArmed
    }
    guard first else { return }
    // Timeouts are armed on the work queue, or after an earlier step there read the facts.
    let facts = facts(onWorkQueue: false)
    let idle = facts.idleTimeout(for: request)
    state.withLock { $0.idleTimeout = idle }
    restartIdleTimer()
    if let resource = facts.timeoutForResource, resource < idle, resource > 0 {
      let instance = WeakUnchecked(self)
      let url = self.request.url
      schedule(after: resource) {
        instance.value?.timedOut(
          "Understudy: \(url?.absoluteString ?? "request") timed out after "
            + "\(resource) s (the session's timeoutIntervalForResource)", after: resource)
      }
    }
  }

  /// Starts the request timeout over, when it is armed.
  private func restartIdleTimer() {
    let instance = WeakUnchecked(self)
    let url = request.url
    let (previous, seconds) = state.withLock { state in
      (state.idleTimer, state.timeoutsArmed ? state.idleTimeout : 0)
    }
    previous?.cancel()
    guard seconds > 0, seconds.isFinite else { return }
    let item = DispatchWorkItem {
      instance.value?.timedOut(
        "Understudy: \(url?.absoluteString ?? "request") timed out: nothing arrived for "
          + "\(seconds) s (the request's timeoutInterval, or the session's "
          + "timeoutIntervalForRequest)", after: seconds)
    }
    let armed = state.withLock { state -> Bool in
      switch state.phase {
      case .finished, .stopped: return false
      default:
        state.idleTimer = item
        return true
      }
    }
    if armed { EngineQueue.after(seconds, execute: item) }
  }

  /// Runs `work` after `seconds` unless the exchange ended first.
  ///
  /// A cancelled `DispatchWorkItem` still holds its closure until its deadline passes, and the
  /// timers here are a request's timeout (60 s unless set) or a stub's delay (an hour in some
  /// tests): a closure that held this protocol kept it, the session facts it read, and so the
  /// session with its libcurl handle (a socket pair) open that long after the exchange ended.
  /// Over a parallel test run that was a thousand descriptors. The closures given here and to
  /// the idle timer hold the protocol weakly: while the exchange lasts, its task holds it.
  private func schedule(after seconds: TimeInterval, _ work: @escaping @Sendable () -> Void) {
    let item = DispatchWorkItem(block: work)
    let armed = state.withLock { state -> Bool in
      switch state.phase {
      case .finished, .stopped: return false
      default:
        state.timers.append(item)
        return true
      }
    }
    if armed { EngineQueue.after(seconds, execute: item) }
  }

  private func cancelTimers() {
    for timer in state.withLock(Self.takeTimers) { timer.cancel() }
  }

  private static func takeTimers(_ state: inout State) -> [DispatchWorkItem] {
    // Immediate answers arm no timers; skip building an array for them.
    if state.timers.isEmpty && state.idleTimer == nil { return [] }
    defer {
      state.timers = []
      state.idleTimer = nil
    }
    return state.timers + (state.idleTimer.map { [$0] } ?? [])
  }

  /// Fails the exchange with `URLError(.timedOut)` from any queue. A closure the user wrote that
  /// is still deciding the answer is named in the error; an async responder is cancelled, and a
  /// synchronous closure, which nothing can stop, is reported at its line if it runs on: it
  /// overran its request.
  private func timedOut(_ message: String, after seconds: TimeInterval) {
    let url = request.url
    let timedOut = InterceptedRequest(request)
    guard let (run, registry) = state.withLock({ $0.userCode }), let running = run.running else {
      return fail(URLError.understudy(.timedOut, message, for: timedOut))
    }
    // Failed first: the cancelled responder's own answer must find the exchange decided.
    fail(
      URLError.understudy(
        .timedOut, message + "; \(running.closure.name) was still running", for: timedOut))
    run.cancel()
    guard !run.isAsync else { return }
    let grace = UserCodeRun.overrunGrace
    EngineQueue.after(grace) {
      guard let still = run.running, still.closure.name == running.closure.name else { return }
      registry.reportUserCodeFailure(
        ScopeFailure(
          message:
            "Understudy: \(still.closure.name) ran for more than \(seconds + grace) s, past the "
            + "\(seconds) s timeout of \(url?.absoluteString ?? "its request"), which failed "
            + "with URLError(.timedOut) while it ran. Answer within the request's timeout, "
            + "use .delayed(by:) to simulate a slow server, or make the responder async so the "
            + "timeout can cancel it.",
          location: still.closure.location ?? registry.location))
    }
  }

  /// Fails the exchange from any queue, whatever stage it is in (a timeout, say).
  private func fail(_ error: any Error & Sendable) {
    let wakeNeeded = state.withLock { state -> Bool in
      switch state.phase {
      case .waiting:
        state.phase = .ready(.failure(error))
        if let network = state.network { Self.cancelLater(network) }
        state.network = nil
        return true
      case .sending(let sender, _):
        state.pendingFailure = error
        state.phase = .sending(sender, due: true)
        return true
      default:
        return false
      }
    }
    if wakeNeeded { wake() }
  }

  /// The next part of a paced or sliced body is due.
  private func bodyPartDue() {
    let wakeNeeded = state.withLock { state -> Bool in
      guard case .sending(let sender, false) = state.phase else { return false }
      state.phase = .sending(sender, due: true)
      return true
    }
    if wakeNeeded { wake() }
  }

  /// Gets back onto the task's work queue, where the client may be called.
  private func wake() {
    #if canImport(FoundationNetworking)
      guard let task else { return }
      let sendableTask = Unchecked(task)
      // suspend/resume must not run on the work queue itself (platform notes 11g).
      EngineQueue.inTurn {
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

  // MARK: Delivering (on the work queue)

  /// What the registry needs to hear when the exchange ends, or when its response is out and
  /// its body still to come.
  private struct Settlement {
    let flight: (registry: StubRegistry, entry: Int)?
    let journalEntry: Int?
    let startedAt: Date
    /// The body is still to come: the request stays in flight until it ends.
    var bodyToCome = false
  }

  /// Takes the exchange's bookkeeping out of `state`, so it is settled exactly once; the flight
  /// stays when the body is still to come, for the end of the body to settle.
  private static func takeSettlement(_ state: inout State, bodyToCome: Bool = false) -> Settlement {
    defer { if !bodyToCome { state.flight = nil } }
    return Settlement(
      flight: state.flight, journalEntry: state.journalEntry, startedAt: state.startedAt,
      bodyToCome: bodyToCome)
  }

  /// Tells the registry this request no longer waits for an answer, or has its response and
  /// waits for its body, and journals the answer.
  private func settle(_ settlement: Settlement, with reply: Reply? = nil) {
    guard let flight = settlement.flight else { return }
    let response = reply?.journalResponse(
      duration: Date().timeIntervalSince(settlement.startedAt))
    if settlement.bodyToCome {
      flight.registry.startBody(
        ofFlight: flight.entry, response: response, forEntry: settlement.journalEntry)
    } else {
      flight.registry.finish(
        flight: flight.entry, response: response, forEntry: settlement.journalEntry)
    }
  }

  /// The flight a streamed body kept open, taken so it ends once.
  private static func takeFlight(_ state: inout State) -> (registry: StubRegistry, entry: Int)? {
    defer { state.flight = nil }
    return state.flight
  }

  /// Tells the registry a request whose body was still to come is done with.
  private static func end(_ flight: (registry: StubRegistry, entry: Int)?) {
    guard let flight else { return }
    flight.registry.finish(flight: flight.entry, response: nil, forEntry: nil)
  }

  /// The registry's cache, when it ``StubRegistry/cachesResponses``.
  private var registryCache: URLCache? {
    guard case .live(let registry) = RegistryDirectory.shared.lookup(type(of: self).registryID)
    else { return nil }
    return registry.urlCache
  }

  #if canImport(FoundationNetworking)
    /// Answers from what FoundationNetworking found in the session's cache, when the request's
    /// cache policy takes it (``ResponseCaching``), without asking a stub, as the URL loading
    /// system does on Apple platforms; or fails a request that may only be answered from the
    /// cache and was not. Says whether it answered.
    private func answeredFromCache(_ cache: URLCache) -> Bool {
      let client = super.client
      if let cached = cachedResponse, ResponseCaching.answers(request, with: cached) {
        markFinished()
        client?.urlProtocol(self, didReceive: cached.response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: cached.data)
        client?.urlProtocolDidFinishLoading(self)
        return true
      }
      guard request.cachePolicy == .returnCacheDataDontLoad else { return false }
      markFinished()
      let uncached = InterceptedRequest(request)
      client?.urlProtocol(
        self,
        didFailWithError: URLError.understudy(
          .resourceUnavailable,
          "Understudy: \(uncached) may only be answered from the cache "
            + "(returnCacheDataDontLoad), and the registry's cache (cachesResponses) holds no answer for it",
          for: uncached))
      return true
    }
  #endif

  private func markFinished() {
    let (timers, flight) = state.withLock { state in
      state.phase = .finished
      return (Self.takeTimers(&state), Self.takeFlight(&state))
    }
    for timer in timers { timer.cancel() }
    Self.end(flight)
  }

  /// Hands `reply` to the client; on the work queue, while the exchange is still waiting for it.
  private func deliver(_ reply: Reply) {
    let bodyToCome = bodyIsStreamed(reply)
    let settlement = state.withLock { state -> Settlement? in
      guard case .waiting = state.phase else { return nil }
      return Self.takeSettlement(&state, bodyToCome: bodyToCome)
    }
    guard let settlement else { return }
    settle(settlement, with: reply)
    guard let client = super.client else {
      if bodyToCome { Self.end(state.withLock(Self.takeFlight)) }
      return
    }
    switch reply {
    case .failure(let error):
      markFinished()
      client.urlProtocol(self, didFailWithError: error)
    case .response(let http):
      #if !canImport(FoundationNetworking)
        if let next = Redirect.nextRequest(after: http, for: InterceptedRequest(request)) {
          markFinished()
          client.urlProtocol(
            self, wasRedirectedTo: next, redirectResponse: http.httpResponse(bodyLength: nil))
          return
        }
      #endif
      if http.headers.contains("Set-Cookie") {
        facts(onWorkQueue: true).storeCookies(from: http.headers, for: http.url)
      }
      startResponse(http, client)
    }
  }

  /// Whether `reply`'s body goes out after its response, in parts or later (paced, delayed, or
  /// read from a file), so the request is still in flight while it does.
  private func bodyIsStreamed(_ reply: Reply) -> Bool {
    guard case .response(let http) = reply, request.httpMethod != "HEAD" else { return false }
    switch http.body.storage {
    case .unavailable: return false
    case .data: return !http.isImmediate
    case .file: return true
    }
  }

  private func startResponse(_ reply: HTTPReply, _ client: URLProtocolClient) {
    let source: BodySender.Source
    let length: Int?
    do {
      (source, length) = try BodySender.Source.opening(reply.body)
    } catch {
      markFinished()
      client.urlProtocol(
        self, didFailWithError: URLError.understudy(error.code, error.message, reply.url))
      return
    }
    let response = reply.httpResponse(bodyLength: length)
    let cache =
      ResponseCaching.inUse.current && ResponseCaching.mayStore(reply, for: request)
      ? registryCache : nil
    #if canImport(FoundationNetworking)
      // FoundationNetworking stores nothing a protocol of ours marks cacheable (platform notes,
      // row 10a), and `.allowed` only makes it copy the body: the answer is stored below.
      let policy = URLCache.StoragePolicy.notAllowed
    #else
      let policy: URLCache.StoragePolicy = cache == nil ? .notAllowed : .allowed
    #endif
    client.urlProtocol(self, didReceive: response, cacheStoragePolicy: policy)
    if request.httpMethod == "HEAD" {
      if case .file(let handle) = source { try? handle.close() }
      markFinished()
      client.urlProtocol(self, didLoad: Data())
      client.urlProtocolDidFinishLoading(self)
      return
    }
    if reply.isImmediate, case .data(let data, _) = source {
      #if canImport(FoundationNetworking)
        if let cache, let copy = ResponseCaching.cachedCopy(of: response, body: data) {
          cache.storeCachedResponse(copy, for: request)
        }
      #endif
      markFinished()
      // Always one didLoad, even when empty: async data(for:) on Linux expects body data.
      client.urlProtocol(self, didLoad: data)
      client.urlProtocolDidFinishLoading(self)
      return
    }
    let sender = BodySender(
      source: source, bytesPerSecond: reply.bytesPerSecond, dropAfterBytes: reply.dropAfterBytes,
      chunks: reply.chunks, deliversChunks: deliversChunks, url: reply.url)
    state.withLock { $0.phase = .sending(sender, due: false) }
    let firstDelay = reply.bodyDelay + sender.initialDelay
    if firstDelay > 0 || reply.bytesPerSecond != nil || reply.chunks != nil {
      _ = facts(onWorkQueue: true)
      armTimeouts(for: InterceptedRequest(request))
    }
    if firstDelay > 0 {
      let instance = WeakUnchecked(self)
      schedule(after: sender.wait(after: firstDelay)) { instance.value?.bodyPartDue() }
    } else {
      send(sender)
    }
  }

  /// Whether the task's consumer sees each `didLoad`; on Linux only session-delegate tasks do.
  private var deliversChunks: Bool {
    #if canImport(FoundationNetworking)
      guard let task else { return false }
      return PrivateField.deliversChunks(task)
    #else
      return true
    #endif
  }

  private func send(_ sender: BodySender) {
    guard let client = super.client else { return }
    switch sender.next() {
    case .send(let data, let delay):
      if !data.isEmpty { client.urlProtocol(self, didLoad: data) }
      restartIdleTimer()
      let instance = WeakUnchecked(self)
      let wait = sender.wait(after: delay)
      if wait > 0 {
        schedule(after: wait) { instance.value?.bodyPartDue() }
      } else {
        EngineQueue.async { instance.value?.bodyPartDue() }
      }
    case .finish(let data):
      sender.close()
      markFinished()
      if !data.isEmpty || !sender.deliversChunks { client.urlProtocol(self, didLoad: data) }
      client.urlProtocolDidFinishLoading(self)
    case .fail(let data, let error):
      sender.close()
      markFinished()
      if !data.isEmpty { client.urlProtocol(self, didLoad: data) }
      client.urlProtocol(self, didFailWithError: error)
    }
  }
}

#if canImport(FoundationNetworking)
  /// Download tasks cannot be served by any custom protocol on Linux.
  enum DownloadTasks {
    static func unsupported(_ url: URL) -> URLError {
      URLError.understudy(
        .unsupportedURL,
        "Understudy: download tasks cannot be stubbed on Linux. FoundationNetworking 6.3 crashes "
          + "or delivers no file for every download task answered by a custom URLProtocol "
          + "(swift-corelibs-foundation issues 5465 and 3367). Use a data task "
          + "(`session.data(for:)`) and write the data to a file yourself; download tasks are "
          + "served on Darwin.",
        url)
    }
  }
#endif
