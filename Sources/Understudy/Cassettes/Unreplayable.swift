extension HAR.Entry {
  /// Why this entry cannot answer a request, or `nil` when it can.
  ///
  /// One rule for the whole toolchain: `understudy validate` and `inspect` flag these entries,
  /// `convert` drops the status-0 ones, `stub` writes no stub for them, and replay refuses a
  /// request that matches one with this reason, rather than answering with status 0 or an empty
  /// body where the server sent bytes.
  ///
  /// - A status of 0: no response was recorded (the request was blocked, cancelled or failed).
  /// - A body the exporter declared but left out (``HAR/Content/omittedSize``).
  public var replayProblem: String? {
    if response.status == 0 {
      return "recorded no response (status 0: the request was blocked, cancelled or failed "
        + "before an answer). Remove the entry (`understudy convert` drops such entries) or "
        + "record the exchange again"
    }
    if let size = response.content.omittedSize {
      return "has no response body: the exporter declared \(size) bytes (content.size) but left "
        + "out content.text. Export the HAR again with bodies included (browsers: \"Save all as "
        + "HAR with content\"), record the cassette again, or answer this request with a stub"
    }
    return nil
  }
}

/// Why a recorded entry cannot answer a request that matches it: ``HAR/Entry/replayProblem``
/// with the file and the entry's index.
struct Unreplayable: Error, Sendable, Hashable {
  /// The sentence, naming the file and the entry.
  let reason: String

  /// The reason `entry` cannot be replayed, or `nil` when it can.
  init?(_ entry: HAR.Entry, index: Int, file: String) {
    guard let problem = entry.replayProblem else { return nil }
    reason = "entry \(index) of \(file), which \(problem)."
  }

  /// The refusal a request that matched the entry gets.
  func message(for request: InterceptedRequest) -> String {
    "Understudy: \(request) matched \(reason)"
  }
}
