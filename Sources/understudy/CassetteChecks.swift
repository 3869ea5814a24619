import Understudy

/// The consistency checks `validate` makes on a cassette the loader accepted: what the spec or
/// HTTP rule out, or what would make a replay behave differently from the recording.
struct CassetteChecks {
  /// The file named in every finding.
  var file: String

  func check(_ har: HAR) -> [Diagnostic] {
    var findings: [Diagnostic] = []
    func report(
      _ severity: Diagnostic.Severity, _ path: String, _ problem: String, _ fix: String
    ) {
      findings.append(
        Diagnostic(
          CassetteError(
            kind: .invalidValue, file: file, jsonPath: path, problem: problem, fix: fix),
          severity: severity))
    }
    let log = har.log
    if !["1.1", "1.2"].contains(log.version) {
      report(
        .warning, "log.version",
        "the version is \(QuotedValue.quoted(log.version)); Understudy reads HAR 1.2",
        "Write \"version\": \"1.2\" if the file follows HAR 1.2, or export it again as HAR 1.2.")
    }
    if log.entries.isEmpty {
      report(
        .info, "log.entries", "the archive has no entries",
        "Record or export traffic into it, or delete it if no test replays it.")
    }
    let pageIDs = Set(log.pages.map(\.id))
    for (index, entry) in log.entries.enumerated() {
      let path = "log.entries[\(index)]"
      if let pageref = entry.pageref, !pageIDs.contains(pageref) {
        report(
          .warning, "\(path).pageref",
          "the page \(QuotedValue.quoted(pageref)) is not in log.pages",
          "Remove the pageref, or add the page; `understudy convert` drops pages altogether.")
      }
      checkRequest(entry.request, at: "\(path).request", report)
      checkResponse(entry.response, at: "\(path).response", report)
      checkTimings(entry.timings, at: "\(path).timings", report)
    }
    reportRepeats(log.entries, report)
    return findings
  }

  private typealias Report = (Diagnostic.Severity, String, String, String) -> Void

  private func checkRequest(_ request: HAR.Request, at path: String, _ report: Report) {
    // Never quoted: a value no client sends may carry anything.
    if !ASCIIByte.isMethodToken(request.method) {
      report(
        .error, "\(path).method",
        "the method, a value of \(request.method.count) characters, is not an HTTP token",
        "Write the method in letters, such as \"GET\" or \"POST\".")
    }
    if let problem = urlProblem(request.url) {
      report(
        .error, "\(path).url", problem,
        "Write the absolute URL the request was sent to, with its scheme and host, "
          + "percent-encoding spaces and other characters URLs do not allow.")
    }
    checkHeaders(request.headers, at: "\(path).headers", report)
    let body = request.postData.flatMap(\.body)
    if let postData = request.postData, !postData.text.isEmpty, postData.mimeType.isEmpty {
      report(
        .warning, "\(path).postData", "the request has a body but no mimeType",
        "Add \"mimeType\", such as \"application/json\"; replay and stubs choose body "
          + "matching by it.")
    }
    if request.bodySize > 0, request.postData == nil {
      report(
        .warning, "\(path).bodySize",
        "bodySize says the request sent \(plural(request.bodySize, "byte")) but there is no "
          + "postData",
        "Add the body as postData, or set bodySize to 0; a replayed request will have no body.")
    } else if let body, request.bodySize >= 0, request.bodySize != body.count {
      report(
        .warning, "\(path).bodySize",
        "bodySize is \(request.bodySize) but postData holds \(plural(body.count, "byte"))",
        "Set bodySize to \(body.count), or -1 when unknown.")
    }
  }

