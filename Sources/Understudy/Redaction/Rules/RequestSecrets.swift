import Foundation

/// The values a request holds under credentials' names: a report masks them by name where they
/// stand, and wherever else the request repeats them (a key in the path, in a pair whose name
/// says nothing, in the body, in a stub's `body(containing:)`), as a cassette's echoes are.
enum RequestSecrets {
  /// Values of at least ``Redaction/minimumEchoLength`` characters, longest first: every value
  /// the cassette's redaction removes from `request` (``Redaction/default``'s rules, and the
  /// test's own `redaction` when it has one), the first ``bodyLimit`` bytes of its body read.
  /// One judgement for what a cassette writes and what a report prints, so a report masks a
  /// multipart part, an XML element or a text assignment's value as the cassette would.
  static func values(of request: InterceptedRequest, redaction: Redaction?) -> [String] {
    values(of: request, rules: redaction.map(CompiledRedaction.init))
  }

  /// ``values(of:redaction:)`` with the test's redaction compiled already, for a caller that
  /// reads many requests with it.
  static func values(of request: InterceptedRequest, rules: CompiledRedaction?) -> [String] {
    let entry = entry(of: request)
    var values = CompiledRedaction.forReports.removedValues(from: entry)
    if let rules { values.formUnion(rules.removedValues(from: entry)) }
    return values.filter { $0.count >= Redaction.minimumEchoLength }
      .sorted { $0.count > $1.count }
  }

  /// How much of a body the report's own redaction reads: as much as any report shows
  /// (``LogRedaction/shownBytes``); a value further on is one it does not print.
  static let bodyLimit = LogRedaction.shownBytes

  /// `request`, and `answer` when it has one, as the entry a cassette would record, each body
  /// cut to ``bodyLimit``: what a report or a tool's line asks the rules about.
  static func entry(
    of request: InterceptedRequest, answer: JournalEntry.Response? = nil,
    at date: Date = Date(timeIntervalSince1970: 0)
  ) -> HAR.Entry {
    var request = request
    if let body = request.body, body.count > bodyLimit { request.body = body.prefix(bodyLimit) }
    var response = HAR.Response(status: 0, headers: [:], body: nil)
    if let answer, let status = answer.status {
      response = HAR.Response(
        status: status, headers: answer.headers, body: answer.body.map { $0.prefix(bodyLimit) })
    }
    return HAR.Entry(request: request, response: response, startedDateTime: date, duration: .zero)
  }
}

extension HAR {
  /// Every value the default rules remove from the archive's entries, each text body's first
  /// ``RequestSecrets/bodyLimit`` bytes read: a tool that prints an archive it did not redact
  /// (`understudy inspect`, a miss report listing an export's entries) masks each wherever it
  /// stands, as a token one answer handed out and a later request's path repeats.
  package func removedValuesForLogs() -> Set<String> {
    var values = Set<String>()
    for var entry in log.entries {
      entry.request.postData = entry.request.postData.flatMap { post in
        guard post.encoding == nil else { return nil }
        var cut = post
        cut.text = Self.cut(post.text)
        return cut
      }
      if entry.response.content.encoding == nil, let text = entry.response.content.text {
        entry.response.content.text = Self.cut(text)
      } else {
        entry.response.content.text = nil
      }
      values.formUnion(CompiledRedaction.forReports.removedValues(from: entry))
    }
    return values.filter { $0.count >= Redaction.minimumEchoLength }
  }

  private static func cut(_ text: String) -> String {
    text.utf8.count <= RequestSecrets.bodyLimit
      ? text : String(decoding: text.utf8.prefix(RequestSecrets.bodyLimit), as: UTF8.self)
  }
}
