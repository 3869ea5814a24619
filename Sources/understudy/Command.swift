import Understudy

/// A subcommand of `understudy`: its name, its help, and what it does.
protocol Command {
  /// The word after `understudy`.
  static var name: String { get }
  /// One line for the command list.
  static var summary: String { get }
  /// The synopsis: `understudy inspect <file.har> [--json]`.
  static var usage: String { get }
  /// What the command does, in a paragraph or two.
  static var discussion: String { get }
  /// The options it accepts; `--help` is always accepted.
  static var options: [OptionSpec] { get }
  /// Invocations to copy.
  static var examples: [String] { get }

  /// Runs the command; output goes to standard output, problems to standard error.
  static func run(_ arguments: CommandLineArguments) async throws(CLIError) -> ExitCode
}

extension Command {
  /// The text of `understudy <command> --help`.
  static var help: String {
    var sections = ["Usage: \(usage)", discussion]
    let rows = options.map { ($0.synopsis, $0.help) } + [("-h, --help", "Show this help.")]
    let width = rows.map(\.0.count).max() ?? 0
    sections.append(
      "Options:\n"
        + rows.map { "  " + $0.0.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.1 }
        .joined(separator: "\n"))
    if !examples.isEmpty {
      sections.append("Examples:\n" + examples.map { "  " + $0 }.joined(separator: "\n"))
    }
    sections.append(ExitCode.documentation)
    return sections.joined(separator: "\n\n")
  }

  /// Parses `arguments` against ``options``.
  static func parse(_ arguments: [String]) throws(CLIError) -> CommandLineArguments {
    do {
      return try CommandLineArguments(arguments, options: options)
    } catch {
      throw .usage(error.message, of: self)
    }
  }

  /// The HAR files named on the command line: at least one.
  static func files(_ arguments: CommandLineArguments) throws(CLIError) -> [String] {
    guard !arguments.positionals.isEmpty else {
      throw .usage("Name the HAR file to read.", of: self)
    }
    return arguments.positionals
  }

  /// The one HAR file named on the command line.
  static func file(_ arguments: CommandLineArguments) throws(CLIError) -> String {
    let files = try files(arguments)
    guard files.count == 1 else {
      throw .usage(
        "Expected one HAR file but got \(files.count): \(files.joined(separator: " ")).", of: self)
    }
    return files[0]
  }
}