  private func checkResponse(_ response: HAR.Response, at path: String, _ report: Report) {
    switch response.status {
    case 100...599:
      break
    case 0:
      report(
        .warning, "\(path).status",
        "status 0 means the request got no response (blocked, cancelled or failed)",
        "Drop the entry (`understudy convert` drops these), or record it again; replay refuses "
          + "a request that matches it and `understudy stub` writes no stub for it.")
    case 600...999:
      report(
        .warning, "\(path).status", "\(response.status) is outside the HTTP status range 100-599",
        "Check that this is the status the server sent.")
    default:
      report(
        .error, "\(path).status", "\(response.status) is not an HTTP status",
        "Write the status the server sent, from 100 to 599.")
    }
    checkHeaders(response.headers, at: "\(path).headers", report)
    for (index, header) in response.headers.enumerated() where !header.name.isEmpty {
      if let problem = StubResponse.fieldProblem(name: header.name, value: header.value) {
        report(
          .error, "\(path).headers[\(index)]", problem,
          "Correct the header or remove it; replay refuses a request that matches this entry.")
      }
    }
    let content = response.content
    let body = content.body ?? Data()
    if !body.isEmpty, content.mimeType.isEmpty {
      report(
        .warning, "\(path).content", "the response has a body but no mimeType",
        "Add \"mimeType\" with the Content-Type the server sent, such as \"application/json\".")
    }
    if let omitted = content.omittedSize {
      report(
        .warning, "\(path).content",
        "the exporter left out the body: size says \(plural(omitted, "byte")) but there is no "
          + "text, so replay refuses a request that matches this entry",
        "Export the HAR again with bodies included (browsers: \"Save all as HAR with "
          + "content\"), record the exchange again, or answer it with a stub.")
    }
    if content.text != nil, content.size >= 0, content.size != body.count {
      report(
        .warning, "\(path).content.size",
        "size is \(content.size) but the text holds \(plural(body.count, "byte"))",
        "Set size to \(body.count), the length of the body in bytes.")
    }
    let compressed =
      content.compression != nil
      || response.headers.contains { $0.name.lowercased() == "content-encoding" }
    if content.text != nil, response.bodySize >= 0, response.bodySize != body.count,
      !compressed, response.status != 304
    {
      report(
        .warning, "\(path).bodySize",
        "bodySize is \(response.bodySize) but the content holds \(plural(body.count, "byte")) "
          + "and nothing says it was compressed",
        "Set bodySize to \(body.count), or to -1 when the transferred size is unknown.")
    }
    // A 304's body is a browser's cached copy, which replay keeps; a 204's never reached anyone.
    if response.status == 204, !body.isEmpty {
      report(
        .warning, "\(path).content",
        "a 204 response holds \(plural(body.count, "byte")) of body, which no client reads after "
          + "a 204's head, so replay leaves them out",
        "Remove content.text, or write the status the server sent.")
    }
    let hasLocation = response.headers.contains { $0.name.lowercased() == "location" }
    if [301, 302, 303, 307, 308].contains(response.status), !hasLocation,
      response.redirectURL.isEmpty
    {
      report(
        .warning, path, "the redirect (\(response.status)) has no Location header or redirectURL",
        "Add the Location header the server sent; without it a replay cannot follow the "
          + "redirect.")
    }
  }

  private func checkHeaders(_ headers: [HAR.Header], at path: String, _ report: Report) {
    for (index, header) in headers.enumerated() where header.name.isEmpty {
      report(
        .error, "\(path)[\(index)].name", "the header has no name",
        "Write the header's name, or remove the header.")
    }
  }

  private func checkTimings(_ timings: HAR.Timings, at path: String, _ report: Report) {
    let phases: [(String, Double, Double)] = [
      ("blocked", timings.blocked, -1), ("dns", timings.dns, -1),
      ("connect", timings.connect, -1), ("send", timings.send, 0), ("wait", timings.wait, 0),
      ("receive", timings.receive, 0), ("ssl", timings.ssl, -1),
    ]
    for (name, value, minimum) in phases where value < minimum {
      report(
        .warning, "\(path).\(name)", "\(name) is \(value)",
        minimum < 0
          ? "Write -1 for a phase that did not apply, or the milliseconds it took."
          : "Write the milliseconds it took; HAR 1.2 does not allow -1 for \(name).")
    }
  }

  /// One info per group of exchanges that are identical: same request, same response.
  private func reportRepeats(_ entries: [HAR.Entry], _ report: Report) {
    struct Exchange: Hashable {
      var method: String
      var url: String
      var requestBody: Data?
      var status: Int
      var responseBody: Data?
    }
    var groups: [Exchange: [Int]] = [:]
    var order: [Exchange] = []
    for (index, entry) in entries.enumerated() {
      let exchange = Exchange(
        method: entry.request.method, url: entry.request.url,
        requestBody: entry.request.postData?.body, status: entry.response.status,
        responseBody: entry.response.content.body)
      if groups[exchange] == nil { order.append(exchange) }
      groups[exchange, default: []].append(index)
    }
    for exchange in order {
      guard let indexes = groups[exchange], indexes.count > 1 else { continue }
      let others = indexes.dropFirst().map(String.init).joined(separator: ", ")
      report(
        .info, "log.entries[\(indexes[0])]",
        "\(LogRedaction.shown(method: exchange.method)) \(LogRedaction.mask(url: exchange.url)) and its response are repeated identically in "
          + "entries \(others)",
        "Nothing to fix: replay answers each copy once, in order. Remove the copies if the code "
          + "under test should send the request once.")
    }
  }

  /// What is wrong with `url` as a request URL, or `nil`; parsed as replay parses it.
  private func urlProblem(_ url: String) -> String? {
    guard let parsed = URL(string: url) else {
      return "\"\(url)\" is not a URL Foundation can parse"
    }
    guard let scheme = parsed.scheme, !scheme.isEmpty else {
      return "\"\(url)\" has no scheme; a request URL is absolute"
    }
    if ["http", "https"].contains(scheme.lowercased()), (parsed.host ?? "").isEmpty {
      return "\"\(url)\" has no host"
    }
    return nil
  }
}
