import Understudy

/// The redaction rules `redact` and `convert` add to ``Redaction/default`` from the command
/// line, and the summary of what they replaced.
enum RedactionOptions {
  static let specs = [
    OptionSpec(
      "--header", kind: .repeatable("NAME"),
      help: "Also redact this header's values (case-insensitive)."),
    OptionSpec(
      "--query", kind: .repeatable("NAME"),
      help: "Also redact this query parameter or form field (case-insensitive)."),
    OptionSpec(
      "--json-path", kind: .repeatable("PATH"),
      help: "Also redact the JSON body values at PATH, such as $.user.token or $..secret."),
    OptionSpec(
      "--body-regex", kind: .repeatable("REGEX"),
      help: "Also redact body text matching REGEX (only its first group, if it has one)."),
  ]

  /// The default rules plus those the arguments add.
  static func redaction(from arguments: CommandLineArguments, for command: any Command.Type)
    throws(CLIError) -> Redaction
  {
    var redaction = Redaction.default
    redaction.headerNames += arguments.values("--header")
    redaction.queryParameterNames += arguments.values("--query")
    for path in arguments.values("--json-path") {
      do {
        redaction.jsonPaths.append(try Redaction.JSONPath(path))
      } catch {
        throw .usage("--json-path \(path): \(error.problem.asSentence)", of: command)
      }
    }
    let patterns = arguments.values("--body-regex")
    for (index, pattern) in patterns.enumerated() {
      let name = patterns.count == 1 ? "body" : "body\(index + 1)"
      do {
        redaction.bodyPatterns.append(try Redaction.BodyPattern(name: name, pattern: pattern))
      } catch {
        throw .usage("--body-regex \(pattern): \(error.problem.asSentence)", of: command)
      }
    }
    return redaction
  }

  /// How many values each rule replaced going from each entry to its redacted version, by
  /// placeholder name (`authorization`, `access_token`, `user.token`), most first.
  private static func replacements(in changed: [(HAR.Entry, HAR.Entry)])
    -> [(rule: String, count: Int)]
  {
    var counts: [String: Int] = [:]
    for (old, new) in changed {
      let added = placeholders(in: new)
      let existing = placeholders(in: old)
      for (rule, count) in added where count > existing[rule, default: 0] {
        counts[rule, default: 0] += count - existing[rule, default: 0]
      }
    }
    return counts.map { (rule: $0.key, count: $0.value) }
      .sorted { $0.count != $1.count ? $0.count > $1.count : $0.rule < $1.rule }
  }

  /// The summary lines `redact` and `convert` print.
  static func summary(from before: HAR, to after: HAR) -> [String] {
    // Comparing a 50 MB body is a pass over it: each pair is compared once.
    let changedEntries = zip(before.log.entries, after.log.entries).filter { $0 != $1 }
    let replaced = replacements(in: changedEntries)
    guard !replaced.isEmpty else { return ["Nothing matched the redaction rules."] }
    let changed = changedEntries.count
    let total = replaced.map(\.count).reduce(0, +)
    let width = replaced.map(\.rule.count).max() ?? 0
    return [
      "Redacted \(plural(total, "value")) in \(changed) of \(plural(after.log.entries.count, "entry")):"
    ]
      + replaced.map {
        "  " + $0.rule.padding(toLength: width, withPad: " ", startingAt: 0) + "  \($0.count)"
      }
  }

  /// `<redacted:NAME>` and `%3Credacted:NAME%3E` in the entry as it is written, base64 bodies
  /// decoded, counted by name.
  private static func placeholders(in entry: HAR.Entry) -> [String: Int] {
    var texts: [String] = []
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    // A body that never says "redacted" holds no placeholder; encoding a 50 MB one and running
    // the expression over it took longer than the redaction itself.
    var searched = entry
    if let text = searched.request.postData?.text, !mentionsRedacted(text) {
      searched.request.postData?.text = ""
    }
    if let text = searched.response.content.text, !mentionsRedacted(text) {
      searched.response.content.text = ""
    }
    if let data = try? encoder.encode(searched) {
      texts.append(String(decoding: data, as: UTF8.self))
    }
    if entry.request.postData?.encoding != nil, let body = entry.request.postData?.body {
      texts.append(String(decoding: body, as: UTF8.self))
    }
    if entry.response.content.encoding != nil, let body = entry.response.content.body {
      texts.append(String(decoding: body, as: UTF8.self))
    }
    var counts: [String: Int] = [:]
    for text in texts {
      let range = NSRange(text.startIndex..., in: text)
      for match in placeholder.matches(in: text, range: range) {
        guard
          let group = (1...3).first(where: { match.range(at: $0).location != NSNotFound }),
          let name = Range(match.range(at: group), in: text)
        else { continue }
        let decoded = text[name].replacingOccurrences(
          of: "%3A", with: ":", options: .caseInsensitive)
        counts[decoded.lowercased(), default: 0] += 1
      }
    }
    return counts
  }

  /// Every spelling of a placeholder, as the library writes them (the last inside a URL's host).
  /// Whether `text` holds `redacted` in any case, which every placeholder does.
  private static func mentionsRedacted(_ text: String) -> Bool {
    let word = Array("redacted".utf8)
    var text = text
    return text.withUTF8 { bytes in
      guard bytes.count >= word.count else { return false }
      for start in 0...(bytes.count - word.count) where bytes[start] | 0x20 == word[0] {
        if (1..<word.count).allSatisfy({ bytes[start + $0] | 0x20 == word[$0] }) { return true }
      }
      return false
    }
  }

  private static let placeholder = try! NSRegularExpression(
    pattern: "<redacted:([^<>\\s\"]+)>|%3Credacted:([^<>\\s\"%&=#]+)%3E"
      + "|%3Credacted%3A((?:[^<>\\s\"%&=#]|%3A)+)%3E",
    options: [.caseInsensitive])
}

extension CredentialFinding {
  /// The finding with the entry index of its path (`log.entries[1]…`) replaced by
  /// `originalIndexes[1]`, for findings in an archive made of some of another's entries.
  func renumbered(_ originalIndexes: [Int]) -> CredentialFinding {
    let prefix = "log.entries["
    guard path.hasPrefix(prefix), let close = path.firstIndex(of: "]"),
      let index = Int(path[path.index(path.startIndex, offsetBy: prefix.count)..<close]),
      originalIndexes.indices.contains(index)
    else { return self }
    var finding = self
    finding.path = "\(prefix)\(originalIndexes[index])" + path[close...]
    return finding
  }
}
