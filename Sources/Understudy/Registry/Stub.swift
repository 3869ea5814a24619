/// A registered stub: a pattern, what it answers, how often, and where it was declared.
///
/// Keep the value `stub(…)` returns to remove the stub later or to check how it was used:
///
/// ```swift
/// let login = registry.stub(.post("/login"), .json(["token": "t"]), limit: .once)
/// // … exercise the code …
/// #expect(login.callCount == 1)
/// ```
public final class Stub: Sendable, CustomStringConvertible {
  enum Responder: Sendable {
    case fixed(StubResponse)
    case sequence([StubResponse])
    case dynamic(@Sendable (InterceptedRequest) throws -> StubResponse)
    case asynchronous(@Sendable (InterceptedRequest) async throws -> StubResponse)
  }

  /// Which requests the stub answers.
  public let pattern: RequestPattern
  /// How many requests it answers.
  package let limit: StubLimit
  /// Where it was declared.
  package let location: SourceLocation
  /// An optional name shown in reports.
  public let name: String?
  /// The scenario state the stub depends on or moves to, if any.
  package let scenario: ScenarioStep?
  let responder: Responder
  /// Registration order within its registry; later stubs take precedence.
  let order: Int

  // Guards the call count and the requests this stub answered.
  private let usage: Locked<(calls: Int, requests: BoundedLog<InterceptedRequest>)>

  /// - Parameter requestCapacity: How many answered requests ``requests`` keeps; the registry's
  ///   journal capacity, so a bounded registry stays bounded however long a stub serves.
  init(
    pattern: RequestPattern, responder: Responder, limit: StubLimit, name: String?,
    scenario: ScenarioStep?, location: SourceLocation, order: Int, requestCapacity: Int?
  ) {
    self.usage = Locked((0, BoundedLog(capacity: requestCapacity)))
    self.scenario = scenario
    self.pattern = pattern
    self.responder = responder
    self.limit = limit
    self.name = name
    self.location = location
    self.order = order
  }

  /// The values `request` captures when the stub's pattern matches it, `nil` when it does not.
  /// Asked of the stub rather than of a copy of its pattern, which would retain and release each
  /// of the pattern's parts for every stub a request tries.
  func match(_ request: InterceptedRequest, pathIndexed: Bool = false) -> [String: String]? {
    pattern.match(request, pathIndexed: pathIndexed)
  }

  /// Whether matching runs a closure the user wrote.
  var runsUserCode: Bool { pattern.runsUserCode }

  /// How many requests this stub has answered.
  public var callCount: Int { usage.withLock { $0.calls } }

  /// The requests this stub answered, in order; only the most recent ones when the registry was
  /// created with a `journalCapacity`, which bounds these lists too.
  public var requests: [InterceptedRequest] { usage.withLock { $0.requests.elements } }

  /// Whether the stub has answered as many requests as its limit allows.
  package var isExhausted: Bool {
    guard let maximum = limit.maximumCalls else { return false }
    return callCount >= maximum
  }

  /// Takes one use of the stub for `request`; `nil` when it is used up.
  func claim(_ request: InterceptedRequest) -> Int? {
    usage.withLock { usage in
      if let maximum = limit.maximumCalls, usage.calls >= maximum { return nil }
      usage.calls += 1
      usage.requests.append(request)
      return usage.calls - 1
    }
  }

  /// The response for the `call`-th use (counting from zero), or `nil` when a closure the user
  /// wrote answers: that runs in a ``UserCodeRun``, through ``respond(to:in:onThisThread:for:_:)``.
  /// A templated fixture is rendered off the work queue, so it is answered that way too.
  func cannedResponse(call: Int) -> StubResponse? {
    guard let response = declaredResponse(call: call), !response.isTemplated else { return nil }
    return response
  }

  private func declaredResponse(call: Int) -> StubResponse? {
    switch responder {
    case .fixed(let response): return response
    case .sequence(let responses): return responses[min(call, responses.count - 1)]
    case .dynamic, .asynchronous: return nil
    }
  }

