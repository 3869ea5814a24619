extension Cassette {
  /// Runs the `beforeRecord` hook over `entries`, redacted first, off the calling thread and
  /// bounded by ``CassetteOptions/hookTimeout``. Returns what to write in their place (`nil`
  /// where the hook dropped one), or why nothing may be written: the hook threw or overran.
  ///
  /// The caller writes through the usual path, so what the hook returns is redacted and
  /// scanned for credentials like any other entry.
  func runRecordHook(_ hook: RecordHook, on entries: [HAR.Entry]) -> Result<
    [HAR.Entry?], RecordHookFailure
  > {
    let redacted = redaction.redact(HAR(entries: entries)).log.entries
    let name = "the beforeRecord hook of cassette \(url.lastPathComponent)"
    let outcome = Locked<Result<[HAR.Entry?], HookError>?>(nil)
    let done = DispatchSemaphore(value: 0)
    let run = UserCodeRun()
    run.run(UserCodeRun.Closure(name: name, location: hook.location)) {
      var kept: [HAR.Entry?] = []
      var result: Result<[HAR.Entry?], HookError>
      do {
        for entry in redacted { kept.append(try hook.transform(entry)) }
        result = .success(kept)
      } catch {
        result = .failure(HookError(index: kept.count, error: "\(error)"))
      }
      run.end()
      outcome.withLock { $0 = result }
      done.signal()
    }
    let limit = options.hookTimeout.seconds
    let notWritten = "so cassette \(url.path) was not written"
    guard done.wait(timeout: .now() + limit) == .success, let result = outcome.withLock({ $0 })
    else {
      return .failure(
        RecordHookFailure(
          message: "Understudy: \(name) ran for more than \(limit) s (its hookTimeout), "
            + "\(notWritten). Make the hook return sooner, or raise CassetteOptions.hookTimeout.",
          location: hook.location))
    }
    return result.mapError { failure in
      RecordHookFailure(
        message: "Understudy: \(name) threw on new entry \(failure.index) "
          + "(\(redacted[failure.index].request.method) \(redacted[failure.index].request.url)): "
          + "\(failure.error), \(notWritten). Return nil from the hook to leave an entry out.",
        location: hook.location)
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
      let response: StubResponse
      do {
        let adjusted = try hook.transform(entry)
        response = try Self.response(replaying: adjusted, speed: speed)
          .delayed(by: Self.replayDelay(of: adjusted, speed: speed))
      } catch {
        let message = "Understudy: \(name) threw for \(request): \(error). The request failed."
        registry.reportUserCodeFailure(ScopeFailure(message: message, location: hook.location))
        response = .failure(URLError.understudy(.resourceUnavailable, message, request.url))
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

/// What a `beforeRecord` hook threw, and for which entry.
private struct HookError: Error {
  let index: Int
  let error: String
}
