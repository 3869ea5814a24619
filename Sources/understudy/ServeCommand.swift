import Understudy

#if Server
  import UnderstudyServer
#endif

/// `understudy serve`: a cassette replayed by a real HTTP server, for clients no `URLSession`
/// stub reaches (an app under UI test, `curl`, another language's tests).
enum ServeCommand: ServingCommand {
  static let name = "serve"
  static let summary = "Replay a cassette as an HTTP server on 127.0.0.1 (Server trait)."
  static let usage = "understudy serve <file.har> [--port N] [--origin URL] [--allow-repeats]"
  static let discussion = """
    Starts an HTTP/1.1 server on 127.0.0.1, prints its URL once it listens, and answers every
    request from the cassette until interrupted (Ctrl-C, SIGINT or SIGTERM), with the matching
    tests use: method and URL, query items in any order, live requests redacted as the cassette
    was, identical requests answered in recorded order. Entries that cannot be replayed (no
    response, a body that was not kept) answer with the reason. A request the cassette has no
    answer for gets a 404 whose body is the near-miss report, credentials masked.

    Requests sent to the server's own URL (GET /users/7) stand for requests to the cassette's
    origin, the scheme, host and port of its first entry, or --origin. A client that uses the
    server as its HTTP proxy reaches the other http:// origins with their own URLs. Each
    request is printed as it arrives.

    This command needs the Server trait (SwiftNIO): build with `swift build --traits Server`.
    """
  static let options: [OptionSpec] = [
    portOption,
    OptionSpec(
      "--origin", kind: .value("URL"),
      help: "The origin requests to the server stand for (default: the first entry's)."),
    OptionSpec(
      "--allow-repeats",
      help: "Answer a request again with its last recorded answer once every one was used."),
  ]
  static let examples = [
    "understudy serve Tests/Cassettes/cart.har --port 8080",
    "curl http://127.0.0.1:8080/cart",
  ]

  static func run(_ arguments: CommandLineArguments) async throws(CLIError) -> ExitCode {
    #if Server
      let path = try file(arguments)
      // Before anything else, so a refused origin is refused whatever else is wrong.
      let given = try serverURL("--origin", in: arguments).flatMap(origin(of:))
      let port = try port(arguments)
      let har = try CassetteFile.load(path)
      let origins = har.log.entries.compactMap { URL(string: $0.request.url).flatMap(origin(of:)) }
        .reduce(into: [URL]()) { if !$0.contains($1) { $0.append($1) } }
      let standsFor = given ?? origins.first
      let cassette = Cassette(
        at: URL(fileURLWithPath: path), mode: .never,
        options: CassetteOptions(allowsRepeats: arguments.flag("--allow-repeats")),
        recordCommand:
          "understudy record --upstream \(standsFor?.absoluteString ?? "<URL>") --to \(path)")
      guard cassette.mode == .never else {
        throw CLIError(
          exitCode: .usage,
          message:
            "\(RecordMode.environmentVariable)=\(cassette.mode.rawValue) is set, but understudy "
            + "serve only replays, so it never reaches the network: unset it, or record with "
            + "`understudy record --upstream URL --to \(path)`.")
      }
      if let problem = cassette.problem {
        throw CLIError(CassetteFile.asTyped(problem, url: cassette.url, path: path))
      }
      let registry = StubRegistry(journalCapacity: Self.answersKept)
      registry.use(cassette)
      let log = logRequests(of: registry)
      let server = try await startServer(registry, port: port, standingInFor: standsFor)
      var lines = [
        "Serving \(path) (\(plural(har.log.entries.count, "entry"))) at \(server.baseURL.absoluteString)"
      ]
      if let standsFor {
        lines.append("Requests to it stand for \(standsFor.absoluteString).")
      }
      let others = origins.filter { $0 != standsFor }.map(\.absoluteString)
      if !others.isEmpty {
        lines.append(
          "Also recorded: \(others.joined(separator: ", ")); reach an http:// one with the "
            + "server as the client's HTTP proxy, or choose it with --origin.")
      }
      lines.append("Stop with Ctrl-C.")
      announce(lines)
      let signal = await Interruption.wait()
      await server.stop()
      log.cancel()
      Console.print("Stopped (\(signal)).")
      return .success
    #else
      throw needsServerTrait
    #endif
  }
}
