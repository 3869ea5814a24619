import Understudy

/// libFuzzer's entry point: the bytes are lines, each fed to one parser.
///
/// 1. a path template, for `RequestPattern.path(_:)`
/// 2. a regular expression, for `.path(matching:)`, `.header(_:matching:)`, redaction body
///    patterns and scanner allowances
/// 3. a redaction JSON path
/// 4. the request's path and query
/// 5. the value of the request's `X-Fuzz` header
/// 6. and on: a JSON body, for `JSONValue(parsing:)`, `.jsonBody`, JSON-path redaction and the
///    default redaction (member names, almost-JSON, forms, echoes of the request's values)
///
/// The header value, the body, and the path with the value are masked as reports are.
///
/// Nothing may crash, and the invariants below must hold: above all, a pattern with problems
/// never matches, and a pattern without problems agrees with the parser it wraps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPatterns(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let lines = Data(bytes: start, count: count).split(
    separator: UInt8(ascii: "\n"), maxSplits: 5, omittingEmptySubsequences: false
  ).map { String(decoding: $0, as: UTF8.self) }
  let field = { (index: Int) in index < lines.count ? lines[index] : "" }
  let request = makeRequest(pathAndQuery: field(3), header: field(4), body: field(5))
  checkTemplate(field(0), request: request)
  checkRegex(field(1), request: request)
  checkJSONPath(field(2), body: field(5))
  checkDefaultRedaction(pathAndQuery: field(3), header: field(4), body: field(5))
  checkJSONBody(field(5), request: request)
  checkMasking([field(4), field(5), field(3) + " " + field(4)])
  return 0
}

private func makeRequest(pathAndQuery: String, header: String, body: String) -> InterceptedRequest {
  let base = "https://fuzz.test"
  let url =
    URL(string: base + pathAndQuery)
    ?? URL(
      string: base + "/"
        + (pathAndQuery.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))!
  return InterceptedRequest(
    method: "POST", url: url, headers: ["X-Fuzz": header], body: Data(body.utf8))
}

private func checkTemplate(_ text: String, request: InterceptedRequest) {
  // The template parser is reached as users reach it, through `.path(_:)`: a template with a
  // problem reports it and never matches, a sound one captures exactly its placeholders.
  let pattern = RequestPattern.path(text)
  if let problem = pattern.problems.first {
    require(problem.hasPrefix("Path template "), "unexpected wording: \(problem)")
    requireNeverMatches(pattern, request, "invalid template \(text)")
    requireNeverMatches(!pattern, request, "negated invalid template \(text)")
    return
  }
  require(pattern.problems.isEmpty, "valid template \(text) has problems \(pattern.problems)")
  _ = pattern.match(request)
  _ = pattern.explain(request)
  // Fill each placeholder with a value of its own; the template must capture exactly those.
  var expected: [String: String] = [:]
  // Split by scalars, as the library reads templates: a `/` followed by a combining mark is
  // one Character, so splitting Characters made a path of a different shape.
  let segments = text.unicodeScalars.dropFirst().split(
    separator: "/", omittingEmptySubsequences: false)
  let concrete = segments.enumerated().map { index, segment -> String in
    guard segment.first == "{" else { return String(segment) }
    let name = String(segment.dropFirst().dropLast())
    if name.hasSuffix("...") {
      expected[String(name.dropLast(3))] = "r\(index)/s"
      return "r\(index)/s"
    }
    expected[String(name)] = "v\(index)"
    return "v\(index)"
  }
  // A template written with characters a URL path cannot hold (a space, `?`, `#`) names the
  // decoded path; such a path is checked only when it can be a request's URL as written. An
  // escape in the template (`%C3%A9`) is compared decoded, and a URL holding it decodes it
  // again: checked through `.path` only without one.
  let path = "/" + concrete.joined(separator: "/")
  guard !path.contains(where: { $0 == "?" || $0 == "#" || $0 == "%" }),
    let url = URL(string: "https://fuzz.test" + path)
  else { return }
  let captures = pattern.match(InterceptedRequest(method: .get, url: url))
  require(captures == expected, "\(text) matched \(path) as \(String(describing: captures))")
}

