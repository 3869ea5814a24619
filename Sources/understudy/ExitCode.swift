import Understudy

/// The process's exit status, as `understudy --help` documents it.
enum ExitCode: Int32, Comparable {
  /// The command did what was asked and found nothing wrong.
  case success = 0
  /// The command ran, but found something: an invalid cassette, a credential, a malformed file.
  case findings = 1
  /// The command line itself was wrong: an unknown command or option, a missing argument.
  case usage = 2
  /// A file could not be read or written.
  case ioError = 3

  /// The line `--help` prints for each code.
  static let documentation = """
    Exit codes:
      0  success
      1  findings or invalid input: a malformed or invalid HAR file, credentials found
      2  usage error: unknown command or option, missing or conflicting arguments
      3  I/O error: a file could not be read or written
    """

  /// Combines the results of several files: an I/O error outranks findings, findings outrank
  /// success.
  static func < (lhs: ExitCode, rhs: ExitCode) -> Bool {
    lhs.severity < rhs.severity
  }

  private var severity: Int {
    switch self {
    case .success: return 0
    case .findings: return 1
    case .ioError: return 2
    case .usage: return 3
    }
  }
}

/// Why a command stopped: a message for standard error and the exit code that goes with it.
struct CLIError: Error {
  var exitCode: ExitCode
  /// One or more sentences, naming the file and the fix.
  var message: String

  /// A mistake on the command line; `command`'s usage follows the message.
  static func usage(_ message: String, of command: (any Command.Type)?) -> CLIError {
    let usage =
      command.map { "Usage: \($0.usage)\nRun `understudy \($0.name) --help` for details." }
      ?? "Usage: understudy <command> [arguments] [options]\n"
      + "Run `understudy --help` for the commands."
    return CLIError(exitCode: .usage, message: "\(message)\n\n\(usage)")
  }

  /// A cassette that could not be read or written: the library's own words, with an exit code
  /// that tells a missing or unwritable file (3) from a malformed one (1).
  init(_ error: CassetteError) {
    switch error.kind {
    case .fileMissing, .unreadable, .writeFailed: exitCode = .ioError
    default: exitCode = .findings
    }
    message = Diagnostic(error, severity: .error).rendered
  }

  init(exitCode: ExitCode, message: String) {
    self.exitCode = exitCode
    self.message = message
  }
}
