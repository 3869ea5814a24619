import Understudy

/// `understudy validate`: spec errors from the loader plus consistency checks it does not make.
enum ValidateCommand: Command {
  static let name = "validate"
  static let summary = "Check HAR files against the spec and for inconsistencies."
  static let usage = "understudy validate <file.har>..."
  static let discussion = """
    Loads each file with the library's loader, which reports the first spec error (malformed
    JSON, a member of the wrong type, a missing required member, invalid base64) with its line,
    column and JSON path. A file that loads is then checked for what the loader accepts but a
    replay would trip over:

      error    a request URL that is not an absolute URL, a method that is not an HTTP token,
               a status outside 100-999, a header without a name, a response header
               whose name is not an HTTP token or whose value holds a line break or a NUL
      warning  status 0 (a request that got no response), a body without a mimeType, a size or
               bodySize that disagrees with the body, a redirect without a Location, a negative
               timing, a pageref to a missing page, a HAR version other than 1.1 or 1.2
      info     an archive without entries, exchanges repeated identically

    Findings are printed to standard output as `file:line:column: severity: json.path: problem.
    Fix.`, then a summary line for each file. A file is invalid when it has errors; warnings and
    info do not change the exit code.
    """
  static let options: [OptionSpec] = []
  static let examples = [
    "understudy validate Fixtures/HAR/chrome-export.har",
    "understudy validate Tests/Cassettes/*.har",
  ]

  static func run(_ arguments: CommandLineArguments) throws(CLIError) -> ExitCode {
    var exitCode = ExitCode.success
    var invalid = 0
    let paths = try files(arguments)
    for path in paths {
      let result = validate(path)
      exitCode = max(exitCode, result)
      if result != .success { invalid += 1 }
    }
    if paths.count > 1 {
      Console.print(
        "\(paths.count) files: \(paths.count - invalid) valid, \(invalid) invalid or unreadable.")
    }
    return exitCode
  }

  /// Checks one file and prints its findings and summary.
  private static func validate(_ path: String) -> ExitCode {
    let har: HAR
    let bytes: Data
    do {
      (har, bytes) = try CassetteFile.loadWithBytes(path)
    } catch {
      Console.print(error.message)
      Console.print("\(path): \(error.exitCode == .ioError ? "unreadable" : "invalid").")
      return error.exitCode
    }
    var diagnostics = CassetteChecks(file: path).check(har)
    // Located in the bytes the model came from: a second read could find the file changed (or
    // cut short, which a mapped read does not survive).
    if diagnostics.contains(where: { $0.error.jsonPath != nil }) {
      let located = CassetteError.locating(diagnostics.map(\.error), in: bytes)
      for index in diagnostics.indices { diagnostics[index].error = located[index] }
    }
    for diagnostic in diagnostics { Console.print(diagnostic.rendered) }
    let errors = diagnostics.count { $0.severity == .error }
    let warnings = diagnostics.count { $0.severity == .warning }
    let entries = har.log.entries.count
    let counts = [
      entries == 1 ? "1 entry" : "\(entries) entries", plural(errors, "error"),
      plural(warnings, "warning"),
    ]
    Console.print(
      "\(path): \(errors == 0 ? "valid" : "invalid") (\(counts.joined(separator: ", "))).")
    return errors == 0 ? .success : .findings
  }
}
