extension Cassette {
  /// Runs the `beforeRecord` hook over `entries` and waits for it: see
  /// ``startRecordHook(_:on:completion:)``.
  func runRecordHook(_ hook: RecordHook, on entries: [HAR.Entry]) -> Result<
    [HAR.Entry?], RecordHookFailure
  > {
    let outcome = Locked<Result<[HAR.Entry?], RecordHookFailure>?>(nil)
    let done = DispatchSemaphore(value: 0)
    startRecordHook(hook, on: entries) { result in
      outcome.withLock { $0 = result }
      done.signal()
    }
    done.wait()
    return outcome.withLock { $0 } ?? .success(entries)
  }

  /// Runs the `beforeRecord` hook over `entries`, redacted first, on a thread of its own, and
  /// calls `completion` once: with what to write in their place (`nil` where the hook dropped
  /// one), or, when the hook threw or ran past ``CassetteOptions/hookTimeout``, with why nothing
  /// may be written.
  ///
  /// The caller writes through the usual path, so what the hook returns is redacted and
  /// scanned for credentials like any other entry.
  func startRecordHook(
    _ hook: RecordHook, on entries: [HAR.Entry],
    completion: @escaping @Sendable (Result<[HAR.Entry?], RecordHookFailure>) -> Void
  ) {
    // The hook sees placeholders with their digests, as they will be written: once redacted,
    // the values the digests come from are gone.
    let key = digestKey
    let (redactedArchive, rules, removed) = redaction.redactedWithEchoes(HAR(entries: entries))
    let redacted = redactedArchive.log.entries.enumerated().map {
      index, entry in
      guard let key else { return entry }
      var marked = entry
      marked.request = RedactionDigests.mark(
        entry.request, original: entries[index].request, key: key)
      return marked
    }
    let name = "the beforeRecord hook of cassette \(url.lastPathComponent)"
    let notWritten = "so cassette \(url.path) was not written"
    let delivered = Locked(false)
    let deliver: @Sendable (Result<[HAR.Entry?], RecordHookFailure>) -> Void = { result in
      // The hook and its timeout race; whichever comes second is dropped.
      let first = delivered.withLock { done -> Bool in
        defer { done = true }
        return !done
      }
      if first { completion(result) }
    }
    let limit = options.hookTimeout.seconds
    EngineQueue.after(limit) {
      deliver(
        .failure(
          RecordHookFailure(
            message: "Understudy: \(name) ran for more than \(limit) s (its hookTimeout), "
              + "\(notWritten). Make the hook return sooner, or raise CassetteOptions.hookTimeout.",
            location: hook.location)))
    }
    let run = UserCodeRun()
    run.run(UserCodeRun.Closure(name: name, location: hook.location)) {
      var kept: [HAR.Entry?] = []
      do {
        for entry in redacted { kept.append(try hook.transform(entry)) }
        run.end()
        // A hook can write back a value redaction took out (a token the test holds, copied into
        // a header, a header's name or a URL): each is replaced wherever it stands again.
        deliver(
          .success(
            kept.map { entry in
              guard var entry, !removed.isEmpty else { return entry }
              var echoes = removed
              rules.replaceEchoes(in: &entry, echoes: &echoes)
              return entry
            }))
      } catch {
        run.end()
        let entry = redacted[kept.count].request
        deliver(
          .failure(
            RecordHookFailure(
              message: "Understudy: \(name) threw on new entry \(kept.count) "
                + "(\(LogRedaction.shown(method: entry.method)) \(entry.url)): \(error), \(notWritten). Return nil from "
                + "the hook to leave an entry out.",
              location: hook.location)))
      }
    }
  }

  /// Adjusts `entry` with the `beforeReplay` hook in `run` and hands the response to serve to
  /// `completion`: on this thread when it already is a user-code thread (`onThisThread`), else
  /// on another. A hook that throws fails the request and is reported at its line.
  func replay(
    adjusting entry: HAR.Entry, for request: InterceptedRequest, in run: UserCodeRun,
    onThisThread: Bool, registry: StubRegistry,
    _ completion: @escaping @Sendable (StubResponse) -> Void
  ) {
    guard let hook = options.replayHook else { return }
    let name = "the beforeReplay hook of cassette \(url.lastPathComponent)"
    let speed = replaySpeed
    let work: @Sendable () -> Void = {
      var response: StubResponse
      do {
        let adjusted = try hook.transform(entry)
        response = try Self.response(replaying: adjusted, speed: speed)
          .delayed(by: Self.replayDelay(of: adjusted, speed: speed))
        // The file's entries were checked when it loaded; the hook's are made now.
        if let problem = adjusted.replayProblem {
          let message =
            "Understudy: \(name) returned an entry for \(request) that \(problem). The "
            + "request failed."
          registry.reportUserCodeFailure(ScopeFailure(message: message, location: hook.location))
          response = .failure(URLError.understudy(.badServerResponse, message, for: request))
        }
      } catch {
        let message = "Understudy: \(name) threw for \(request): \(error). The request failed."
        registry.reportUserCodeFailure(ScopeFailure(message: message, location: hook.location))
        response = .failure(URLError.understudy(.resourceUnavailable, message, for: request))
      }
      run.end()
      completion(response)
    }
    if onThisThread {
      run.begin(UserCodeRun.Closure(name: name, location: hook.location))
      work()
    } else {
      run.run(UserCodeRun.Closure(name: name, location: hook.location), work)
    }
  }
}

/// Why the `beforeRecord` hook stopped the cassette from being written, as reported.
struct RecordHookFailure: Error {
  let failure: ScopeFailure

  init(message: String, location: SourceLocation) {
    failure = ScopeFailure(message: message, location: location)
  }
}
