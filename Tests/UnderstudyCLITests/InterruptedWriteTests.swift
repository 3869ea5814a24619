import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// A write killed half-way leaves the previous cassette whole: the real executable is killed
/// with SIGKILL at different moments while it rewrites a large cassette in place.
@Suite struct InterruptedWriteTests {
  @Test func aKilledWriteLeavesThePreviousCassetteReadable() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("understudy-interrupted-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }

    // Large enough that writing takes a while: 1,500 entries of 16 KiB bodies (~25 MB).
    let body = Data(String(repeating: "0123456789abcdef", count: 1024).utf8)
    let entries = (0..<1_500).map { index in
      HAR.Entry(
        request: InterceptedRequest(
          url: URL(string: "https://api.test/items/\(index)?token=t\(index)")!),
        response: HAR.Response(status: 200, headers: ["Content-Type": "text/plain"], body: body),
        startedDateTime: Date(timeIntervalSince1970: 1_700_000_000), duration: .milliseconds(5))
    }
    let source = folder.appendingPathComponent("source.har")
    try HAR(entries: entries).write(to: source)
    let target = folder.appendingPathComponent("cassette.har")
    let previous = HAR(entries: Array(entries.prefix(2)))
    try previous.write(to: target)

    let runner = CLIBinary.url
    var killedMidway = 0
    for attempt in 0..<8 {
      let process = Process()
      process.executableURL = runner
      process.arguments = ["redact", source.path, "-o", target.path]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try ChildProcesses.run(process)
      // From almost at once to well into the write.
      try await Task.sleep(nanoseconds: UInt64(attempt) * 60_000_000)
      if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
        killedMidway += 1
      }
      process.waitUntilExit()

      let survivor = try HAR.load(contentsOf: target)
      #expect(
        survivor.log.entries.count == previous.log.entries.count
          || survivor.log.entries.count == entries.count,
        "attempt \(attempt): a cassette of \(survivor.log.entries.count) entries")
      // Only temporary files may be left beside it, never a second cassette.
      let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        .filter { !$0.hasPrefix(".") && $0 != "source.har" && $0 != "cassette.har" }
      #expect(leftovers.isEmpty, "unexpected files: \(leftovers)")
      try previous.write(to: target)
    }
    #expect(killedMidway > 0, "no run was killed before it finished; make the input larger")
  }
}
