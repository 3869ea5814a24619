import Understudy

#if Server
  import UnderstudyServer
#endif

/// `understudy record`: a recording reverse proxy, so traffic from any client (an app, `curl`,
/// another language's tests) becomes a cassette exactly as a recording test makes one.
enum RecordCommand: ServingCommand {
  static let name = "record"
  static let summary = "Record a cassette through a reverse proxy on 127.0.0.1 (Server trait)."
  static let usage =
    "understudy record --upstream <URL> --to <file.har> [--port N] [redaction options]"
  static let discussion = """
    Starts an HTTP/1.1 server on 127.0.0.1, prints its URL once it listens, and sends each
    request it receives to the upstream (GET /users/7 goes to <URL>/users/7), answering with
    the upstream's answer. Requests the cassette already answers are replayed from it; the rest
    are sent upstream and recorded under the upstream's URL, repeated requests each in turn.

    Interrupt it (Ctrl-C, SIGINT or SIGTERM) to write the cassette, as a recording test does:
    bodies stored decoded, redacted with the default rules plus the options below, scanned for
    credentials that survived (the cassette is then not written and the findings are listed),
    under the cassette's lock and merged with what another recorder wrote meanwhile. Nothing is
    written before the interruption. Requests for another origin (through the server as an HTTP
    proxy) are refused, never sent.

    This command needs the Server trait (SwiftNIO): build with `swift build --traits Server`.
    """
  static let options: [OptionSpec] =
    [
      OptionSpec(
        "--upstream", kind: .value("URL"),
        help: "The server to record, such as https://api.example.com (a path is a prefix)."),
      OptionSpec(
        "--to", kind: .value("FILE"),
        help: "The cassette to add the recordings to (created when missing)."),
      portOption,
    ] + RedactionOptions.specs
  static let examples = [
    "understudy record --upstream https://api.example.com --to Tests/Cassettes/cart.har",
    "understudy record --upstream http://127.0.0.1:9000 --to cart.har --header X-Session",
  ]

  static func run(_ arguments: CommandLineArguments) async throws(CLIError) -> ExitCode {
    #if Server
      guard arguments.positionals.isEmpty else {
        throw .usage(
          "Unexpected \(arguments.positionals.joined(separator: " ")): name the cassette with --to.",
          of: self)
      }
      guard let upstream = try serverURL("--upstream", in: arguments) else {
        throw .usage("Name the server to record with --upstream URL.", of: self)
      }
      let upstreamText = upstream.absoluteString
      guard ["http", "https"].contains(upstream.scheme?.lowercased() ?? "") else {
        throw .usage(
          "--upstream \(upstreamText): give an http:// or https:// URL with a host.", of: self)
      }
      guard let path = arguments.value("--to") else {
        throw .usage("Name the cassette to record into with --to FILE.", of: self)
      }
      let port = try port(arguments)
      let redaction = try RedactionOptions.redaction(from: arguments, for: self)
      let existing =
        FileManager.default.fileExists(atPath: path)
        ? try CassetteFile.load(path).log.entries.count : 0
      let cassette = Cassette(
        at: URL(fileURLWithPath: path), mode: .newEpisodes,
        options: CassetteOptions(redaction: redaction),
        recordCommand: "understudy record --upstream \(upstreamText) --to \(path)")
      if let problem = cassette.problem {
        throw CLIError(CassetteFile.asTyped(problem, url: cassette.url, path: path))
      }
      let registry = StubRegistry(journalCapacity: Self.answersKept)
      let prefix =
        upstream.absoluteString.hasSuffix("/")
        ? upstream.absoluteString : upstream.absoluteString + "/"
      // Absolute-form requests keep their own URL; only the upstream is ever contacted.
      registry.stub(
        .custom("a request for another origin than \(upstreamText)") {
          !($0.url.absoluteString + "/").hasPrefix(prefix)
        },
        .text(
          "understudy record sends requests to \(upstreamText) only; this one was not sent.\n",
          status: 502))
      registry.use(cassette)
      let log = logRequests(of: registry)
      let server = try await startServer(registry, port: port, standingInFor: upstream)
      var lines = [
        "Recording at \(server.baseURL.absoluteString): requests go to \(upstreamText), answers "
          + "into \(path)"
      ]
      if existing > 0 {
        lines.append("The \(plural(existing, "entry")) already in \(path) are replayed.")
      }
      if cassette.mode != .newEpisodes {
        lines.append("\(RecordMode.environmentVariable) sets the mode: \(cassette.mode.rawValue).")
      }
      lines.append("Stop with Ctrl-C to write the cassette.")
      announce(lines)
      let signal = await Interruption.wait()
      await server.stop()
      log.cancel()
      let failures = cassette.finish()
      guard failures.isEmpty else {
        for failure in failures { Console.error(failure.message) }
        Console.error(
          "understudy record: \(path) was not written. To redact a value the default rules "
            + "miss, record again with --header, --query, --json-path or --body-regex.")
        return .findings
      }
      let written = (try? HAR.load(contentsOf: cassette.url).log.entries.count) ?? existing
      Console.print(
        written > existing
          ? "Stopped (\(signal)); wrote \(path): \(plural(written - existing, "new entry")), "
            + "\(written) in all."
          : "Stopped (\(signal)); nothing new was recorded, \(path) is unchanged.")
      return .success
    #else
      throw needsServerTrait
    #endif
  }
}