private func checkRegex(_ expression: String, request: InterceptedRequest) {
  let compiled = try? NSRegularExpression(pattern: expression)
  let path = RequestPattern.path(matching: expression)
  let header = RequestPattern.header("X-Fuzz", matching: expression)
  let bodyPattern = try? Redaction.BodyPattern(name: "fuzz", pattern: expression)
  require((bodyPattern == nil) == (compiled == nil), "BodyPattern disagrees on \(expression)")
  let allowance = try? CredentialScanner.Allowance.pattern(expression)
  require((allowance == nil) == (compiled == nil), "Allowance disagrees on \(expression)")
  let value = request.headers["X-Fuzz"] ?? ""
  let text = String(decoding: request.body ?? Data(), as: UTF8.self)
  // ICU backtracks without a limit, so an expression such as (a+)+$ can run for hours on a
  // 30-character path. The library does not bound that (see Tests/Fuzz/README.md); such inputs are
  // checked for their problems only, so the fuzzer spends its time looking for crashes.
  if let compiled, isSlow(compiled, on: [request.url.path, value, text]) { return }

  for pattern in [path, header, path && header, path || .any, !path] {
    if compiled == nil {
      require(!pattern.problems.isEmpty, "\(pattern) for an invalid regex has no problems")
      requireNeverMatches(pattern, request, "invalid regex \(expression)")
    } else {
      require(pattern.problems.isEmpty, "valid regex \(expression): \(pattern.problems)")
      let matched = pattern.match(request) != nil
      require(
        matched == pattern.explain(request).isMatch,
        "match and explain disagree for \(pattern) on \(request)")
    }
  }
  if let compiled {
    let found = compiled.firstMatch(in: value, range: NSRange(value.startIndex..., in: value))
    require(
      (header.match(request) != nil) == (found != nil),
      "header pattern \(expression) disagrees with NSRegularExpression on \(value)")
  }
  if let bodyPattern, let allowance {
    let entry = makeEntry(body: text, mimeType: "text/plain")
    let redacted = Redaction.none.redactingBodies(bodyPattern).redact(entry)
    _ = try? HAR(entries: [redacted]).encoded()
    _ = CredentialScanner(allowing: [allowance]).scan(text, at: "body")
  }
}

/// Whether `regex` needs more than about 50 ms to find every match in one of `subjects`. ICU
/// calls the block now and then during a long match when asked to report progress, after a fixed
/// amount of matching work (about 3.5 times a millisecond here), so counting those reports rather
/// than reading a clock gives the same verdict on a loaded machine, and CI's fixed-seed pass
/// follows the same path on every run.
private func isSlow(_ regex: NSRegularExpression, on subjects: [String]) -> Bool {
  var reports = 0
  var slow = false
  for subject in subjects where !slow {
    regex.enumerateMatches(
      in: subject, options: [.reportProgress], range: NSRange(subject.startIndex..., in: subject)
    ) { _, flags, stop in
      guard flags.contains(.progress) else { return }
      reports += 1
      if reports > 175 {
        slow = true
        stop.pointee = true
      }
    }
  }
  return slow
}

private func checkJSONPath(_ expression: String, body: String) {
  let path: Redaction.JSONPath
  do {
    path = try Redaction.JSONPath(expression)
  } catch {
    let opening = "The pattern \"\(expression)\" cannot be used: "
    require(error.description.hasPrefix(opening), "the error names another pattern: \(error)")
    require(error.description.count > opening.count, "the error for \(expression) is empty")
    return
  }
  let redaction = Redaction.none.redactingJSON(path)
  let entry = makeEntry(body: body, mimeType: "application/json")
  let redacted = redaction.redact(entry)
  let redactedBody = redacted.response.content.text ?? ""
  require(redaction.redact(redacted) == redacted, "redacting \(expression) twice changes \(body)")
  let isContainer = body.drop { " \t\r\n".contains($0) }.first.map { "[{".contains($0) } ?? false
  if isContainer, (try? JSONValue(parsing: Data(body.utf8))) != nil {
    require(
      (try? JSONValue(parsing: Data(redactedBody.utf8))) != nil,
      "redacting \(expression) made JSON invalid: \(body) became \(redactedBody)")
  }
}

