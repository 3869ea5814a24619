#if canImport(Testing)
  import Testing
#endif

/// Turns a journal into a HAR file and attaches it to the running test's result.
enum TrafficAttachmentWriter {
  /// The journal as a HAR document, redacted with `redaction` (the test's cassette rules) and
  /// the default rules, then masked as logs are: attachments end up in CI artifacts, which are
  /// no place for credentials.
  static func har(of journal: [JournalEntry], testName: String, redaction: Redaction = .default)
    -> HAR
  {
    let entries = journal.map { entry -> HAR.Entry in
      let response: HAR.Response
      var comment: String?
      if let answer = entry.response, let status = answer.status {
        response = HAR.Response(status: status, headers: answer.headers, body: answer.body)
      } else {
        // HAR 1.2 records failed requests with status 0; the comment says why.
        response = HAR.Response(status: 0, headers: [:], body: nil)
        comment = entry.response?.error ?? outcomeText(entry.outcome)
      }
      let duration = entry.response?.duration ?? 0
      var harEntry = HAR.Entry(
        request: entry.request, response: response, startedDateTime: entry.date,
        duration: .milliseconds(Int64(duration * 1000)))
      // The comment of an unmatched request is its near-miss report.
      harEntry.comment = LogRedaction.mask(comment ?? outcomeText(entry.outcome), noting: true)
      return harEntry
    }
    var document = HAR(entries: entries)
    document.log.comment = "Traffic of \(testName), recorded by Understudy"
    document = redaction.including(.default).redact(document)
    for index in document.log.entries.indices {
      document.log.entries[index].transformRedactableFields(LogRedaction.mask)
    }
    return document
  }

  /// The bytes of the attachment for `registry`'s traffic, redacted with its cassette's rules
  /// (the test's own) and the default ones: the document encoded, then scanned as a whole, so
  /// whatever still looks like a credential in the exact bytes written is masked too.
  static func attachmentBytes(of registry: StubRegistry, testName: String) -> [UInt8]? {
    let redaction = registry.cassette?.redaction ?? .default
    guard
      let data = try? har(of: registry.journal, testName: testName, redaction: redaction)
        .encoded()
    else { return nil }
    return Array(LogRedaction.mask(String(decoding: data, as: UTF8.self)).utf8)
  }

  private static func outcomeText(_ outcome: JournalEntry.Outcome) -> String {
    switch outcome {
    case .stubbed(let stub): return "answered by stub \(stub)"
    case .passedThrough: return "passed through to the network"
    case .replayed(let url): return "replayed from cassette \(url.lastPathComponent)"
    case .unmatched: return "no stub matched"
    }
  }

  /// Attaches `registry`'s traffic to the current Swift Testing test as `<test>-traffic.har`.
  static func attach(_ registry: StubRegistry, testName: String, location: SourceLocation) {
    #if canImport(Testing)
      guard Test.current != nil, let bytes = attachmentBytes(of: registry, testName: testName)
      else { return }
      // [UInt8] is attachable without the Foundation cross-import overlay.
      Attachment.record(
        bytes, named: "\(CassetteName.sanitized(testName))-traffic.har",
        sourceLocation: Testing.SourceLocation(
          fileID: location.fileID, filePath: location.filePath, line: location.line,
          column: location.column))
    #endif
  }
}
