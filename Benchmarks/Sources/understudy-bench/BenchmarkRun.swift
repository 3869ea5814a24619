import Foundation

/// One run of the benchmark: parse the flags, run the selected scenarios, print the table.
enum BenchmarkRun {
  static func main() async throws {
    let options: Options
    do {
      options = try Options.parse(CommandLine.arguments.dropFirst())
    } catch {
      if let message = error.message { FileHandle.standardError.write(Data("\(message)\n".utf8)) }
      print(Options.usage)
      exit(error.message == nil ? 0 : 2)
    }

    // Memory first: their baselines are cleanest before the timed scenarios have grown the heap.
    let scenarios =
      [FixtureStreamingScenario.scenario] + SoakScenario.all + StubScenarios.all
      + ReplayScenarios.all + InFlightScenarios.all + ScopeScenarios.all
      + ReportScenarios.all + [ScanScenario.scenario, CommandLineScenario.scenario]
    let plan = options.plan
    let context = BenchmarkContext(plan: plan, isCI: options.isCI, megabytes: options.megabytes)
    let loadAtStart = ProcessMemory.loadAverage
    let clock = ContinuousClock()
    let started = clock.now
    progress(
      "understudy-bench\(options.isCI ? " --ci" : "") (\(Bar.isDebugBuild ? "debug" : "release") "
        + "build): \(plan.pairs) pairs × "
        + "\(plan.requestsPerRun.formatted()) requests, warm-up \(plan.warmUp); "
        + "load average \(loadAtStart ?? "unknown")")

    var rows: [Row] = []
    for scenario in scenarios where options.selects(scenario) {
      progress("  \(scenario.group): \(scenario.name)…")
      do {
        rows += try await scenario.run(context)
      } catch {
        progress("  \(scenario.name) failed: \(error)")
        exit(1)
      }
    }

    let report = Report(
      mode: options.isCI ? "ci" : "full", requestsPerRun: plan.requestsPerRun, pairs: plan.pairs,
      warmUp: plan.warmUp,
      machine: Report.Machine(
        processors: ProcessInfo.processInfo.activeProcessorCount, loadAverageAtStart: loadAtStart,
        loadAverageAtEnd: ProcessMemory.loadAverage),
      rows: rows)

    print(report.table)
    print(
      "\(report.machine.processors) CPUs; load average \(loadAtStart ?? "?") at start, "
        + "\(report.machine.loadAverageAtEnd ?? "?") at end; "
        + "\(plan.pairs) pairs × \(plan.requestsPerRun.formatted()) requests per scenario; "
        + "took \(Format.seconds(clock.now - started))")

    if let path = options.jsonPath {
      let data = try report.json
      if path == "-" {
        FileHandle.standardOutput.write(data)
        print()
      } else {
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
      }
    }

    if options.isCI {
      let failures = report.ciFailures
      for row in failures {
        let unit = row.ciUnit
        // A throughput is gauged by speed; a CPU time by the gauge's time for as many bytes.
        let gauge =
          row.gaugeMultiple == nil
          ? "" : row.unit == " s" ? " the gauge's time for its bytes" : " the gauge's speed"
        print(
          "CI: \(row.scenario) is at \(Format.fixed(row.ciCheckedValue!, 2))\(unit)\(gauge), past "
            + "the CI limit of \(Format.number(row.bar!.ciLimit!))\(unit)\(gauge) "
            + "(bar \(row.bar!.text))")
      }
      let gated = rows.filter { $0.bar?.ciLimit != nil && $0.ciCheckedValue != nil }.count
      if failures.isEmpty {
        print("understudy-bench --ci: OK, \(gated) bars within their CI limits")
      } else {
        print("understudy-bench --ci: FAILED, \(failures.count) of \(gated) bars far off")
        exit(1)
      }
    }

  }

  static func progress(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }
}
