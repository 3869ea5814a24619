extension StubRegistry {
  /// Decides how to answer `request`: the one entry point for whatever answers from a registry
  /// (the URL protocol, a loopback server).
  ///
  /// Canned stubs and the library's own matchers decide here and now, and the decision is
  /// returned. When a closure the user wrote has to run (a custom matcher, a responder), this
  /// returns `nil`: `userCode` is asked for the ``UserCodeRun`` to run it in (with the journal
  /// entry of the request when its stub is chosen already), the closure runs
  /// off the caller's thread, and the decision goes to `later`, from that thread. So the caller
  /// may be a URLSession work queue, which must never wait for long. With `waitingBriefly`, the
  /// caller waits ``UserCodeHandOff/patience`` for a quick closure's decision and gets it
  /// returned, so it need not come back for it (``UserCodeHandOff``). With `deferringReports`, a
  /// near-miss report is built off the caller's thread the same way (a server's event loop
  /// serves other tests' connections meanwhile).
  func answer(
    _ request: InterceptedRequest, startsFlight: Bool, waitingBriefly: Bool = false,
    deferringReports: Bool = false,
    userCode: (_ entry: Int?) -> UserCodeRun,
    later: @escaping @Sendable (Decision) -> Void
  ) -> Decision? {
    let decided = resolve(
      request, startsFlight: startsFlight, userCode: nil, deferringReports: deferringReports)
    if let decided, !decided.runsUserCode { return decided }
    let handOff = waitingBriefly ? UserCodeHandOff(later: later) : nil
    let later = handOff.map { $0.deliver } ?? later
    if let decision = decided {
      respondLater(decision, in: userCode(decision.entry), onThisThread: false, later)
      return handOff?.wait()
    }
    let run = userCode(nil)
    let created = location
    let matchers = UserCodeRun.Closure(
      name: "the custom matchers of the registry created at \(created)", location: created)
    run.run(matchers) {
      // With a run to note each matcher in, resolving always decides.
      guard let decision = self.resolve(request, startsFlight: startsFlight, userCode: run) else {
        return
      }
      run.end()
      guard decision.runsUserCode else { return later(decision) }
      self.respondLater(decision, in: run, onThisThread: true, later)
    }
    return handOff?.wait()
  }

  /// Runs the closure `decision` waits on (a responder, a cassette's `beforeReplay` hook) in
  /// `run` and hands the decision it makes to `later`.
  private func respondLater(
    _ decision: Decision, in run: UserCodeRun, onThisThread: Bool,
    _ later: @escaping @Sendable (Decision) -> Void
  ) {
    switch decision.resolution {
    case .respondLater(let stub, let matched, let call):
      stub.respond(
        to: matched, call: call, in: run, onThisThread: onThisThread, for: self
      ) { response in
        later(self.decision(entry: decision.entry, respondingWith: response))
      }
    case .replayLater(let cassette, let entry, let request):
      cassette.replay(
        adjusting: entry, for: request, in: run, onThisThread: onThisThread, registry: self
      ) { response in
        later(Decision(resolution: .respond(response), entry: decision.entry))
      }
    default:
      later(decision)
    }
  }

  /// The decision for a responder's `response`: a pass-through it returned is journaled as one.
  private func decision(entry: Int, respondingWith response: StubResponse) -> Decision {
    guard case .passThrough(let rewrite) = response.outcome else {
      return Decision(resolution: .respond(response), entry: entry)
    }
    journalStorage.withLock { $0.setOutcome(.passedThrough, forEntry: entry) }
    return Decision(resolution: .passThrough(rewrite, nil), entry: entry)
  }

  /// Reports what a closure the user wrote did wrong: when the test scope that owns the
  /// registry ends, at the closure's line, or now when no scope owns it.
  func reportUserCodeFailure(_ failure: ScopeFailure) {
    let kept = scopeState.withLock { state -> Bool in
      guard state.expectations.verification != nil, let kept = state.userCodeFailures else {
        return false
      }
      state.userCodeFailures = kept + [failure]
      return true
    }
    if !kept { IssueReporter.report(failure.message, at: failure.location) }
  }
}

extension StubRegistry {
  /// Reports what a loopback server refused to do for a client (HTTPS through its `CONNECT`
  /// tunnel): when the test scope that owns the registry ends, at the registry's declaration, or
  /// now when no scope owns it.
  package func reportServerIssue(_ message: String) {
    reportUserCodeFailure(ScopeFailure(message: message, location: location))
  }
}
