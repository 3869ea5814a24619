import Foundation
import Understudy

/// `understudy scan`: values redaction would replace, and credential-shaped values, in HAR files.
enum ScanCommand: Command {
  static let name = "scan"
  static let summary =
    "Look for credentials and values redaction would replace in HAR files; exit 1 when any is found."
  static let usage =
    "understudy scan <file.har>... [--allow VALUE]... [--header NAME]... [--query NAME]... "
    + "[--json-path PATH]... [--body-regex REGEX]... [--value-from-env NAME]..."
  static let discussion = """
    Reports what `understudy redact` with the same options would replace: the headers, query
    parameters, form fields and JSON members of the default rules (see `understudy redact`)
    and those the options add, whatever their values look like, so a browser's or
    mitmproxy's export with a session cookie or an api_key is not called clean. It also reads
    every member of each file as it is written, base64 bodies decoded, for values shaped like
    credentials that no rule names: bearer, Basic and Token authorization, JSON Web Tokens
    with any header, AWS access key IDs and secret keys, GitHub, GitLab, npm, Slack, Stripe,
    Google and OpenAI-style keys, PEM private keys and URL user information. Placeholders
    left by redaction are not reported.

    Each finding is printed to standard output as `file: json.path: kind (excerpt)`. The
    excerpt never holds the secret: a shape shows its label, the first few characters and the
    length; a value redaction replaces shows only the placeholder it would get and the
    length. The report is safe to log.

    Use it in CI before committing cassettes. A value a test uses on purpose can be allowed
    with --allow, compared with the credential itself or the whole match (`Bearer abc123`).
    """
  static let options = [allowOption] + RedactionOptions.specs

  /// `--allow VALUE`, which `convert` takes too.
  static let allowOption = OptionSpec(
    "--allow", kind: .repeatable("VALUE"),
    help: "Accept this exact credential-shaped value (a test token); report the rest.")

  /// A scanner for `redaction`'s rules that accepts the values given with `--allow`.
  static func scanner(_ arguments: CommandLineArguments, redaction: Redaction)
    -> CredentialScanner
  {
    CredentialScanner(
      redaction: redaction, allowing: arguments.values("--allow").map { .value($0) })
  }
  static let examples = [
    "understudy scan Tests/Cassettes/*.har",
    "understudy scan login.har --allow sk_test_fixture0000000000",
    "understudy scan export.har --header X-Session --json-path '$.user.ssn'",
  ]

  static func run(_ arguments: CommandLineArguments) throws(CLIError) -> ExitCode {
    let paths = try files(arguments)
    let scanner = scanner(
      arguments, redaction: try RedactionOptions.redaction(from: arguments, for: self))
    var exitCode = ExitCode.success
    var total = 0
    var unreadable = 0
    var filesWithFindings = 0
    var scanned = 0
    for path in paths {
      let har: HAR
      let bytes: Data
      do {
        (har, bytes) = try CassetteFile.loadWithBytes(path)
      } catch {
        Console.error(error.message)
        exitCode = max(exitCode, error.exitCode)
        continue
      }
      scanned += 1
      // The scanner reports a body it cannot read (still compressed, in a charset not read)
      // as an unreadable body, whose advice differs.
      let modelled = scanner.scan(har)
      unreadable += modelled.filter { $0.kind == .unreadableBody }.count
      var findings = modelled.map(\.description)
      findings += unmodelledFindings(in: bytes, besides: modelled, scanner: scanner)
        .map(\.description)
      for finding in findings { Console.print("\(path): \(finding)") }
      total += findings.count
      if !findings.isEmpty { filesWithFindings += 1 }
    }
    let files = plural(scanned, "file")
    if total == 0 {
      Console.print("No credentials found in \(files).")
      return exitCode
    }
    let credentials = total - unreadable
    let found = [
      credentials > 0 ? plural(credentials, "credential") : nil,
      unreadable > 0 ? plural(unreadable, "unreadable body") : nil,
    ].compactMap { $0 }.joined(separator: " and ")
    var summary = "Found \(found) in \(filesWithFindings) of \(files)."
    if credentials > 0 {
      summary +=
        "\nRedact them with `understudy redact <file.har> --in-place` (add --header, --query, "
        + "--json-path or --body-regex for values the default rules miss), or --allow a value "
        + "a test uses on purpose."
    }
    if unreadable > 0 {
      // `redact` refuses such a file: an unreadable body is read by nothing.
      summary +=
        "\nDecompress the bodies (or export again without compression) and convert bodies in "
        + "other charsets to UTF-8 before redacting: redact refuses a file it cannot read whole."
    }
    Console.print(summary)
    return max(exitCode, .findings)
  }