/// The default rules, on a request whose URL, `Authorization` header and body the fuzzer
/// writes and a response that echoes them: redacting twice changes nothing, and valid JSON
/// stays valid.
private func checkDefaultRedaction(pathAndQuery: String, header: String, body: String) {
  for mimeType in ["application/json", ""] {
    var entry = makeEntry(body: body, mimeType: mimeType)
    entry.request.url = "https://fuzz.test/" + pathAndQuery
    entry.request.headers = [HAR.Header(name: "Authorization", value: header)]
    entry.response.headers = [HAR.Header(name: "Location", value: pathAndQuery + header)]
    let once = Redaction.default.redact(HAR(entries: [entry, entry]))
    require(
      Redaction.default.redact(once) == once,
      "default redaction twice changes \(pathAndQuery) / \(header) / \(body)")
    let isContainer = body.drop { " \t\r\n".contains($0) }.first.map { "[{".contains($0) } ?? false
    if isContainer, (try? JSONValue(parsing: Data(body.utf8))) != nil {
      for redacted in once.log.entries.map({ $0.response.content.text ?? "" }) {
        require(
          (try? JSONValue(parsing: Data(redacted.utf8))) != nil,
          "default redaction made JSON invalid: \(body) became \(redacted)")
      }
    }
  }
}

/// Masking, which every report, attachment and line of the tool goes through, must not trap,
/// on what a text holds or on what it wrote itself. (Masking twice is not checked: on texts
/// that are no JSON but hold quotes, which quotes pair up can change once a value between them
/// is masked, and a search finds that at once, before and after the masking changes of
/// 2026-11-27.) A neutral header's description masks its value as a text.
private func checkMasking(_ texts: [String]) {
  for text in texts { _ = masked(masked(text)) }
}

private func masked(_ text: String) -> String {
  let line = HTTPHeaders(["X-Note": text]).description
  return String(line.dropFirst("X-Note: ".count))
}

private func checkJSONBody(_ text: String, request: InterceptedRequest) {
  guard let value = try? JSONValue(parsing: Data(text.utf8)) else {
    require(
      RequestPattern.jsonBody(subset: [:]).match(request) == nil,
      "a body that is not JSON matched .jsonBody(subset: [:]): \(text)")
    return
  }
  let reparsed = try? JSONValue(parsing: Data(value.description.utf8))
  require(reparsed == value, "\(value) does not parse back from its description")
  require(RequestPattern.jsonBody(value).match(request) != nil, "\(value) does not equal itself")
  require(
    RequestPattern.jsonBody(subset: value).match(request) != nil,
    "\(value) is not a subset of itself")
}

private func makeEntry(body: String, mimeType: String) -> HAR.Entry {
  // Built as a user builds one (the members' own initialisers are not public): the body is
  // text, so both hold it as given.
  var entry = HAR.Entry(
    request: InterceptedRequest(method: .post, url: URL(string: "https://fuzz.test/")!),
    response: HAR.Response(status: 200, headers: [:], body: nil),
    startedDateTime: Date(timeIntervalSince1970: 0), duration: .milliseconds(1))
  entry.request.postData = HAR.PostData(body: Data(body.utf8), mimeType: mimeType)
  entry.response.content = HAR.Content(body: Data(body.utf8), mimeType: mimeType)
  return entry
}

private func requireNeverMatches(
  _ pattern: RequestPattern, _ request: InterceptedRequest, _ what: String
) {
  require(!pattern.problems.isEmpty, "\(what): \(pattern) reports no problems")
  require(pattern.match(request) == nil, "\(what): \(pattern) has problems but matched \(request)")
  require(!pattern.explain(request).isMatch, "\(what): \(pattern) explains as a match")
}

private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fail(message()) }
}

/// Stops the process so libFuzzer saves the input: a trap is a "deadly signal" to it.
private func fail(_ message: String) -> Never {
  fatalError("FuzzPatterns invariant failed: \(message)")
}