  /// Runs the stub's responder for `request` in `run` and hands its response to `completion`:
  /// on this thread when it already is a user-code thread (`onThisThread`), else on another.
  func respond(
    to request: InterceptedRequest, call: Int, in run: UserCodeRun, onThisThread: Bool,
    for registry: StubRegistry, _ completion: @escaping @Sendable (StubResponse) -> Void
  ) {
    let closure = UserCodeRun.Closure(name: "the responder of stub \(self)", location: location)
    let start: (UserCodeRun.Closure, @escaping @Sendable () -> Void) -> Void = { closure, work in
      if onThisThread {
        run.begin(closure)
        work()
      } else {
        run.run(closure, work)
      }
    }
    switch responder {
    case .fixed, .sequence:
      let response = declaredResponse(call: call) ?? .ok
      guard response.isTemplated else { return completion(response) }
      // Reading a file whole does not belong on a URLSession work queue either.
      start(.init(name: "the templated fixture of stub \(self)", location: location)) {
        let rendered = self.rendered(response, for: request, call: call, registry)
        run.end()
        completion(rendered)
      }
    case .dynamic(let respond):
      start(closure) {
        let response: StubResponse
        do {
          response = self.checked(
            self.rendered(try respond(request), for: request, call: call, registry),
            for: request, registry)
        } catch {
          response = self.failure(thrown: error, registry)
        }
        run.end()
        completion(response)
      }
    case .asynchronous(let respond):
      run.runAsync(closure) {
        let response: StubResponse
        do {
          response = self.checked(
            self.rendered(try await respond(request), for: request, call: call, registry),
            for: request, registry)
        } catch {
          response = self.failure(thrown: error, registry)
        }
        run.end()
        completion(response)
      }
    }
  }

  /// What a request gets when its responder throws. A `URLError` is a network failure thrown on
  /// purpose and reaches the caller unchanged; a cancellation means the request is gone; anything
  /// else is a bug in the responder, which fails the request naming the stub and is reported at
  /// the stub's line.
  private func failure(thrown error: any Error, _ registry: StubRegistry) -> StubResponse {
    if let urlError = error as? URLError { return .failure(urlError) }
    if error is CancellationError { return .failure(URLError(.cancelled)) }
    let failure = ResponderError(stub: description, underlying: "\(error)", error: error)
    registry.reportUserCodeFailure(
      ScopeFailure(
        message:
          "Understudy: \(failure.description). The request failed with this error; to fail a "
          + "request on purpose, return .failure(_:) or throw a URLError.",
        location: location))
    return .failure(failure)
  }

  /// `response`, or a failure when no server could send it (a status outside 100-599, a header
  /// that would break the response apart, …). A responder's answer is made per request, after
  /// the declaration was checked, so it is checked here, and the problem is reported at the
  /// stub's line; canned responses were checked once, when declared.
  private func checked(
    _ response: StubResponse, for request: InterceptedRequest, _ registry: StubRegistry
  ) -> StubResponse {
    guard let problem = response.wireProblem else { return response }
    let message =
      "Understudy: the responder of stub \(description) answered \(request) with a response "
      + "no server could send: \(problem). The request failed with this error; return a "
      + "response a server could send, or .failure(_:) to fail the request on purpose."
    registry.reportUserCodeFailure(ScopeFailure(message: message, location: location))
    return .failure(URLError.understudy(.badServerResponse, message, for: request))
  }

  /// `response` with a templated fixture filled in for `request`; a placeholder without a value
  /// fails the request, and is reported at the stub's line.
  private func rendered(
    _ response: StubResponse, for request: InterceptedRequest, call: Int,
    _ registry: StubRegistry
  ) -> StubResponse {
    guard response.isTemplated else { return response }
    let (rendered, error) = response.rendered(for: request, call: call + 1)
    // A fault in a declared fixture was reported at the declaration already.
    let declared: Bool
    switch responder {
    case .fixed, .sequence: declared = true
    case .dynamic, .asynchronous: declared = false
    }
    if let error, !(declared && error.isInTheFile) {
      registry.reportUserCodeFailure(
        ScopeFailure(
          message: "Understudy: stub \(description) cannot answer \(request): \(error). The "
            + "request failed with this error.",
          location: location))
    }
    return rendered
  }

  /// Problems that make the stub unable to answer as declared: an invalid pattern or a missing
  /// fixture.
  var problems: [String] {
    var problems = pattern.problems
    switch responder {
    case .fixed(let response): problems += response.problem.map { [$0] } ?? []
    case .sequence(let responses): problems += responses.compactMap(\.problem)
    case .dynamic, .asynchronous: break
    }
    return problems
  }

  /// The name (if any), the pattern and the declaration site.
  public var description: String {
    (name.map { "\"\($0)\" " } ?? "") + "\(pattern) (\(location))"
  }
}

/// A request-aware responder threw; the request fails with this error.
public struct ResponderError: Error, Sendable, CustomStringConvertible, LocalizedError {
  /// The stub whose responder threw, as its description; the ``description`` names it.
  package let stub: String
  /// What it threw, as text; users read ``error``.
  package let underlying: String
  /// The error it threw.
  public let error: any Error

  /// A sentence naming the stub and the error, masked as reports are: the error is the
  /// responder's own, and a test runner prints a thrown error whole.
  public var description: String {
    LogRedaction.mask("the responder of stub \(stub) threw: \(underlying)")
  }
  /// Same as ``description``.
  public var errorDescription: String? { description }
}
