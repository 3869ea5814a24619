import Understudy

/// `understudy convert`: a browser or proxy export made into a cassette the library replays.
enum ConvertCommand: Command {
  static let name = "convert"
  static let summary = "Turn a browser or proxy HAR export into a redacted, replayable cassette."
  static let usage =
    "understudy convert <export.har> -o <cassette.har> [--keep-host HOST]... [--drop-static] "
    + "[--allow VALUE]... [--allow-credentials] [--header NAME]... [--query NAME]... "
    + "[--json-path PATH]... "
    + "[--body-regex REGEX]... [--value-from-env NAME]..."
  static let discussion = """
    Reads an export from a browser's network panel, Charles, Proxyman or mitmproxy and writes a
    cassette Understudy replays:

      - pages and each entry's pageref, cache, serverIPAddress and connection are dropped, and
        the timings become one `wait` phase equal to the entry's time, as Understudy records them;
      - HTTP/2 pseudo-headers (:authority, :method, :path, :scheme) are dropped;
      - custom members whose names start with `_` are dropped (the loader ignores them);
      - with --keep-host, only requests to the given hosts are kept; a host that matches no
        entry is an error that lists the hosts present, and nothing is written;
      - entries with status 0 (no response was recorded: blocked, cancelled or failed) are
        dropped, since there is nothing to replay;
      - entries whose response body the exporter left out (a size but no text) are kept and
        listed: replay refuses a request that matches one, so export again with bodies;
      - with --drop-static, images, fonts, style sheets and scripts are dropped (by the
        response's mimeType);
      - the default redaction and any rules the options add are applied (see `understudy
        redact --help`);
      - the file is written with sorted keys and headers, so it diffs cleanly.

    Then the credential scanner reads the result. If it still finds something, nothing is
    written: the findings are listed on standard error (JSON paths into the export) and the exit
    code is 1. Add a redaction rule for them; when they are test values, --allow each one (the
    scan still reports anything else), or pass --allow-credentials to skip the scan. A body
    nothing can read (still compressed) or a method that is not an HTTP token is refused even
    then.
    """
  static let options =
    [
      OptionSpec(
        "--output", "-o", kind: .value("<cassette.har>"), help: "Write the cassette here."),
      OptionSpec(
        "--keep-host", kind: .repeatable("HOST"),
        help: "Keep only requests to this host (exact, case-insensitive)."),
      OptionSpec("--drop-static", help: "Drop images, fonts, CSS and JavaScript."),
      ScanCommand.allowOption,
      OptionSpec(
        "--allow-credentials", help: "Write the cassette even if the scanner finds credentials."),
    ] + RedactionOptions.specs
  static let examples = [
    "understudy convert Fixtures/HAR/chrome-export.har -o cart.har --drop-static",
    "understudy convert session.har -o Tests/Cassettes/api.har --keep-host api.example.com "
      + "--header X-Session",
  ]

