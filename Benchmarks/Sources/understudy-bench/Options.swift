/// Command-line flags.
struct Options {
  var isCI = false
  var jsonPath: String? = nil
  var only: [String] = []
  var requestsPerRun: Int? = nil
  var pairs: Int? = nil
  var warmUp: Int? = nil
  var side: RunPlan.Side? = nil
  var megabytes: Double? = nil

  static let usage = """
    usage: understudy-bench [--ci] [--json FILE|-] [--only TEXT]... [--requests N] [--pairs N]
                            [--warm-up N] [--side floor|understudy] [--megabytes N]

      --ci          short run (fewer requests and pairs, no full-run-only scenarios); exits 1
                    when a ratio is far past its bar (see Bar.swift for the CI limits)
      --json FILE   also write the results as JSON to FILE ("-" for standard output)
      --only TEXT   run only scenarios whose group or name contains TEXT (repeatable)
      --requests N  requests per timed run (default 5,000; CI 600)
      --pairs N     floor/Understudy pairs of timed runs per scenario (default 9)
      --warm-up N   untimed requests per side before the pairs (default 500; CI 200)
      --side S      profiling aid: run only the floor or only Understudy in timed scenarios,
                    e.g. perf stat -e task-clock understudy-bench --only "one exact" --side floor;
                    for the finish() rows the floor is Foundation parsing a body of their size
      --megabytes N the finish() rows' bodies are about N MB, one run each (instruction counts:
                    Benchmarks/Tools/instruction-ratios.py counts two sizes and subtracts)

    Pin to one CPU for steadier numbers: build with
      swift build -c release --package-path Benchmarks
    then run  taskset -c 0 Benchmarks/.build/release/understudy-bench
    """

  static func parse(_ arguments: some Sequence<String>) throws(UsageError) -> Options {
    var options = Options()
    var iterator = arguments.makeIterator()
    func value(for flag: String) throws(UsageError) -> String {
      guard let value = iterator.next() else { throw UsageError("\(flag) needs a value") }
      return value
    }
    func number(for flag: String) throws(UsageError) -> Int {
      let text = try value(for: flag)
      guard let number = Int(text.replacingOccurrences(of: ",", with: "")), number > 0 else {
        throw UsageError("\(flag) needs a positive number, got \(text)")
      }
      return number
    }
    while let argument = iterator.next() {
      switch argument {
      case "--ci": options.isCI = true
      case "--json": options.jsonPath = try value(for: argument)
      case "--only": options.only.append(try value(for: argument))
      case "--requests": options.requestsPerRun = try number(for: argument)
      case "--pairs": options.pairs = try number(for: argument)
      case "--warm-up": options.warmUp = try number(for: argument)
      case "--megabytes":
        let text = try value(for: argument)
        guard let megabytes = Double(text), megabytes > 0 else {
          throw UsageError("--megabytes needs a positive number, got \(text)")
        }
        options.megabytes = megabytes
      case "--side":
        let text = try value(for: argument)
        guard let side = RunPlan.Side(rawValue: text) else {
          throw UsageError("--side needs floor or understudy, got \(text)")
        }
        options.side = side
      case "--help", "-h": throw UsageError(nil)
      default: throw UsageError("unknown argument \(argument)")
      }
    }
    return options
  }

  var plan: RunPlan {
    RunPlan(
      warmUp: warmUp ?? (isCI ? 200 : 500),
      // CI: more, shorter pairs; a neighbour's burst then spoils fewer of the pairs the median
      // is taken over.
      requestsPerRun: requestsPerRun ?? (isCI ? 600 : 5_000),
      pairs: pairs ?? 9, onlySide: side)
  }

  func selects(_ scenario: Scenario) -> Bool {
    if isCI && scenario.fullRunOnly && only.isEmpty { return false }
    guard !only.isEmpty else { return true }
    return only.contains { scenario.group.contains($0) || scenario.name.contains($0) }
  }
}

/// A bad command line; `nil` message means help was asked for.
struct UsageError: Error {
  let message: String?

  init(_ message: String?) {
    self.message = message
  }
}
