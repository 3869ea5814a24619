import Foundation
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
    OptionSpec(
      "--value-from-env", kind: .repeatable("NAME"),
      help:
        "Also redact the value of environment variable NAME wherever it stands, in every "
        + "spelling, as <redacted:NAME> (the value never goes on the command line)."),
  ]

  /// The default rules plus those the arguments add.
  static func redaction(from arguments: CommandLineArguments, for command: any Command.Type)
    throws(CLIError) -> Redaction
  {
    var redaction = Redaction.default
    // An empty value names nothing: the run would redact less than the command line says.
    for option in ["--header", "--query", "--json-path", "--body-regex", "--value-from-env"]
    where arguments.values(option).contains(where: { $0.isEmpty }) {
      throw .usage("\(option) needs a value; an empty one matches nothing.", of: command)
    }
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
    // Named, never given: a value on the command line would stand in the shell's history and
    // in every process listing.
    var values: [String: String] = [:]
    let environment = ProcessInfo.processInfo.environment
    for name in arguments.values("--value-from-env") {
      guard let value = environment[name].map(KnownValues.normalized), !value.isEmpty else {
        throw .usage(
          "--value-from-env \(name): no such environment variable is set (or it is empty); "
            + "export it before running the command.", of: command)
      }
      // A value this short would replace every place it occurs (`…` masked every ellipsis the
      // tool printed): it is no secret worth a placeholder.
      guard value.count >= Redaction.minimumEchoLength else {
        throw .usage(
          "--value-from-env \(name): the value has \(value.count) characters; a secret has at "
            + "least \(Redaction.minimumEchoLength), and a shorter value would replace every "
            + "place it occurs.", of: command)
      }
      values[name] = value
    }
    if !values.isEmpty {
      redaction = redaction.redactingValues(values)
      // Everything the tool prints masks them too, as it masks the environment's.
      KnownValues.declare(values)
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
    let changed = changedEntries.count
    guard !replaced.isEmpty else {
      // The placeholders could not be counted, but the entries did change: say so.
      return changed == 0
        ? ["Nothing matched the redaction rules."]
        : ["Redacted values in \(changed) of \(plural(after.log.entries.count, "entry"))."]
    }
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
    var counts: [String: Int] = [:]
    // Bodies are searched as they are, not encoded into the entry's JSON first: a placeholder
    // reads the same in both (its name holds no quote, backslash or space), and encoding a
    // 50 MB body only to search it cost as much as redacting it.
    var rest = entry
    rest.request.postData?.text = ""
    rest.response.content.text = ""
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    if let data = try? encoder.encode(HARReference(rest)) {
      count(in: String(decoding: data, as: UTF8.self), into: &counts)
    }
    if let text = entry.request.postData?.text { count(in: text, into: &counts) }
    if let text = entry.response.content.text { count(in: text, into: &counts) }
    // A base64 body is read as redaction reads it: UTF-16 text is no UTF-8.
    if let postData = entry.request.postData, postData.encoding != nil, let body = postData.body {
      count(in: readable(body, mimeType: postData.mimeType), into: &counts)
    }
    if entry.response.content.encoding != nil, let body = entry.response.content.body {
      count(in: readable(body, mimeType: entry.response.content.mimeType), into: &counts)
    }
    return counts
  }

  private static func readable(_ body: Data, mimeType: String) -> String {
    BodyCharset.text(of: body, mimeType: mimeType)?.text ?? String(decoding: body, as: UTF8.self)
  }

  /// Adds the placeholders in `text` to `counts`. Every placeholder holds the word `redacted`,
  /// so the expression only runs where that word follows `<` or `%3C`, anchored there, over a
  /// window long enough for any rule's name: a pass over the bytes instead of an expression
  /// over 50 MB of UTF-16.
  private static func count(in text: String, into counts: inout [String: Int]) {
    var text = text
    text.withUTF8 { bytes in
      let word = Array("redacted".utf8)
      var resume = 0
      var index = 0
      while index + word.count <= bytes.count {
        defer { index += 1 }
        guard bytes[index] | 0x20 == word[0],
          (1..<word.count).allSatisfy({ bytes[index + $0] | 0x20 == word[$0] })
        else { continue }
        let start: Int
        if index >= 1, bytes[index - 1] == UInt8(ascii: "<") {
          start = index - 1
        } else if index >= 3, bytes[index - 3] == UInt8(ascii: "%"),
          bytes[index - 2] == UInt8(ascii: "3"), bytes[index - 1] | 0x20 == UInt8(ascii: "c")
        {
          start = index - 3
        } else {
          continue
        }
        guard start >= resume else { continue }
        let window = String(
          decoding: UnsafeBufferPointer(rebasing: bytes[start..<min(bytes.count, start + 1024)]),
          as: UTF8.self)
        guard
          let match = placeholder.firstMatch(
            in: window, options: [.anchored], range: NSRange(window.startIndex..., in: window)),
          let whole = Range(match.range, in: window),
          let group = (1...3).first(where: { match.range(at: $0).location != NSNotFound }),
          let name = Range(match.range(at: group), in: window)
        else { continue }
        // A name made of a JSON member's text is percent-encoded (`%7B_x_:_token`).
        let decoded = String(window[name]).removingPercentEncoding ?? String(window[name])
        counts[decoded.lowercased(), default: 0] += 1
        resume = start + window[..<whole.upperBound].utf8.count
      }
    }
  }

  /// Every spelling of a placeholder, as the library writes them (the last inside a URL's host).
  private static let placeholder = try! NSRegularExpression(
    pattern: "<redacted:([^<>\\s\"]+)>|%3Credacted:((?:[^<>\\s\"%&=#]|%(?!3E)[0-9A-F]{2})+)%3E"
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
