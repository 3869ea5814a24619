/// The stubs a set of sessions answers from, and the journal of what those sessions asked.
///
/// Create one per test (or let a test scope create it), declare stubs, and hand the code under
/// test a session from ``makeSession(configuration:delegate:delegateQueue:)``:
///
/// ```swift
/// let registry = StubRegistry()
/// registry.stub(.get("https://api.example.com/users/{id}")) { request in
///   .json(["id": request.pathParameters["id"]!])
/// }
/// let client = APIClient(session: registry.makeSession())
/// ```
///
/// **Precedence.** When several stubs match, the one registered last answers (so a test can
/// override a general stub declared earlier); a stub that is used up steps aside for the next.
///
/// Registries are thread-safe. Sessions made from a registry only ever consult that registry, so
/// tests running in parallel with their own registries never see each other's stubs.
public final class StubRegistry: Sendable {
  private struct Table {
    var routes = RouteIndex()
    var schemes = Set<String>()
    var nextOrder = 0
    /// How many stubs have a custom matcher; while any does, a request no stub matches inline
    /// is resolved off the work queue, since its near-miss report runs every matcher.
    var userCodePatterns = 0
    /// Whether ``pause()`` took the stubs out of answering.
    var isPaused = false
  }

  // Guards the stubs and the index over them.
  private let table = Locked(Table())
  // Guards the journal, the requests in flight and the streams watching the journal.
  let journalStorage: Locked<RequestJournal>
  // Guards what the registry keeps besides its stubs and journal (``ScopeState``).
  let scopeState: Locked<ScopeState>

  var reportsStragglersToSwiftTesting: Bool {
    get { scopeState.withLock { $0.reportsStragglers } }
    set { scopeState.withLock { $0.reportsStragglers = newValue } }
  }
  /// Where the registry was created, named in reports about requests that outlive it.
  package let location: SourceLocation
  /// How many requests the journal and each stub keep; `nil` for all.
  let journalCapacity: Int?
  /// The identity sessions use to find this registry.
  let id: Int

  /// Creates an empty registry.
  ///
  /// - Parameters:
  ///   - unmatchedRequests: What to do with requests no stub matches; failing them is the default.
  ///   - journalCapacity: How many requests the journal keeps (oldest dropped first); `nil` keeps
  ///     them all. It bounds each stub's ``Stub/requests`` too. Long benchmarks and soak tests set
  ///     a bound (`0` keeps none), so memory stays flat however many requests they send.
  ///   - fileID: The `#fileID` of the caller; reports about requests that outlive the registry
  ///     name this place. Leave the default.
  ///   - filePath: The `#filePath` of the caller; leave the default.
  ///   - line: The line of the caller; leave the default.
  ///   - column: The column of the caller; leave the default.
  public init(
    unmatchedRequests: UnmatchedRequestPolicy = .fail, journalCapacity: Int? = nil,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
    column: Int = #column
  ) {
    // A negative capacity keeps none, as 0 does, and says so where the registry was made.
    let capacity = journalCapacity.map { max(0, $0) }
    self.scopeState = Locked(ScopeState(policy: unmatchedRequests))
    self.journalStorage = Locked(RequestJournal(capacity: capacity))
    self.journalCapacity = capacity
    self.location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    self.id = RegistryDirectory.shared.allocateID()
    RegistryDirectory.shared.register(self)
    if let journalCapacity, journalCapacity < 0 {
      IssueReporter.report(
        "journalCapacity \(journalCapacity) is negative, so the journal keeps no requests; pass "
          + "0 to keep none, a positive number to keep the newest, or nil to keep them all.",
        at: location)
    }
  }

  deinit {
    finishJournalWatchers()
    RegistryDirectory.shared.retire(id, reason: .deallocated(createdAt: location))
  }

  /// What happens to requests no stub matches.
  public var unmatchedRequests: UnmatchedRequestPolicy {
    get { scopeState.withLock { $0.policy } }
    set { scopeState.withLock { $0.policy = newValue } }
  }

