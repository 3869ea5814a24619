import Understudy

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
#if Server
  import UnderstudyServer
#endif

/// What `serve` and `record` share: a loopback server on `127.0.0.1` that runs until the
/// process is interrupted, and a one-line answer when the tool was built without SwiftNIO.
protocol ServingCommand: Command {}

extension ServingCommand {
  static var portOption: OptionSpec {
    OptionSpec(
      "--port", kind: .value("N"),
      help: "Listen on 127.0.0.1:N; 0 (the default) takes a free port. The URL is printed.")
  }

  /// The refusal of a build without the `Server` trait: one line, with the way to get it.
  static var needsServerTrait: CLIError {
    CLIError(
      exitCode: .usage,
      message:
        "understudy \(name) needs the Server trait (SwiftNIO), which this build left out: build "
        + "the tool with `swift build --traits Server` (or `swift run --traits Server understudy "
        + "\(name) …`).")
  }

  /// The `--port` value: 0 to 65535.
  static func port(_ arguments: CommandLineArguments) throws(CLIError) -> Int {
    guard let text = arguments.value("--port") else { return 0 }
    guard let port = Int(text), (0...65535).contains(port) else {
      throw .usage("--port \(text): give a port number from 0 to 65535.", of: self)
    }
    return port
  }

  /// The URL an option names (`--upstream`, `--origin`): an absolute URL with a host, and without
  /// user information. A name and password before `@` would be printed in every line that names
  /// the server, and a password holding `@`, `#`, `/` or `%` unescaped makes the URL read as
  /// another host, port or fragment, where no masking can find it; so an `@` anywhere refuses
  /// the value, and the refusal does not repeat it.
  static func serverURL(_ option: String, in arguments: CommandLineArguments) throws(CLIError)
    -> URL?
  {
    guard let text = arguments.value(option) else { return nil }
    if text.contains("@") {
      throw .usage(
        "\(option) has an @, so it names user information (user:password@host), which the tool "
          + "does not take and does not print: give the URL without it, and send credentials in a "
          + "header of the requests themselves (the cassette redacts them); an @ in a path is "
          + "written %40.", of: self)
    }
    guard let url = URL(string: text), origin(of: url) != nil else {
      throw .usage(
        "\(option) \(text): give an absolute URL such as https://api.example.com.", of: self)
    }
    return url
  }

  /// `origin` (scheme, host and port) of `url`, or `nil` when it has no host.
  static func origin(of url: URL) -> URL? {
    guard let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
      return nil
    }
    return URL(string: "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? ""))
  }

  /// Prints `lines` and flushes them at once: a script (or a test) waits for the URL before
  /// the first request, and standard output is buffered when it is a pipe or a file.
  static func announce(_ lines: [String]) {
    for line in lines { Console.print(line) }
    fflush(nil)
  }

  /// How many requests a server's journal keeps: enough for ``logRequests(of:)`` to read each
  /// answer before it is dropped, few enough that a server left running keeps no traffic.
  static var answersKept: Int { 16 }

  /// Prints one line per request as it arrives, until the registry is released.
  static func logRequests(of registry: StubRegistry) -> Task<Void, Never> {
    let entries = registry.journalEntries()
    let rules = CompiledRedaction(registry.cassette?.redaction ?? .default)
    return Task {
      // What redaction took out of the exchanges so far: a later request that repeats a value
      // an earlier one carried (a cookie sent back in a query, a token in a path) shows it
      // masked.
      var secrets: Set<String> = []
      // The stream yields a request as it arrives, before its answer; the journal holds the
      // answers given since (the last `answersKept` of them), each read once.
      var answered: Set<Int> = []
      for await entry in entries {
        secrets.formUnion(entry.removedValues(by: rules))
        let kept = registry.journal
        for earlier in kept where earlier.response != nil && answered.insert(earlier.id).inserted {
          secrets.formUnion(earlier.removedValues(by: rules))
        }
        if let oldest = kept.first?.id { answered = answered.filter { $0 >= oldest } }
        let outcome: String
        switch entry.outcome {
        case .replayed: outcome = "replayed"
        case .passedThrough: outcome = "sent upstream"
        case .unmatched: outcome = "no recorded answer: 404 with the closest entries"
        case .stubbed: outcome = "refused: not for the upstream"
        }
        Console.print(LogRedaction.mask("\(entry.request) — \(outcome)", hiding: secrets))
        fflush(nil)
      }
    }
  }
}

/// Waits for SIGINT or SIGTERM and returns its name; both end a server cleanly.
enum Interruption {
  static func wait() async -> String {
    await withCheckedContinuation { continuation in
      let watcher = Watcher(continuation)
      watcher.start()
    }
  }

  /// Keeps the signal sources alive until the first signal arrives.
  private final class Watcher: @unchecked Sendable {
    // Touched on `queue` only, after `start()`.
    private var sources: [any DispatchSourceSignal] = []
    private var continuation: CheckedContinuation<String, Never>?
    private let queue = DispatchQueue(label: "understudy.interruption")

    init(_ continuation: CheckedContinuation<String, Never>) {
      self.continuation = continuation
    }

    func start() {
      queue.sync {
        for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
          // Dispatch sees the signal only when its default action (ending the process) is off.
          signal(number, SIG_IGN)
          let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
          source.setEventHandler { self.finish(name) }
          source.resume()
          sources.append(source)
        }
      }
    }

    private func finish(_ name: String) {
      guard let continuation else { return }
      self.continuation = nil
      for source in sources { source.cancel() }
      sources = []
      continuation.resume(returning: name)
    }
  }
}

#if Server
  extension ServingCommand {
    /// Starts `registry`'s server on `port`, in the tool's words when the port is taken.
    static func startServer(
      _ registry: StubRegistry, port: Int, standingInFor origin: URL?
    ) async throws(CLIError) -> LoopbackServer {
      do {
        return try await registry.startServer(port: port, standingInFor: origin)
      } catch {
        throw CLIError(
          exitCode: .ioError,
          message:
            "understudy \(name): could not listen on 127.0.0.1:\(port) (\(error)). Pick another "
            + "port with --port, or leave it out for a free one.")
      }
    }
  }
#endif