  /// The HAR 1.2 members the model keeps, whose strings `scanner.scan(har)` has read already;
  /// what sits under any other name is read as written.
  private static let modelledMembers: Set<String> = [
    "log", "version", "creator", "browser", "pages", "entries", "name", "comment",
    "startedDateTime", "id", "title", "pageTimings", "onContentLoad", "onLoad", "pageref", "time",
    "request", "response", "cache", "timings", "serverIPAddress", "connection", "method", "url",
    "httpVersion", "cookies", "headers", "queryString", "postData", "headersSize", "bodySize",
    "value", "path", "domain", "expires", "httpOnly", "secure", "mimeType", "params", "text",
    "fileName", "contentType", "status", "statusText", "content", "redirectURL", "size",
    "compression", "encoding", "beforeRequest", "afterRequest", "lastAccess", "eTag", "hitCount",
    "blocked", "dns", "connect", "send", "wait", "receive", "ssl", "_chunks",
  ]

  /// Whether `data` names a member the way HAR 1.2 names an exporter's own, with a leading `_`
  /// (a `"_` that no backslash escapes), other than Understudy's `_chunks`. Reading the whole
  /// file again as a tree cost three times what scanning a 50 MB body does, so a file without
  /// one is not read again.
  private static func mayHoldExportersMembers(_ data: Data) -> Bool {
    let marker = Data("\"_".utf8)
    var start = data.startIndex
    while let found = data.range(of: marker, in: start..<data.endIndex) {
      start = found.upperBound
      let escaped = found.lowerBound > data.startIndex && data[found.lowerBound - 1] == 0x5C
      if !escaped, !data[found.lowerBound...].starts(with: Data("\"_chunks\"".utf8)) {
        return true
      }
    }
    return false
  }

  /// Credentials in a file's `data` under members the model does not keep (a browser's
  /// `_webSocketMessages`, an exporter's own fields), each string read as they are written, as
  /// a body is read (names and shapes both), since `redact` would not touch them either. The members it keeps are not read twice: a 50 MB
  /// body was. The bytes are the ones the model was decoded from, so the two readings cannot
  /// see different files.
  private static func unmodelledFindings(
    in data: Data, besides reported: [CredentialFinding], scanner: CredentialScanner
  ) -> [CredentialFinding] {
    guard mayHoldExportersMembers(data),
      let document = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    else { return [] }
    let known = Set(reported.map(\.path))
    let rules = CompiledRedaction(scanner.redaction)
    var findings: [CredentialFinding] = []
    func visit(_ value: Any, _ location: String, unmodelled: Bool) {
      switch value {
      case let object as [String: Any]:
        for key in object.keys.sorted() {
          // A location names its members, and a member's name can be a secret (an object keyed
          // by session id): such a name is judged as a placeholder's is, and not printed.
          let shown = PlaceholderNameGate.holdsSecret(key) ? "<redacted>" : key
          let isIdentifier =
            shown == key && !key.isEmpty && !key.first!.isNumber
            && key.allSatisfy {
              $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "$")
            }
          let step = isIdentifier ? (location.isEmpty ? key : ".\(key)") : "[\"\(shown)\"]"
          visit(
            object[key]!, location + step,
            unmodelled: unmodelled || !modelledMembers.contains(key))
        }
      case let array as [Any]:
        for (index, element) in array.enumerated() {
          visit(element, location + "[\(index)]", unmodelled: unmodelled)
        }
      case let text as String where unmodelled && !known.contains(location):
        findings += scanner.scan(unmodelled: text, at: location, rules: rules)
      default:
        break
      }
    }
    visit(document, "", unmodelled: false)
    return findings
  }
}