  /// Whether the registry's sessions cache the answers HTTP lets a cache keep; off by default.
  ///
  /// On, sessions made afterwards (``makeSession(configuration:delegate:delegateQueue:)``) share
  /// an in-memory `URLCache` of this registry's alone, with the protocol's cache policy, as a
  /// session from `.default` uses `URLCache.shared`: a `GET` answered `200` with
  /// `Cache-Control: max-age=N` (and no `no-store`) is kept, and answers again without asking
  /// any stub while it is fresh, or whenever the request's `cachePolicy` says to use cached
  /// data (Mocker's `cacheStoragePolicy`). A request answered from the cache is not journaled.
  /// Off, and on again, starts an empty cache.
  ///
  /// ```swift
  /// registry.cachesResponses = true
  /// registry.stub(.get("/catalog"), .text("v1").header("Cache-Control", "max-age=3600"))
  /// ```
  ///
  /// On Linux FoundationNetworking never caches a custom protocol's answers, so Understudy
  /// keeps and serves them itself; on Apple platforms the URL loading system does.
  public var cachesResponses: Bool {
    get { urlCache != nil }
    set {
      scopeState.withLock { state in
        guard newValue != (state.urlCache != nil) else { return }
        state.urlCache = newValue ? Self.makeCache() : nil
      }
      if newValue { ResponseCaching.inUse.withLock { $0 = true } }
    }
  }

  /// The cache ``cachesResponses`` gives the registry's sessions, or `nil`.
  var urlCache: URLCache? { scopeState.withLock { $0.urlCache } }

  private static func makeCache() -> URLCache {
    #if canImport(FoundationNetworking)
      URLCache(memoryCapacity: 16 << 20, diskCapacity: 0, diskPath: nil)
    #else
      URLCache(memoryCapacity: 16 << 20, diskCapacity: 0)
    #endif
  }

  // MARK: Declaring stubs