  static func run(_ arguments: CommandLineArguments) throws(CLIError) -> ExitCode {
    let input = try file(arguments)
    guard let output = arguments.value("--output") else {
      throw .usage("Name the cassette to write with -o <cassette.har>.", of: self)
    }
    if CassetteFile.isSameFile(output, input) {
      throw .usage(
        "Refusing to overwrite the export \(input); give -o the path of the new cassette.",
        of: self)
    }
    let redaction = try RedactionOptions.redaction(from: arguments, for: self)
    let hosts = Set(arguments.values("--keep-host").map { $0.lowercased() })
    let dropStatic = arguments.flag("--drop-static")

    let export = try CassetteFile.load(input)
    var kept: [(index: Int, entry: HAR.Entry)] = []
    var otherHosts: [String: Int] = [:]
    var staticTypes: [String: Int] = [:]
    var unanswered = 0
    var keptHosts: Set<String> = []
    for (index, entry) in export.log.entries.enumerated() {
      let host = URLComponents(string: entry.request.url)?.host?.lowercased() ?? ""
      if !hosts.isEmpty, !hosts.contains(host) {
        otherHosts[host.isEmpty ? "no host" : host, default: 0] += 1
      } else if entry.response.status == 0 {
        // No answer was recorded, so there is nothing to replay; replay would refuse it anyway.
        unanswered += 1
        keptHosts.insert(host)
      } else if dropStatic, let type = staticType(entry.response.content.mimeType) {
        staticTypes[type, default: 0] += 1
        keptHosts.insert(host)
      } else {
        kept.append((index, cleaned(entry)))
        keptHosts.insert(host)
      }
    }
    let unmatchedHosts = hosts.subtracting(keptHosts).sorted()
    if !unmatchedHosts.isEmpty {
      var everyHost: [String: Int] = [:]
      for entry in export.log.entries {
        let host = URLComponents(string: entry.request.url)?.host?.lowercased() ?? ""
        everyHost[host.isEmpty ? "no host" : host, default: 0] += 1
      }
      let present =
        everyHost.isEmpty ? "the file has no entries" : "hosts present: \(tally(everyHost))"
      throw CLIError(
        exitCode: .findings,
        message: "--keep-host \(unmatchedHosts.joined(separator: ", ")) matches no entry of "
          + "\(input) (\(present)); nothing was written. Name a host from that list.")
    }
    let unreadable = UnreadableBodies.find(in: kept.map(\.entry), indexes: kept.map(\.index))
    if !unreadable.isEmpty {
      throw UnreadableBodies.refusal(unreadable, in: input, output: output)
    }
    if let refusal = MalformedMethods.refusal(
      in: kept.map(\.entry), indexes: kept.map(\.index), input: input, output: output)
    {
      throw refusal
    }
    let converted = HAR(entries: kept.map(\.entry))
    let redacted = redaction.redact(converted)

    // The scan reads every string the file will hold; the rules have just run, so it looks for
    // the credential shapes they left rather than running them a second time.
    let findings = ScanCommand.scanner(arguments, redaction: redaction).scan(redacted: redacted)
    if !findings.isEmpty, !arguments.flag("--allow-credentials") {
      let listed = findings.map { "  \(input): \($0.renumbered(kept.map(\.index)))" }
      throw CLIError(
        exitCode: .findings,
        message: "Refusing to write \(output): after redaction the credential scanner still "
          + "finds \(plural(findings.count, "value")) in \(input):\n"
          + listed.joined(separator: "\n")
          + "\nAdd a rule for each (--header, --query, --json-path or --body-regex). If they are "
          + "test values, --allow each one, or pass --allow-credentials to skip the scan.")
    }
    try CassetteFile.write(redacted, to: output)

    // The exporter's name is the file's text like any other: shown as redaction leaves it.
    let shown = redaction.redact(HAR(log: HAR.Log(creator: export.log.creator))).log.creator
    let creator = [shown.name, shown.version]
      .filter { !$0.isEmpty }.joined(separator: " ")
    Console.print(
      "Read \(plural(export.log.entries.count, "entry")) from \(input)"
        + (creator.isEmpty ? "." : " (\(creator))."))
    var dropped: [String] = []
    if !otherHosts.isEmpty {
      dropped.append("\(otherHosts.values.reduce(0, +)) on other hosts (\(tally(otherHosts)))")
    }
    if !staticTypes.isEmpty {
      dropped.append("\(staticTypes.values.reduce(0, +)) static (\(tally(staticTypes)))")
    }
    if unanswered > 0 {
      dropped.append("\(unanswered) with no response (status 0)")
    }
    Console.print(
      "Kept \(plural(kept.count, "entry"))"
        + (dropped.isEmpty ? "." : "; dropped \(dropped.joined(separator: " and ")).")
    )
    if !export.log.pages.isEmpty {
      Console.print("Dropped \(plural(export.log.pages.count, "page")) and every pageref.")
    }
    let omitted = kept.filter { $0.entry.response.content.omittedSize != nil }.map(\.index)
    if !omitted.isEmpty {
      Console.print(
        "Kept \(plural(omitted.count, "entry")) whose response body the exporter left out "
          + "(entries \(omitted.map(String.init).joined(separator: ", ")) of the export); replay "
          + "refuses requests that match them. Export again with bodies included.")
    }
    for line in RedactionOptions.summary(from: converted, to: redacted) { Console.print(line) }
    if !findings.isEmpty {
      Console.print(
        "Kept \(plural(findings.count, "credential-shaped value")) (--allow-credentials).")
    }
    Console.print("Wrote \(output).")
    return .success
  }

  /// The entry without what a replay does not use and exports add: page references, cache
  /// state, the server's address and connection, timing phases and HTTP/2 pseudo-headers.
  private static func cleaned(_ entry: HAR.Entry) -> HAR.Entry {
    var entry = entry
    let time = max(0, entry.time)
    entry.pageref = nil
    entry.time = time
    entry.timings = HAR.Timings(wait: time)
    entry.cache = HAR.Cache()
    entry.serverIPAddress = nil
    entry.connection = nil
    // HTTP/2 pseudo-headers (`:authority`, `:path`) repeat the method and URL.
    entry.request.headers = entry.request.headers.filter { !$0.name.hasPrefix(":") }
      .sortedByName()
    entry.response.headers = entry.response.headers.filter { !$0.name.hasPrefix(":") }
      .sortedByName()
    return entry
  }

  /// The kind of static asset a media type names (`image/png`, `font/woff2`), or `nil`.
  static func staticType(_ mimeType: String) -> String? {
    let type =
      mimeType.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
      ?? ""
    let isStatic =
      type.hasPrefix("image/") || type.hasPrefix("font/") || type == "text/css"
      || type.hasSuffix("javascript") || type.hasSuffix("ecmascript")
      || ["application/font-woff", "application/x-font-ttf", "application/vnd.ms-fontobject"]
        .contains(type)
    return isStatic ? type : nil
  }

  /// `image/png × 2, font/woff2` from counts by name.
  private static func tally(_ counts: [String: Int]) -> String {
    counts.sorted { $0.key < $1.key }
      .map { $0.value == 1 ? $0.key : "\($0.key) × \($0.value)" }
      .joined(separator: ", ")
  }
}
