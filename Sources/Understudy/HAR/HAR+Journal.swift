extension HAR {
  /// A journal as a HAR document, redacted, to save or diff a test's traffic yourself.
  ///
  /// It is the document a failing test gets attached: one entry per request with what was
  /// answered (stubbed, replayed, passed through, or the near-miss report of an unmatched
  /// request in the entry's comment), redacted with `redaction` and ``Redaction/default`` before
  /// you see it, then masked as Understudy's logs are (`Bearer ••••(42 chars)`) wherever a
  /// credential-named value or credential-shaped text is left.
  ///
  /// ```swift
  /// let traffic = HAR(journal: registry.journal, name: "checkout")
  /// try traffic.write(to: folder.appending(path: "checkout-traffic.har"))
  /// ```
  ///
  /// - Parameters:
  ///   - journal: The requests to include, such as ``StubRegistry/journal``.
  ///   - name: What the traffic is, written in the log's comment (a test's name).
  ///   - redaction: Rules that replace credentials, applied with ``Redaction/default``: name
  ///     the headers and JSON paths of your own secrets here.
  public init(journal: [JournalEntry], name: String, redaction: Redaction = .default) {
    self = TrafficAttachmentWriter.har(of: journal, testName: name, redaction: redaction)
  }
}