  /// Answers requests matching `pattern` with `response`.
  @discardableResult
  public func stub(
    _ pattern: RequestPattern, _ response: StubResponse, limit: StubLimit = .unlimited,
    name: String? = nil, scenario: ScenarioStep? = nil, fileID: String = #fileID,
    filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) -> Stub {
    add(
      pattern, .fixed(response), limit: limit, name: name, scenario: scenario,
      SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Answers requests matching `pattern` with the responses in order, one each; the stub is used
  /// up after the last.
  @discardableResult
  public func stub(
    _ pattern: RequestPattern, sequence responses: [StubResponse], name: String? = nil,
    scenario: ScenarioStep? = nil, fileID: String = #fileID, filePath: String = #filePath,
    line: Int = #line, column: Int = #column
  ) -> Stub {
    add(
      pattern, .sequence(responses), limit: .times(responses.count), name: name,
      scenario: scenario,
      SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Answers requests matching `pattern` with whatever `respond` returns for the request.
  ///
  /// The request carries its body and the values path templates captured, in
  /// ``InterceptedRequest/pathParameters``. `respond` runs on a thread of its own, never on a
  /// URLSession queue, so it may block or send requests of its own; the request's timeouts still
  /// hold while it runs. A thrown `URLError` fails the request with that error; any other error
  /// fails it with a ``ResponderError`` naming the stub, and the test scope reports it at this
  /// line.
  @discardableResult
  public func stub(
    _ pattern: RequestPattern, limit: StubLimit = .unlimited, name: String? = nil,
    scenario: ScenarioStep? = nil, fileID: String = #fileID, filePath: String = #filePath,
    line: Int = #line, column: Int = #column,
    respond: @escaping @Sendable (InterceptedRequest) throws -> StubResponse
  ) -> Stub {
    add(
      pattern, .dynamic(respond), limit: limit, name: name, scenario: scenario,
      SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Answers requests matching `pattern` with whatever the async `respond` returns for the
  /// request: it may call actors, await fixture builders or `try await Task.sleep(for:)`.
  ///
  /// It runs in a task of its own, never on a URLSession queue, and cancelling the request (or
  /// its timeout) cancels that task. A thrown `URLError` fails the request with that error; any
  /// other error fails it with a ``ResponderError`` naming the stub, and the test scope reports
  /// it at this line.
  @discardableResult
  public func stub(
    _ pattern: RequestPattern, limit: StubLimit = .unlimited, name: String? = nil,
    scenario: ScenarioStep? = nil, fileID: String = #fileID, filePath: String = #filePath,
    line: Int = #line, column: Int = #column,
    respond: @escaping @Sendable (InterceptedRequest) async throws -> StubResponse
  ) -> Stub {
    add(
      pattern, .asynchronous(respond), limit: limit, name: name, scenario: scenario,
      SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  private func add(
    _ pattern: RequestPattern, _ responder: Stub.Responder, limit: StubLimit, name: String?,
    scenario: ScenarioStep?, _ location: SourceLocation
  ) -> Stub {
    let stub = table.withLock { table in
      let stub = Stub(
        pattern: pattern, responder: responder, limit: limit, name: name, scenario: scenario,
        location: location, order: table.nextOrder, requestCapacity: journalCapacity)
      table.nextOrder += 1
      table.routes.add(stub)
      if pattern.runsUserCode { table.userCodePatterns += 1 }
      table.schemes.formUnion(pattern.schemes)
      return stub
    }
    for problem in stub.problems {
      IssueReporter.report(
        "Stub \(stub.pattern) cannot answer as declared: \(problem)", at: location)
    }
    return stub
  }

  /// Removes one stub; requests it would have answered go to the next matching stub.
  public func remove(_ stub: Stub) {
    table.withLock { table in
      guard table.routes.all.contains(where: { $0 === stub }) else { return }
      table.routes.remove(stub)
      if stub.pattern.runsUserCode { table.userCodePatterns -= 1 }
    }
  }

  /// Removes every stub. The journal is kept.
  public func removeAllStubs() {
    table.withLock { table in
      let (next, paused) = (table.nextOrder, table.isPaused)
      table = Table()
      table.nextOrder = next
      table.isPaused = paused
    }
  }

  /// The registered stubs, in registration order.
  public var stubs: [Stub] { table.withLock { $0.routes.all } }

  // MARK: Pausing and looking up

  /// Stops the stubs and the cassette answering, without removing them (Hippolyte's `pause()`):
  /// until ``resume()``, every request is handled as one no stub matched, so it fails with a
  /// report saying the registry is paused, or passes through when ``unmatchedRequests`` says
  /// so. The journal still records each request.
  public func pause() {
    table.withLock { $0.isPaused = true }
  }

  /// Lets the stubs and the cassette answer again after ``pause()``; limits and scenario states
  /// are where they were.
  public func resume() {
    table.withLock { $0.isPaused = false }
  }

  /// Whether ``pause()`` was called without a ``resume()`` since.
  package var isPaused: Bool { table.withLock { $0.isPaused } }

  /// The stub that would answer `request` now, or `nil` when none would (or the registry is
  /// paused), as Hippolyte's `response(for:)` finds it: the same precedence, limits and scenario
  /// states as a real request, but nothing is used up or journaled. Custom matchers run on the
  /// caller's thread.
  ///
  /// ```swift
  /// let stub = registry.stub(answering: URLRequest(url: URL(string: "https://api.test/users/7")!))
  /// ```
  public func stub(answering request: URLRequest) -> Stub? {
    let intercepted = InterceptedRequest(request, body: request.httpBody)
    let (candidates, isPaused) = table.withLock {
      ($0.routes.candidates(for: intercepted), $0.isPaused)
    }
    if isPaused { return nil }
    var probe = intercepted
    if probe.body != nil { probe.jsonCache = ParsedJSONBodyCache() }
    let states = scopeState.withLock { $0.scenarioStates }
    for stub in candidates where !stub.isExhausted {
      if let step = stub.scenario, let required = step.requiredState,
        required != states[step.scenario] ?? ScenarioStep.initialState
      {
        continue
      }
      if stub.match(probe) != nil { return stub }
    }
    return nil
  }

  // MARK: The journal

  /// Every intercepted request and what became of it, in arrival order.
  ///
  /// Each entry's ``JournalEntry/description`` masks the values every entry of this list holds,
  /// not only its own: a test prints its journal once its requests are made, and a token in an
  /// earlier request's path may be named only by a later one (`{"token": …}`).
  public var journal: [JournalEntry] {
    JournalNeighbours.linking(journalStorage.withLock { $0.entries })
  }

  /// The intercepted requests, in arrival order.
  public var requests: [InterceptedRequest] { journal.map(\.request) }

  /// Near-miss reports of the requests no stub matched, in arrival order.
  package var unmatchedReports: [NearMissReport] {
    // A scope's end asks for these; when no request went unmatched, the journal is not copied.
    guard journalStorage.withLock({ $0.mayHoldUnmatched }) else { return [] }
    return journal.compactMap { entry in
      if case .unmatched(let report) = entry.outcome { return report }
      return nil
    }
  }

  /// Empties the journal.
  public func clearJournal() {
    journalStorage.withLock { $0.removeAll() }
  }

  /// Stores what the caller received for journal entry `id`.
  func recordResponse(_ response: JournalEntry.Response, forEntry id: Int) {
    journalStorage.withLock { $0.setResponse(response, forEntry: id) }
  }

  /// Stores the response to the request in flight under `flight` (its first entry), whose body
  /// is still to come: it stays in flight until ``finish(flight:response:forEntry:)``.
  func startBody(ofFlight flight: Int, response: JournalEntry.Response?, forEntry entry: Int?) {
    journalStorage.withLock { journal in
      if let response, let entry { journal.setResponse(response, forEntry: entry) }
      journal.noteReceivingBody(flight)
    }
  }

  /// Stores the answer to the request in flight under `flight` (its first entry) and notes that
  /// it no longer waits; `response` goes to `entry`, the entry of the exchange's last hop.
  func finish(flight: Int, response: JournalEntry.Response?, forEntry entry: Int?) {
    journalStorage.withLock { journal in
      if let response, let entry { journal.setResponse(response, forEntry: entry) }
      journal.finish(flight)
    }
  }

  // MARK: Answering

  /// What the protocol should do with an intercepted request.
  ///
  /// The rare cases are held by reference: an enum is as large as its largest case, and every
  /// request copies a decision, so a recorded HAR entry held inline made each copy move 400
  /// bytes where a stubbed answer needs a pointer.
  enum Resolution: Sendable {
    case respond(StubResponse)
    /// The stub's responder is a closure the user wrote; it runs off the work queue and its
    /// response then goes through ``answer(for:with:)``.
    case respondLater(Stub, InterceptedRequest, call: Int)
    /// A cassette's `beforeReplay` hook adjusts the recorded entry first, off the work queue, as
    /// a responder would.
    indirect case replayLater(Cassette, HAR.Entry, InterceptedRequest)
    indirect case passThrough(PassThrough, Recording?)
    indirect case unmatched(NearMissReport)
  }

  /// What happens to a pass-through's answer besides delivering it.
  enum Recording: Sendable {
    /// Record into the cassette, in place of its stale entry `replacing` when there is one.
    case record(Cassette, replacing: Int?)
    case compare(Cassette, entry: Int?)

    /// Records `reply` into the cassette, or compares it with the recorded entry, as the mode
    /// says; the URL protocol and the loopback server both call this.
    func keep(_ reply: Reply, for request: InterceptedRequest, sentAt: Date) {
      switch self {
      case .record(let cassette, let stale):
        cassette.record(
          request, reply, startedAt: sentAt, duration: Date().timeIntervalSince(sentAt),
          replacing: stale)
      case .compare(let cassette, let entry):
        cassette.compare(live: reply, for: request, recordedEntry: entry)
      }
    }
  }

  /// A resolution and the journal entry that records it.
  struct Decision: Sendable {
    let resolution: Resolution
    let entry: Int

    /// Whether a closure the user wrote must run before the answer is known.
    var runsUserCode: Bool {
      switch resolution {
      case .respondLater, .replayLater: return true
      default: return false
      }
    }
  }

  /// Finds the stub that answers `request` (consuming one use of it) and journals the outcome.
  ///
  /// With `startsFlight`, the request is also noted as in flight, under the returned entry,
  /// until ``finish(flight:response:forEntry:)``; the protocol does this for the first request of
  /// each exchange. Without `runningUserCode` (on a URLSession work queue) it returns `nil`, having
  /// claimed and journaled nothing, when a custom matcher would have to run: call it again off the
  /// work queue, with a `userCode` run that notes each matcher as it runs.
  /// ``answer(_:startsFlight:userCode:later:)`` does all of that. With `deferringReports` (and
  /// no `userCode`) it also returns `nil`, having claimed and journaled nothing, where it would
  /// build a near-miss report, whose cost grows with the stubs and the body: a loopback server's
  /// event loop asks this way, and has the report built off it.
  func resolve(
    _ request: InterceptedRequest, startsFlight: Bool = false, userCode: UserCodeRun?,
    deferringReports: Bool = false
  ) -> Decision? {
    func record(_ logged: InterceptedRequest, _ outcome: JournalEntry.Outcome) -> Int {
      journalStorage.withLock { journal in
        let entry = journal.append(logged, outcome)
        if startsFlight { journal.noteInFlight(request, entry: entry) }
        return entry
      }
    }
    // Matchers see a copy carrying a shared JSON reading of the body; what is kept (journal,
    // stub logs, reports) and what responders receive is the request without it.
    var probe = request
    if probe.body != nil { probe.jsonCache = ParsedJSONBodyCache() }
    let (found, userCodePatterns, isPaused) = table.withLock {
      ($0.routes.candidates(for: request), $0.userCodePatterns, $0.isPaused)
    }
    var candidates = found
    while !isPaused, let stub = candidates.next() {
      if stub.runsUserCode {
        guard let userCode else { return nil }
        userCode.begin(.init(name: "the custom matcher of stub \(stub)", location: stub.location))
      }
      guard let captures = stub.match(probe, pathIndexed: candidates.lastWasExact) else {
        continue
      }
      // The request ended while the custom matchers ran: the stub is not used up by it.
      if userCode?.isCancelled == true { return nil }
      var matched = request
      // Setting even an empty value would copy the snapshot's shared storage.
      if !captures.isEmpty { matched.pathParameters = captures }
      guard let call = claim(stub, for: matched) else { continue }
      guard let response = stub.cannedResponse(call: call) else {
        return Decision(
          resolution: .respondLater(stub, matched, call: call),
          entry: record(matched, .stubbed(stub)))
      }
      if case .passThrough(let rewrite) = response.outcome {
        return Decision(
          resolution: .passThrough(rewrite, nil), entry: record(matched, .passedThrough))
      }
      return Decision(resolution: .respond(response), entry: record(matched, .stubbed(stub)))
    }
    if userCodePatterns > 0 && !isPaused {
      guard let userCode else { return nil }
      userCode.begin(
        .init(name: "the custom matchers explaining why no stub matched", location: location))
    }
    if let refusal = NetworkSchemes.refusal(for: request) {
      if deferringReports && userCode == nil { return nil }
      let report = NearMissReport(
        request: request, stubs: stubs, scenarioStates: scopeState.withLock { $0.scenarioStates },
        refusal: refusal,
        redaction: cassette?.redaction)
      return Decision(resolution: .unmatched(report), entry: record(request, .unmatched(report)))
    }
    var cassetteNote: String?
    let (unmatchedPolicy, cassette) = scopeState.withLock { ($0.policy, $0.cassette) }
    if isPaused {
      if case .passThrough(let rewrite) = unmatchedPolicy {
        return Decision(
          resolution: .passThrough(rewrite, nil), entry: record(request, .passedThrough))
      }
      cassetteNote =
        "The registry is paused: no stub or cassette answers until registry.resume()."
    } else if let cassette {
      if cassette.matching.runsUserCode {
        guard let userCode else { return nil }
        userCode.begin(
          .init(
            name: "the custom replay rules of cassette \(cassette.url.lastPathComponent)",
            location: cassette.location))
      }
      // Recording and drift checks reach the server the way pass-through would: a registry
      // that passes unmatched requests to a local or staging server records from that server,
      // while the cassette keeps the URLs the code under test asked for.
      var route = PassThrough()
      if case .passThrough(let rewrite) = unmatchedPolicy { route = rewrite }
      let decided = cassette.decide(request, unless: { userCode?.isCancelled == true })
      // The request ended while custom replay rules ran: it is neither answered nor journaled.
      if userCode?.isCancelled == true { return nil }
      switch decided {
      case .replay(let response):
        return Decision(
          resolution: .respond(response), entry: record(request, .replayed(cassette.url)))
      case .adjustThenReplay(let entry):
        return Decision(
          resolution: .replayLater(cassette, entry, request),
          entry: record(request, .replayed(cassette.url)))
      case .record(let stale):
        return Decision(
          resolution: .passThrough(route, .record(cassette, replacing: stale)),
          entry: record(request, .passedThrough))
      case .checkDrift(let index):
        return Decision(
          resolution: .passThrough(route, .compare(cassette, entry: index)),
          entry: record(request, .passedThrough))
      case .refuse(let message):
        cassetteNote = message
      case .ignore(let note):
        // Not the cassette's request: unmatched requests' rules decide, so a registry that
        // fails them still fails this one, and says why the cassette did not answer.
        if case .passThrough = unmatchedPolicy { break }
        cassetteNote = note
      }
    }
    switch unmatchedPolicy {
    case .passThrough(let rewrite) where cassetteNote == nil:
      return Decision(
        resolution: .passThrough(rewrite, nil), entry: record(request, .passedThrough))
    default:
      // Asked again, a cassette could decide differently (it may have used an entry up): its
      // refusals are reported from here.
      if deferringReports && userCode == nil && cassetteNote == nil { return nil }
      let report = NearMissReport(
        request: request, stubs: stubs, scenarioStates: scopeState.withLock { $0.scenarioStates },
        cassetteNote: cassetteNote, redaction: cassette?.redaction)
      return Decision(resolution: .unmatched(report), entry: record(request, .unmatched(report)))
    }
  }

  private func claim(_ stub: Stub, for request: InterceptedRequest) -> Int? {
    guard let step = stub.scenario else { return stub.claim(request) }
    return scopeState.withLock { state in
      let current = state.scenarioStates[step.scenario] ?? ScenarioStep.initialState
      if let required = step.requiredState, required != current { return nil }
      guard let call = stub.claim(request) else { return nil }
      if let next = step.nextState { state.scenarioStates[step.scenario] = next }
      return call
    }
  }

  /// The state `scenario` is in now.
  public func state(ofScenario scenario: String) -> String {
    scopeState.withLock { $0.scenarioStates[scenario] ?? ScenarioStep.initialState }
  }

  /// Moves `scenario` to `state`, as a test's setup might.
  public func setState(_ state: String, ofScenario scenario: String) {
    scopeState.withLock { $0.scenarioStates[scenario] = state }
  }

  // MARK: Requests in flight

  /// Requests intercepted but not yet answered in full: waiting for their answer (a delayed
  /// stub, say, or the network) or for the rest of their body (a throttled or delayed body).
  /// Tests read it; users have ``ScopeVerification/noRequestsInFlight``, on by default.
  var requestsInFlight: [InterceptedRequest] {
    inFlightNow.map(\.request)
  }

  /// The requests in flight, in arrival order, and whether each has its response already.
  var inFlightNow: [(request: InterceptedRequest, receivingBody: Bool)] {
    journalStorage.withLock { journal in
      // Most scopes end with nothing in flight; sorting nothing still runs generic code cold.
      guard !journal.inFlight.isEmpty else { return [] }
      return journal.inFlight.sorted { $0.key < $1.key }.map {
        ($0.value, journal.receivingBody.contains($0.key))
      }
    }
  }

  // MARK: Cassettes

  /// Answers what no stub matches from `cassette`, and records into it as its mode says.
  ///
  /// Call ``Cassette/finish()`` (the test traits do) to write what was recorded.
  public func use(_ cassette: Cassette) {
    scopeState.withLock { $0.cassette = cassette }
  }

  /// The cassette answering what no stub matches, if any.
  public var cassette: Cassette? { scopeState.withLock { $0.cassette } }

  /// Whether sessions should claim requests of `scheme`: always every scheme a session could
  /// reach the network with (``NetworkSchemes``), plus custom schemes a stub names.
  func claims(scheme: String) -> Bool {
    NetworkSchemes.claimed.contains(scheme) || table.withLock { $0.schemes.contains(scheme) }
  }
}
