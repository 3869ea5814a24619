#if canImport(Testing)
  import Testing
#endif

/// Turns a journal into a HAR file and attaches it to the running test's result.
enum TrafficAttachmentWriter {
  /// The journal as a HAR document, redacted with `redaction` (the test's cassette rules) and
  /// the default rules, then masked as logs are: attachments end up in CI artifacts, which are
  /// no place for credentials.
  ///
  /// A body shows its first ``LogRedaction/shownBytes`` and says how many more bytes it had:
  /// only that part (and the few KiB after it that a value straddling the cut needs) is
  /// redacted and masked. A 1 MB body cost seconds of CPU in a debug build, the one `swift test`
  /// runs, and no reader scrolls through it. Rules that name JSON paths need the whole document
  /// to find them, so with those the bodies are redacted whole before they are cut.
  static func har(of journal: [JournalEntry], testName: String, redaction: Redaction = .default)
    -> HAR
  {
    var rules = redaction.including(.default)
    // A value any cassette of the run declared is masked in every report (Secrets.md), not only
    // in those of the test whose cassette declared it; the rules' own names win.
    rules.knownValues = KnownValues.declaredByName.merging(rules.knownValues) { _, own in own }
    let cutsFirst = rules.jsonPaths.isEmpty
    var omitted: [(request: Int, response: Int)] = []
    let entries = journal.map { entry -> HAR.Entry in
      var request = entry.request
      var cut = (request: 0, response: 0)
      if cutsFirst {
        request.body = request.body.map { Self.window(of: $0, omitted: &cut.request) }
      }
      let response: HAR.Response
      var comment: String?
      if let answer = entry.response, let status = answer.status {
        let body =
          cutsFirst ? answer.body.map { Self.window(of: $0, omitted: &cut.response) } : answer.body
        response = HAR.Response(status: status, headers: answer.headers, body: body)
      } else {
        // HAR 1.2 records failed requests with status 0; the comment says why.
        response = HAR.Response(status: 0, headers: [:], body: nil)
        comment = entry.response?.error ?? outcomeText(entry.outcome)
      }
      omitted.append(cut)
      let duration = entry.response?.duration ?? 0
      var harEntry = HAR.Entry(
        request: request, response: response, startedDateTime: entry.date,
        duration: .milliseconds(Int64(duration * 1000)))
      if cut.response > 0 { harEntry.response.content.size += cut.response }
      // The comment of an unmatched request is its near-miss report.
      harEntry.comment = LogRedaction.mask(comment ?? outcomeText(entry.outcome), noting: true)
      return harEntry
    }
    var document = HAR(entries: entries)
    document.log.comment = "Traffic of \(testName), recorded by Understudy"
    document = rules.redact(document)
    for index in document.log.entries.indices {
      let cut = omitted[index]
      var entry = document.log.entries[index]
      // A body no rule can read (still compressed, in a charset not read) may hide anything:
      // it is left out, and a comment says why.
      for found in UnreadableBody.find(in: [entry]) {
        let note = "body not shown: \(found.problem)"
        if found.path.hasSuffix("request.postData.text"), var postData = entry.request.postData {
          (postData.text, postData.encoding, postData.comment) = ("", nil, note)
          entry.request.postData = postData
        } else {
          entry.response.content.text = ""
          entry.response.content.encoding = nil
          entry.response.content.comment = note
        }
      }
      if var postData = entry.request.postData, postData.encoding == nil {
        postData.text = Self.excerpt(of: postData.text, omittedBefore: cut.request)
        entry.request.postData = postData
      }
      if entry.response.content.encoding == nil, let text = entry.response.content.text {
        entry.response.content.text = Self.excerpt(of: text, omittedBefore: cut.response)
      } else if cut.response > 0 {
        entry.response.content.comment = "… \(cut.response) more bytes, not shown"
      }
      entry.transformRedactableFields { field, value in
        if case .body = field { return value }
        return LogRedaction.mask(field, value)
      }
      // Names too (of headers, parameters, cookies): a credential-shaped name is masked here
      // as it is in the attachment's bytes, so `HAR(journal:)` shows no more than they do.
      entry.transformOtherStrings { LogRedaction.mask($0) }
      document.log.entries[index] = entry
    }
    return document
  }

  /// The part of `body` an attachment reads: what it shows and the lookahead after it. The
  /// bytes left out are added to `omitted`.
  private static func window(of body: Data, omitted: inout Int) -> Data {
    let keep = LogRedaction.shownBytes + LogRedaction.lookaheadBytes
    guard body.count > keep else { return body }
    // Cut where a UTF-8 scalar starts (continuation bytes are 10xxxxxx), so a text body stays
    // text rather than turning into base64.
    var end = body.startIndex + keep
    while end > body.startIndex, body[end] & 0xC0 == 0x80 { end -= 1 }
    omitted += body.endIndex - end
    return body[..<end]
  }

  /// A body's text as an attachment shows it: masked, cut after ``LogRedaction/shownBytes``,
  /// with a last line counting what was left out, here and before (`omittedBefore`).
  private static func excerpt(of text: String, omittedBefore: Int) -> String {
    let (shown, omitted) = LogRedaction.maskedPrefix(of: text, cuttingAlways: omittedBefore > 0)
    let left = omitted + omittedBefore
    return left == 0 ? shown : shown + "\n… \(left) more bytes, not shown"
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
