import Foundation

extension JournalEntry {
  /// The values `rules` remove from this exchange (its request, and its answer when it has one;
  /// the first ``RequestSecrets/bodyLimit`` bytes of each body), for a tool that prints the
  /// traffic it serves: a value one exchange carried is masked in every later line that repeats
  /// it (a cookie set by one answer and sent in the next request's query). The caller compiles
  /// the rules once: a tool reads every exchange it serves.
  package func removedValues(by rules: CompiledRedaction) -> Set<String> {
    rules.removedValues(from: RequestSecrets.entry(of: request, answer: response, at: date))
      .filter { $0.count >= Redaction.minimumEchoLength }
  }
}

extension LogRedaction {
  /// `text` masked as ``mask(_:noting:)`` masks it, and each of `values` masked wherever it
  /// stands, in every spelling a cassette searches for it (``ValueSpellings``).
  package static func mask(_ text: String, hiding values: some Collection<String>) -> String {
    mask(text, naming: nil, echoes: values.sorted { $0.count > $1.count })
  }
}

extension JournalEntry: CustomStringConvertible {
  /// `METHOD url — what answered it → status`, masked as a report is: the stub that answered can
  /// name a value the request holds under a credential's name (a URL it expects), and a test's
  /// log prints what it is given.
  public var description: String {
    let answeredBy: String
    switch outcome {
    case .stubbed(let stub): answeredBy = "answered by stub \(stub)"
    case .passedThrough: answeredBy = "passed through to the network"
    case .replayed(let cassette): answeredBy = "replayed from \(cassette.lastPathComponent)"
    case .unmatched: answeredBy = "no stub matched"
    }
    let answer = response.map { response in
      response.status.map { " → \($0)" } ?? " → failed: \(response.error ?? "no response")"
    }
    // What the rules take from the request and its answer: the request's own values are
    // among them, so it is described hiding these rather than reading itself again.
    let secrets =
      neighbours?.removedValues() ?? removedValues(by: CompiledRedaction.forReports)
    return LogRedaction.mask(
      "\(request.described(hiding: secrets)) — \(answeredBy)\(answer ?? "")", hiding: secrets)
  }
}
