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
  /// - A response no server could send: a status that is not three digits (outside 100-999), a
  ///   header name that is not an HTTP token, or a header value with a line break or a NUL.
  ///   URLSession would hand it on as it is, and a test would pass on an answer no server gives.
  public var replayProblem: String? { replayProblem(at: "response") }

  /// ``replayProblem``, naming the members at fault under `path`, the JSON path of the response.
  func replayProblem(at path: String) -> String? {
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
    // 600-999 fit a status line (some servers send 999), so they replay; `validate` warns.
    if !(100...999).contains(response.status) {
      return "has a status no server could send: \(path).status is \(response.status), and an "
        + "HTTP status code has three digits (100 to 599 in use). Write the status the server "
        + "sent, or record the exchange again"
    }
    for (index, header) in response.headers.enumerated() {
      if let problem = StubResponse.fieldProblem(name: header.name, value: header.value) {
        return "has a header no server could send: \(path).headers[\(index)]: \(problem). "
          + "Correct the header or remove it, or record the exchange again"
      }
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
    guard let problem = entry.replayProblem(at: "log.entries[\(index)].response") else {
      return nil
    }
    reason = "entry \(index) of \(file), which \(problem)."
  }

  /// The refusal a request that matched the entry gets.
  func message(for request: InterceptedRequest) -> String {
    "Understudy: \(request) matched \(reason)"
  }
}
