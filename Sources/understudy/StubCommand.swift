import Understudy

/// `understudy stub`: Swift code declaring stubs for a cassette's entries.
enum StubCommand: Command {
  static let name = "stub"
  static let summary = "Print Swift code declaring stubs for the entries of a HAR file."
  static let usage = "understudy stub <file.har> [--entry N]... [--registry NAME]"
  static let discussion = """
    Prints `registry.stub(pattern, response)` for each chosen entry (all by default), ready to
    paste into a test. The pattern is the method and URL (.get, .post, … or .request for other
    methods) with a .query(name, value) for each query item, and the request body as .jsonBody,
    .formBody or .body. The response is .json(string:status:headers:) for JSON,
    .text(_:status:headers:) for other text, .data(Data(base64Encoded:)!, status:headers:) for
    binary bodies, and StubResponse(status:headers:) when there is no body. Transfer headers
    (Content-Length, Content-Encoding, Transfer-Encoding, Connection) are left out.

    Entries with the same pattern become one stub answering with their responses in order
    (`sequence:`). The default redaction is applied first, so credentials do not end up in test
    code; anything credential-shaped that remains is listed on standard error. A redacted
    request value cannot be sent again, so it is matched by presence: .query(name) for a query
    item, .formField(name) for a form field, and for a JSON body a .jsonBody(subset:) of the
    rest with .body(containing: "\"name\"") for each redacted member; a text body becomes
    .body(matching:) with the placeholder matching any value.
    """
  static let options = [
    OptionSpec(
      "--entry", kind: .repeatable("N"),
      help: "Only this entry, numbered from 0 as `understudy inspect` shows."),
    OptionSpec(
      "--registry", kind: .value("NAME"),
      help: "The StubRegistry expression to call stub on (default: registry)."),
  ]
  static let examples = [
    "understudy stub Fixtures/HAR/chrome-export.har",
    "understudy stub recording.har --entry 0 --entry 2 --registry self.registry",
  ]

  static func run(_ arguments: CommandLineArguments) throws(CLIError) -> ExitCode {
    let path = try file(arguments)
    let registry = arguments.value("--registry") ?? "registry"
    let identifier = #"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$"#
    guard registry.range(of: identifier, options: .regularExpression) != nil else {
      throw .usage(
        "--registry \(registry) is not a Swift name; give a variable or property such as "
          + "registry or self.stubs.",
        of: self)
    }
    var wanted: [Int] = []
    for text in arguments.values("--entry") {
      guard let index = Int(text), index >= 0 else {
        throw .usage("--entry \(text) is not an entry number; entries count from 0.", of: self)
      }
      wanted.append(index)
    }
    let original = try CassetteFile.load(path)
    // An unreadable body (compressed, or in a charset not read) would be printed as base64
    // that still holds what redaction could not read; every command refuses it alike.
    let chosenIndexes = original.log.entries.indices.filter {
      wanted.isEmpty || wanted.contains($0)
    }
    let unreadable = UnreadableBodies.find(
      in: chosenIndexes.map { original.log.entries[$0] }, indexes: chosenIndexes)
    if !unreadable.isEmpty {
      throw UnreadableBodies.refusal(unreadable, in: path, output: "stubs")
    }
    let har = Redaction.default.redact(original)
    let count = har.log.entries.count
    if let missing = wanted.first(where: { $0 >= count }) {
      throw .usage(
        "\(path) has no entry \(missing): it has \(plural(count, "entry"))"
          + (count > 0 ? ", numbered 0 to \(count - 1)." : "."),
        of: self)
    }
    let selected = har.log.entries.enumerated()
      .filter { wanted.isEmpty || wanted.contains($0.offset) }
      .map { (index: $0.offset, entry: $0.element) }
    // The rule replay follows: an entry it would refuse makes no stub either.
    let unusable = selected.compactMap { item in
      item.entry.replayProblem.map { "entry \(item.index), which \($0)" }
    }
    let chosen = selected.filter { $0.entry.replayProblem == nil }
    let source = URL(fileURLWithPath: path).lastPathComponent
    let (code, skipped) = SwiftStubWriter(registry: registry).code(for: chosen, source: source)
    Console.print(code)
    for reason in unusable + skipped {
      Console.error("\(path): skipped \(reason); write a stub for it by hand.")
    }
    let findings = CredentialScanner().scan(HAR(entries: chosen.map(\.entry)))
    if !findings.isEmpty {
      Console.error(
        "\(path): the generated code holds \(plural(findings.count, "credential-shaped value")) "
          + "the default redaction does not cover:\n"
          + findings.map { "  \($0.renumbered(chosen.map(\.index)))" }.joined(separator: "\n")
          + "\nRedact the file first with `understudy redact` and the rules these need.")
    }
    return .success
  }
}
