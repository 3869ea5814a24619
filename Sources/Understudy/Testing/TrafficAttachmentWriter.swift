#if canImport(Testing)
  import Testing
#endif

/// Turns a journal into a HAR file and attaches it to the running test's result.
enum TrafficAttachmentWriter {
  /// The journal as a HAR document, redacted with the default rules: attachments end up in CI
  /// artifacts, which are no place for credentials.
  static func har(of journal: [JournalEntry], testName: String, redaction: Redaction = .default)
    -> HAR
  {
    let entries = journal.map { entry -> HAR.Entry in
      let response: HAR.Response
      var comment: String?
      if let answer = entry.response, let status = answer.statusCode {
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
      harEntry.comment = comment ?? outcomeText(entry.outcome)
      return harEntry
    }
    var document = HAR(entries: entries)
    document.log.comment = "Traffic of \(testName), recorded by Understudy"
    return redaction.redact(document)
  }

  private static func outcomeText(_ outcome: JournalEntry.Outcome) -> String {
    switch outcome {
    case .stubbed(let stub): return "answered by stub \(stub)"
    case .passedThrough: return "passed through to the network"
    case .replayed(let url): return "replayed from cassette \(url.lastPathComponent)"
    case .unmatched: return "no stub matched"
    }
  }

  /// Attaches the journal to the current Swift Testing test as `<test>.har`.
  static func attach(_ journal: [JournalEntry], testName: String, location: SourceLocation) {
    #if canImport(Testing)
      guard Test.current != nil, let data = try? har(of: journal, testName: testName).encoded()
      else { return }
      // [UInt8] is attachable without the Foundation cross-import overlay.
      Attachment.record(
        [UInt8](data), named: "\(CassetteName.sanitized(testName))-traffic.har",
        sourceLocation: Testing.SourceLocation(
          fileID: location.fileID, filePath: location.filePath, line: location.line,
          column: location.column))
    #endif
  }
}
