import Foundation
import Testing

/// `--help`, `--version`, and what a wrong command line gets: a sentence, the usage, exit 2.
@Suite struct UsageTests {
  static let commands = [
    "demo", "inspect", "validate", "redact", "scan", "convert", "stub", "serve", "record",
  ]

  @Test func helpListsEveryCommandTheExitCodesAndExamples() async throws {
    let result = try await understudy("--help")
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    #expect(result.stdout.contains("Usage: understudy <command> [arguments] [options]"))
    for command in Self.commands {
      #expect(result.stdout.contains("\n  \(command) "), "\(command) is listed")
    }
    #expect(result.stdout.contains("Exit codes:\n  0  success\n  1  findings or invalid input"))
    #expect(result.stdout.contains("  2  usage error"))
    #expect(result.stdout.contains("  3  I/O error"))
    #expect(result.stdout.contains("Examples:\n  understudy demo"))
  }

  @Test(arguments: commands)
  func eachCommandHasHelpWithUsageOptionsAndExamples(_ command: String) async throws {
    let result = try await understudy(command, "--help")
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("Usage: understudy \(command)"))
    #expect(result.stdout.contains("Options:\n"))
    #expect(result.stdout.contains("-h, --help"))
    #expect(result.stdout.contains("Examples:\n  understudy \(command)"))
    #expect(result.stdout.contains("3  I/O error"))
  }

  @Test func helpWinsOverOtherArguments() async throws {
    let result = try await understudy("inspect", "--bogus", "-h")
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("Usage: understudy inspect"))
  }

  @Test func versionIsPrinted() async throws {
    let result = try await understudy("--version")
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("understudy "))
  }

  @Test func noCommandIsAUsageError() async throws {
    let result = try await understudy()
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("Name a command."))
    #expect(result.stderr.contains("Usage: understudy <command>"))
  }

  @Test func unknownCommandSuggestsTheClosestAndPrintsTheUsage() async throws {
    let result = try await understudy("inspekt", "file.har")
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("Unknown command \"inspekt\". Did you mean inspect?"))
    #expect(result.stderr.contains("Run `understudy --help` for the commands."))
  }

  @Test func unknownOptionSuggestsTheClosestAndPrintsTheCommandsUsage() async throws {
    let result = try await understudy("inspect", Fixtures.path("chrome-export.har"), "--jsn")
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("Unknown option --jsn. Did you mean --json?"))
    #expect(result.stderr.contains("Usage: understudy inspect <file.har> [--json]"))
    #expect(result.stderr.contains("Run `understudy inspect --help` for details."))
  }

  static let chrome = Fixtures.path("chrome-export.har")

  /// Command lines that are wrong in one way each, and the sentence that says how.
  static let mistakes: [([String], String)] = [
    (["--verison"], "Unknown option --verison. Did you mean --version?"),
    (["redact", chrome, "-o"], "The option -o needs a value: -o <out.har>."),
    (
      ["stub", chrome, "--registry", "a", "--registry=b"],
      "The option --registry is given twice; give it once."
    ),
    (["inspect", chrome, "--json=yes"], "The option --json takes no value; write it alone."),
    (["inspect"], "Name the HAR file to read."),
    (["inspect", "a.har", "b.har"], "Expected one HAR file but got 2: a.har b.har."),
  ]

  @Test(arguments: mistakes)
  func usageErrorsSayWhatIsWrongAndExitTwo(_ arguments: [String], _ message: String) async throws {
    let result = try await understudy(arguments)
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix(message + "\n\nUsage: understudy "))
  }

  @Test(arguments: ["inspect", "validate", "scan", "stub"])
  func missingFileIsAnIOErrorNamingThePath(_ command: String) async throws {
    let path = "/nonexistent-understudy-dir/cassette.har"
    let result = try await understudy(command, path)
    #expect(result.status == 3)
    #expect(result.output.contains("\(path): error: there is no cassette at this path"))
    #expect(result.output.contains("Record the cassette"))
  }

  @Test func directoryIsAnIOError() async throws {
    let result = try await understudy("inspect", Fixtures.directory.path)
    #expect(result.status == 3)
    #expect(result.stderr.contains("this is a directory, not a cassette file. Name the .har file"))
  }

  /// Every malformed fixture, through every command that reads a file: exit 1, a message that
  /// names the file, no crash, and nothing written.
  @Test(arguments: Fixtures.malformed)
  func malformedFilesFailEveryCommandWithAMessageNamingTheFile(_ name: String) async throws {
    let path = Fixtures.path("malformed/\(name)")
    try await withTemporaryDirectory { directory in
      let output = directory.appendingPathComponent("out.har").path
      let invocations = [
        ["inspect", path], ["inspect", path, "--json"], ["validate", path], ["scan", path],
        ["stub", path], ["redact", path, "-o", output], ["convert", path, "-o", output],
      ]
      for arguments in invocations {
        let result = try await understudy(arguments)
        #expect(result.status == 1, "\(arguments.joined(separator: " ")): \(result.output)")
        #expect(result.output.contains("\(path)"), "\(arguments[0]) names the file")
        #expect(result.output.contains(": error: "), "\(arguments[0]) says it is an error")
        #expect(!FileManager.default.fileExists(atPath: output))
      }
    }
  }
}
