import Understudy

/// `understudy scan`: credential-shaped values left in cassettes.
enum ScanCommand: Command {
  static let name = "scan"
  static let summary = "Look for credentials left in HAR files; exit 1 when any is found."
  static let usage = "understudy scan <file.har>... [--allow VALUE]..."
  static let discussion = """
    Reads every member of each file as it is written, base64 bodies decoded, for values shaped
    like credentials: bearer tokens, Basic credentials, JSON Web Tokens, AWS access keys, GitHub,
    GitLab, Slack, Stripe, Google and OpenAI-style keys, PEM private keys. Placeholders left by
    redaction are not reported. Each finding is printed to standard output as
    `file: json.path: kind (excerpt)`; the excerpt shows the start of the value and its length,
    never the whole secret, so the report itself is safe to log.

    Use it in CI before committing cassettes. A value a test uses on purpose can be allowed
    with --allow, compared with the credential itself or the whole match (`Bearer abc123`).
    """
  static let options = [allowOption]

  /// `--allow VALUE`, which `convert` takes too.
  static let allowOption = OptionSpec(
    "--allow", kind: .repeatable("VALUE"),
    help: "Accept this exact credential-shaped value (a test token); report the rest.")

  /// A scanner that accepts the values given with `--allow`.
  static func scanner(allowing arguments: CommandLineArguments) -> CredentialScanner {
    CredentialScanner(allowing: arguments.values("--allow").map { .value($0) })
  }
  static let examples = [
    "understudy scan Tests/Cassettes/*.har",
    "understudy scan login.har --allow sk_test_fixture0000000000",
  ]

  static func run(_ arguments: CommandLineArguments) throws(CLIError) -> ExitCode {
    let paths = try files(arguments)
    let scanner = scanner(allowing: arguments)
    var exitCode = ExitCode.success
    var total = 0
    var filesWithFindings = 0
    var scanned = 0
    for path in paths {
      let har: HAR
      do {
        har = try CassetteFile.load(path)
      } catch {
        Console.error(error.message)
        exitCode = max(exitCode, error.exitCode)
        continue
      }
      scanned += 1
      let findings = scanner.scan(har)
      for finding in findings { Console.print("\(path): \(finding)") }
      total += findings.count
      if !findings.isEmpty { filesWithFindings += 1 }
    }
    let files = plural(scanned, "file")
    if total == 0 {
      Console.print("No credentials found in \(files).")
      return exitCode
    }
    Console.print(
      "Found \(plural(total, "credential-shaped value")) in \(filesWithFindings) of \(files).\n"
        + "Redact them with `understudy redact <file.har> --in-place` (add --header, --query, "
        + "--json-path or --body-regex for values the default rules miss), or --allow a value "
        + "a test uses on purpose.")
    return max(exitCode, .findings)
  }
}
