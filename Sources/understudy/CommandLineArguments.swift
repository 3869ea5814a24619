/// An option a command accepts: `--json`, `-o out.har`, `--header NAME` (repeatable).
struct OptionSpec {
  enum Kind {
    /// Present or not.
    case flag
    /// Takes one value, given at most once.
    case value(String)
    /// Takes one value each time it is given.
    case repeatable(String)
  }

  /// Every spelling, the long one first: `["--output", "-o"]`.
  var names: [String]
  var kind: Kind
  /// One line for `--help`.
  var help: String

  init(_ names: String..., kind: Kind = .flag, help: String) {
    self.names = names
    self.kind = kind
    self.help = help
  }

  /// The spelling results are filed under.
  var key: String { names[0] }

  /// `-o, --output <out.har>` as `--help` shows it.
  var synopsis: String {
    let spellings = names.sorted { $0.count < $1.count }.joined(separator: ", ")
    switch kind {
    case .flag: return spellings
    case .value(let placeholder): return "\(spellings) \(placeholder)"
    case .repeatable(let placeholder): return "\(spellings) \(placeholder)..."
    }
  }
}

/// A command's arguments, read by hand against its ``OptionSpec``s: `--name value`,
/// `--name=value`, `-o value`, and `--` before arguments that start with a dash.
struct CommandLineArguments {
  /// The arguments that are not options, in order.
  private(set) var positionals: [String] = []
  /// Whether `-h` or `--help` was given (before any `--`).
  private(set) var wantsHelp = false
  private var values: [String: [String]] = [:]

  /// Parses `arguments` (the words after the command's name).
  ///
  /// - Throws: A usage message for an unknown option, a missing value, or a value-taking option
  ///   given twice.
  init(_ arguments: [String], options: [OptionSpec]) throws(UsageProblem) {
    let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
    if arguments[..<end].contains(where: { $0 == "-h" || $0 == "--help" }) {
      wantsHelp = true
      return
    }
    var index = arguments.startIndex
    while index < arguments.endIndex {
      let argument = arguments[index]
      index += 1
      if argument == "--" {
        positionals += arguments[index...]
        break
      }
      guard argument.hasPrefix("-"), argument != "-" else {
        positionals.append(argument)
        continue
      }
      var name = argument
      var attached: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        attached = String(argument[argument.index(after: equals)...])
      }
      guard let option = options.first(where: { $0.names.contains(name) }) else {
        throw UsageProblem(
          "Unknown option \(name)."
            + Self.suggestion(for: name, among: options.flatMap(\.names)))
      }
      switch option.kind {
      case .flag:
        guard attached == nil else {
          throw UsageProblem("The option \(name) takes no value; write it alone.")
        }
        values[option.key, default: []].append("")
      case .value(let placeholder), .repeatable(let placeholder):
        let value: String
        if let attached {
          value = attached
        } else if index < arguments.endIndex {
          value = arguments[index]
          index += 1
        } else {
          throw UsageProblem("The option \(name) needs a value: \(name) \(placeholder).")
        }
        if case .value = option.kind, values[option.key] != nil {
          throw UsageProblem("The option \(name) is given twice; give it once.")
        }
        values[option.key, default: []].append(value)
      }
    }
  }

  /// Whether the flag `name` (its first spelling) was given.
  func flag(_ name: String) -> Bool { values[name] != nil }

  /// The value of option `name`, or `nil` when it was not given.
  func value(_ name: String) -> String? { values[name]?.last }

  /// Every value of the repeatable option `name`, in order.
  func values(_ name: String) -> [String] { values[name] ?? [] }

  /// ` Did you mean --json?` when a known name is one or two edits away, else nothing.
  static func suggestion(for word: String, among names: [String]) -> String {
    let closest = names.map { (name: $0, distance: editDistance(word, $0)) }
      .min { $0.distance < $1.distance }
    guard let closest, closest.distance <= 2 else { return "" }
    return " Did you mean \(closest.name)?"
  }

  /// Levenshtein distance, for suggestions.
  private static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
      var current = [i + 1]
      for (j, y) in b.enumerated() {
        current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
      }
      previous = current
    }
    return previous[b.count]
  }
}

/// What is wrong with a command line, as a sentence; the caller adds the usage.
struct UsageProblem: Error {
  var message: String

  init(_ message: String) {
    self.message = message
  }
}
