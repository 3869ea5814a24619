import Foundation
import Understudy

/// The `understudy` tool run as a user runs it, on a HAR file whose one entry has
/// ``ScanScenario``'s 50 MB JSON response body: `scan`, `validate`, `inspect`, `convert` and
/// `redact`, each a separate process that loads the file, does its work, and (for the last two)
/// writes the result. Megabytes of body per second of the child process's CPU time (user and
/// system, every thread), best of ``SpeedGauge/runs`` runs, CI's too; the wall time is in the note.
///
/// CPU time is the bar because the wall clock on a shared 2-core machine mostly measures the
/// neighbours' builds; on an idle machine the two differ by the time to read the file, which the
/// page cache holds after the first run.
enum CommandLineScenario {
  static var scenario: Scenario {
    Scenario(group: ScanScenario.group, name: "understudy commands on a 50 MB body") { context in
      let tool = try toolURL()
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("understudy-bench-\(getpid())")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: directory) }
      let input = directory.appendingPathComponent("export.har")
      try HAR(entries: [ScanScenario.entry(body: ScanScenario.body())]).write(to: input)
      let output = directory.appendingPathComponent("out.har").path
      let token = ScanScenario.token
      // The arguments, the exit code the tool must give and a text its output must hold, so a
      // command that gave up early is caught rather than reported as fast.
      let commands: [(arguments: [String], exitCode: Int32, expected: String)] = [
        (["scan", input.path], 1, "GitHub token"),
        (["validate", input.path], 0, "valid (1 entry"),
        (["inspect", input.path], 0, "1 entry"),
        (["convert", input.path, "-o", output, "--allow", token], 0, "Wrote"),
        (["redact", input.path, "-o", output], 1, "GitHub token"),
      ]
      var rows: [Row] = []
      let megabytes = Double(ScanScenario.size) / 1_000_000
      let gauge = SpeedGauge()
      for command in commands {
        var bestCPU = Double.infinity
        var bestWall = Double.infinity
        var bestMultiple = 0.0
        for _ in 0..<SpeedGauge.runs {
          // Every run writes a new file: replacing the previous run's 55 MB output made the
          // kernel free it inside the child's CPU time, which only later runs of a command
          // paid (`convert`'s best of 3 never did, `redact`'s always did).
          try? FileManager.default.removeItem(atPath: output)
          let gaugeSpeed = try gauge.megabytesPerSecond()
          let run = try run(tool, command.arguments)
          guard run.exitCode == command.exitCode, run.output.contains(command.expected) else {
            throw WrongAnswer(
              description: "understudy \(command.arguments[0]) exited \(run.exitCode) "
                + "(expected \(command.exitCode)) without \"\(command.expected)\":\n\(run.output)")
          }
          bestCPU = min(bestCPU, run.cpuSeconds)
          bestMultiple = max(bestMultiple, megabytes / run.cpuSeconds / gaugeSpeed)
          bestWall = min(bestWall, run.wallSeconds)
        }
        rows.append(
          .throughput(
            ScanScenario.group,
            "understudy \(command.arguments[0]) of a 50 MB-body HAR file (CPU time)",
            megabytes / bestCPU, gaugeMultiple: bestMultiple, bar: .commandLineThroughput,
            note: String(
              format: "best run %.2f s CPU, %.2f s wall (%.1f MB/s wall)", bestCPU, bestWall,
              megabytes / bestWall)))
      }
      return rows
    }
  }

  /// The release-built tool beside this benchmark's executable: the benchmark package depends
  /// on the `understudy` product, so `swift build -c release --package-path Benchmarks` builds
  /// both.
  private static func toolURL() throws -> URL {
    let tool = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
      .deletingLastPathComponent().appendingPathComponent("understudy")
    guard FileManager.default.isExecutableFile(atPath: tool.path) else {
      throw WrongAnswer(
        description: "no understudy executable at \(tool.path); build the benchmark package "
          + "with `swift build -c release --package-path Benchmarks`")
    }
    return tool
  }

  private struct Run {
    var exitCode: Int32
    var output: String
    var cpuSeconds: Double
    var wallSeconds: Double
  }

  /// Runs the tool to completion; its CPU time is what `getrusage` adds for reaped children.
  private static func run(_ tool: URL, _ arguments: [String]) throws -> Run {
    let process = Process()
    process.executableURL = tool
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    let before = ProcessCPU.childrenSeconds
    let clock = ContinuousClock()
    let start = clock.now
    try process.run()
    // Read before waiting: output larger than the pipe's buffer would otherwise block the tool.
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let elapsed = clock.now - start
    return Run(
      exitCode: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
      cpuSeconds: ProcessCPU.childrenSeconds - before,
      wallSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds)
        / 1e18)
  }
}
