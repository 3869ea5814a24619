import Understudy

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The entry point: picks the command and turns every outcome into an exit code.
enum CLI {
  /// The commands, in the order `--help` lists them.
  static var commands: [any Command.Type] {
    [
      DemoCommand.self, InspectCommand.self, ValidateCommand.self, RedactCommand.self,
      ScanCommand.self, ConvertCommand.self, StubCommand.self, ServeCommand.self,
      RecordCommand.self,
    ]
  }

  /// The tool's version.
  static let version = "0.1.0"

  static var overview: String {
    """
    understudy: tools for Understudy, the Swift library that stands a fake server in for the
    real one in tests. Try the library with `understudy demo`; inspect, validate, redact, scan
    and convert the HAR cassettes it records and replays; turn them into Swift stubs; serve
    and record them over HTTP (a build with the Server trait).

    Usage: understudy <command> [arguments] [options]

    Commands:
    \(commands.map { "  " + $0.name.padding(toLength: 10, withPad: " ", startingAt: 0) + $0.summary }
      .joined(separator: "\n"))

    Options:
      -h, --help  Show this help; `understudy <command> --help` shows a command's options.
      --version   Print the version.

    Examples:
      understudy demo
      understudy inspect Fixtures/HAR/chrome-export.har
      understudy validate Tests/Cassettes/*.har
      understudy convert export.har -o Tests/Cassettes/cart.har --keep-host api.shop.example.com
      understudy stub Tests/Cassettes/cart.har --entry 2 > Tests/CartStubs.swift
      understudy serve Tests/Cassettes/cart.har --port 8080

    \(ExitCode.documentation)
    """
  }

  static func run(_ arguments: [String]) async -> ExitCode {
    guard let first = arguments.first else {
      Console.error(CLIError.usage("Name a command.", of: nil).message)
      return .usage
    }
    switch first {
    case "-h", "--help", "help":
      Console.print(overview)
      return .success
    case "--version", "version":
      Console.print("understudy \(version)")
      return .success
    default:
      break
    }
    guard let command = commands.first(where: { $0.name == first }) else {
      let problem =
        first.hasPrefix("-")
        ? "Unknown option \(first)."
          + CommandLineArguments.suggestion(for: first, among: ["--help", "--version"])
        : "Unknown command \(QuotedValue.quoted(first))."
          + CommandLineArguments.suggestion(for: first, among: commands.map { $0.name })
      Console.error(CLIError.usage(problem, of: nil).message)
      return .usage
    }
    return await execute(command, Array(arguments.dropFirst()))
  }

  /// Runs `command`; generic rather than on the existential, which crashes the 6.3 compiler
  /// with typed throws.
  private static func execute<C: Command>(_ command: C.Type, _ arguments: [String]) async
    -> ExitCode
  {
    do {
      let parsed = try C.parse(arguments)
      if parsed.wantsHelp {
        Console.print(C.help)
        return .success
      }
      return try await C.run(parsed)
    } catch {
      Console.error(error.message)
      return error.exitCode
    }
  }
}

exit(await CLI.run(Array(CommandLine.arguments.dropFirst())).rawValue)
