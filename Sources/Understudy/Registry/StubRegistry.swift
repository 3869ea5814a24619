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
    var all: [Stub] = []
    var byPath: [String: [Stub]] = [:]
    var unindexed: [Stub] = []
    var schemes: Set<String> = []
    var nextOrder = 0
  }

  // Guards the stubs and the index over them.
  private let table = Locked(Table())
  // Guards the journal.
  private let journalStorage: Locked<RequestJournal>
  // Guards the policy for requests no stub matches.
  private let policy: Locked<UnmatchedRequestPolicy>
  /// Where the registry was created, named in reports about requests that outlive it.
  public let location: SourceLocation
  /// The identity sessions use to find this registry.
  let id: Int

  /// Creates an empty registry.
  ///
  /// - Parameters:
  ///   - unmatchedRequests: What to do with requests no stub matches; failing them is the default.
  ///   - journalCapacity: How many requests the journal keeps (oldest dropped first); `nil` keeps
  ///     them all. Long benchmarks and soak tests set a bound.
  public init(
    unmatchedRequests: UnmatchedRequestPolicy = .fail, journalCapacity: Int? = nil,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
    column: Int = #column
  ) {
    self.policy = Locked(unmatchedRequests)
    self.journalStorage = Locked(RequestJournal(capacity: journalCapacity))
    self.location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    self.id = RegistryDirectory.shared.allocateID()
    RegistryDirectory.shared.register(self)
  }

  deinit {
    RegistryDirectory.shared.retire(
      id, reason: "its StubRegistry (created at \(location)) was deallocated")
  }

  /// What happens to requests no stub matches.
  public var unmatchedRequests: UnmatchedRequestPolicy {
    get { policy.current }
    set { policy.withLock { $0 = newValue } }
  }

  // MARK: Declaring stubs

  /// Answers requests matching `pattern` with `response`.
  @discardableResult
  public func stub(
    _ pattern: RequestPattern, _ response: StubResponse, limit: StubLimit = .unlimited,
    name: String? = nil, fileID: String = #fileID, filePath: String = #filePath,
    line: Int = #line, column: Int = #column
  ) -> Stub {
    add(
      pattern, .fixed(response), limit: limit, name: name,
      SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Answers requests matching `pattern` with the responses in order, one each; the stub is used
  /// up after the last.
  @discardableResult
  public func stub(
    _ pattern: RequestPattern, sequence responses: [StubResponse], name: String? = nil,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
    column: Int = #column
  ) -> Stub {
    add(
      pattern, .sequence(responses), limit: .times(responses.count), name: name,
      SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Answers requests matching `pattern` with whatever `respond` returns for the request.
  ///
  /// The request carries its body and the values path templates captured, in
  /// ``InterceptedRequest/pathParameters``. An error thrown by `respond` fails the request.
  @discardableResult
  public func stub(
    _ pattern: RequestPattern, limit: StubLimit = .unlimited, name: String? = nil,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
    column: Int = #column,
    respond: @escaping @Sendable (InterceptedRequest) throws -> StubResponse
  ) -> Stub {
    add(
      pattern, .dynamic(respond), limit: limit, name: name,
      SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  private func add(
    _ pattern: RequestPattern, _ responder: Stub.Responder, limit: StubLimit, name: String?,
    _ location: SourceLocation
  ) -> Stub {
    let stub = table.withLock { table in
      let stub = Stub(
        pattern: pattern, responder: responder, limit: limit, name: name, location: location,
        order: table.nextOrder)
      table.nextOrder += 1
      table.all.append(stub)
      if let path = pattern.indexedPath {
        table.byPath[path, default: []].append(stub)
      } else {
        table.unindexed.append(stub)
      }
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
      table.all.removeAll { $0 === stub }
      if let path = stub.pattern.indexedPath {
        table.byPath[path]?.removeAll { $0 === stub }
        if table.byPath[path]?.isEmpty == true { table.byPath[path] = nil }
      } else {
        table.unindexed.removeAll { $0 === stub }
      }
    }
  }

  /// Removes every stub. The journal is kept.
  public func removeAllStubs() {
    table.withLock { table in
      let next = table.nextOrder
      table = Table()
      table.nextOrder = next
    }
  }

  /// The registered stubs, in registration order.
  public var stubs: [Stub] { table.withLock { $0.all } }

  // MARK: The journal

  /// Every intercepted request and what became of it, in arrival order.
  public var journal: [JournalEntry] { journalStorage.withLock { $0.entries } }

  /// The intercepted requests, in arrival order.
  public var requests: [InterceptedRequest] { journal.map(\.request) }

  /// Near-miss reports of the requests no stub matched, in arrival order.
  public var unmatchedReports: [NearMissReport] {
    journal.compactMap { entry in
      if case .unmatched(let report) = entry.outcome { return report }
      return nil
    }
  }

  /// Empties the journal.
  public func clearJournal() {
    journalStorage.withLock { $0.removeAll() }
  }

  func record(_ request: InterceptedRequest, _ outcome: JournalEntry.Outcome) {
    journalStorage.withLock {
      $0.append(JournalEntry(request: request, outcome: outcome, date: Date()))
    }
  }

  // MARK: Answering

  /// What the protocol should do with an intercepted request.
  enum Resolution: Sendable {
    case respond(StubResponse, Stub)
    case passThrough(PassThrough)
    case unmatched(NearMissReport)
  }

  /// Finds the stub that answers `request` (consuming one use of it) and journals the outcome.
  func resolve(_ request: InterceptedRequest) -> Resolution {
    let (bucket, unindexed) = table.withLock { ($0.byPath[request.path] ?? [], $0.unindexed) }
    // Both lists are in registration order; walk them newest first, merged, so precedence holds
    // whether or not a stub is indexed.
    var b = bucket.count - 1
    var u = unindexed.count - 1
    while b >= 0 || u >= 0 {
      let stub: Stub
      if u < 0 || (b >= 0 && bucket[b].order > unindexed[u].order) {
        stub = bucket[b]
        b -= 1
      } else {
        stub = unindexed[u]
        u -= 1
      }
      guard let captures = stub.pattern.match(request) else { continue }
      var matched = request
      matched.pathParameters = captures
      guard let call = stub.claim(matched, keepRequest: true) else { continue }
      record(matched, .stubbed(stub))
      let response = stub.response(for: matched, call: call)
      if case .passThrough(let rewrite) = response.outcome {
        return .passThrough(rewrite)
      }
      return .respond(response, stub)
    }
    switch policy.current {
    case .passThrough(let rewrite):
      record(request, .passedThrough)
      return .passThrough(rewrite)
    case .fail:
      let report = NearMissReport(request: request, stubs: stubs)
      record(request, .unmatched(report))
      return .unmatched(report)
    }
  }

  /// Whether sessions should claim requests of `scheme`: always http(s), plus custom schemes a
  /// stub names.
  func claims(scheme: String) -> Bool {
    scheme == "http" || scheme == "https" || table.withLock { $0.schemes.contains(scheme) }
  }
}
