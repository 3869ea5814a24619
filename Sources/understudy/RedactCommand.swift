import Understudy

/// `understudy redact`: replaces credentials with placeholders and writes the result atomically.
enum RedactCommand: Command {
  static let name = "redact"
  static let summary = "Replace credentials in a HAR file with <redacted:NAME> placeholders."
  static let usage =
    "understudy redact <in.har> (-o <out.har> | --in-place) [--header NAME]... [--query NAME]... "
    + "[--json-path PATH]... [--body-regex REGEX]... [--value-from-env NAME]..."
  static let discussion = """
    Applies the rules recording uses (Redaction.default: every header, query parameter, form
    field, JSON member and XML element whose name reads as a credential's, judged by its words
    in any spelling: Authorization, Cookie, X-Client-Pwd, access_token, apiKey, x-api-key,
    secret_key_base, connect.sid, session_id, csrf, signature, otp, pin, and a name that is only
    key or code outside JSON; URL userinfo; and every echo of a redacted value), plus the rules
    the options add. Each value is replaced by a placeholder naming its rule, such as
    <redacted:authorization>, which replay can fill in again.

    The result is written atomically (a reader sees the old file or the new one, never a mix);
    the input is only overwritten with --in-place. A summary of the values replaced, counted
    by rule, goes to standard output. The credential scanner then reads the result: anything
    credential-shaped that no rule covered is listed on standard error and the exit code is 1
    (the file is written all the same). A file with a body nothing can read (still
    compressed) or a method that is not an HTTP token is refused, and nothing is written.
    """
  static let options =
    [
      OptionSpec("--output", "-o", kind: .value("<out.har>"), help: "Write the result here."),
      OptionSpec("--in-place", help: "Replace the input file with the result."),
    ] + RedactionOptions.specs
  static let examples = [
    "understudy redact recording.har -o redacted.har",
    "understudy redact Tests/Cassettes/login.har --in-place --header X-Session "
      + "--json-path '$.user.ssn'",
    "understudy redact export.har -o clean.har --body-regex 'secret=([A-Za-z0-9]+)'",
  ]

  static func run(_ arguments: CommandLineArguments) throws(CLIError) -> ExitCode {
    let input = try file(arguments)
    let output = try destination(arguments, input: input)
    let redaction = try RedactionOptions.redaction(from: arguments, for: self)
    let original = try CassetteFile.load(input)
    let unreadable = UnreadableBodies.find(in: original.log.entries)
    if !unreadable.isEmpty {
      throw UnreadableBodies.refusal(unreadable, in: input, output: output)
    }
    if let refusal = MalformedMethods.refusal(
      in: original.log.entries, input: input, output: output)
    {
      throw refusal
    }
    let redacted = redaction.redact(original)
    try CassetteFile.write(redacted, to: output)
    for line in RedactionOptions.summary(from: original, to: redacted) { Console.print(line) }
    Console.print("Wrote \(output).")
    let remaining = CredentialScanner(redaction: redaction).scan(redacted: redacted)
    guard !remaining.isEmpty else { return .success }
    Console.error(
      "\(output): the credential scanner still finds \(plural(remaining.count, "value")) no "
        + "rule covered:\n" + remaining.map { "  \($0)" }.joined(separator: "\n")
        + "\nAdd a rule for each (--header, --query, --json-path or --body-regex) and run "
        + "redact again.")
    return .findings
  }

  /// Where to write: `-o`, or the input itself with `--in-place`.
  private static func destination(_ arguments: CommandLineArguments, input: String)
    throws(CLIError) -> String
  {
    let output = arguments.value("--output")
    switch (output, arguments.flag("--in-place")) {
    case (nil, false):
      throw .usage(
        "Say where to write: -o <out.har> for a new file, or --in-place to replace \(input).",
        of: self)
    case (.some, true):
      throw .usage("Give either -o or --in-place, not both.", of: self)
    case (nil, true):
      return input
    case (let output?, false):
      if CassetteFile.isSameFile(output, input) {
        throw .usage(
          "Refusing to overwrite the input \(input) without --in-place; add --in-place to "
            + "replace it, or give -o another file.",
          of: self)
      }
      return output
    }
  }
}
