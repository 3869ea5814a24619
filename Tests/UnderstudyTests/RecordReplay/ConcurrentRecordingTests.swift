import Testing
import UnderstudyTestSupport

@testable import Understudy

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Recorders that write one cassette at the same time: neither may replace the other's entries.
@Suite struct ConcurrentRecordingTests {
  private static func recorded(_ cassette: Cassette, _ path: String) {
    let request = InterceptedRequest(URLRequest(url: URL(string: "https://api.test\(path)")!))
    cassette.record(
      request, Reply(StubResponse(status: 200, body: .text(path)), for: request),
      startedAt: Date(timeIntervalSince1970: 1_700_000_000), duration: 0.01)
  }

  private static func paths(in url: URL) throws -> [String] {
    try HAR.load(contentsOf: url).log.entries.map { URL(string: $0.request.url)!.path }
  }

  @Test(arguments: [RecordMode.missing, .newEpisodes, .all])
  func twoRecordersOpenedTogetherBothKeepTheirEntries(mode: RecordMode) throws {
    try withTemporaryDirectory { directory throws in
      let url = directory.appendingPathComponent("shared.har")
      if mode != .missing {
        try HAR(entries: [.sample(url: "https://api.test/old")]).write(to: url)
      }
      let first = Cassette(at: url, mode: mode)
      let second = Cassette(at: url, mode: mode)
      Self.recorded(first, "/first")
      Self.recorded(second, "/second")
      #expect(first.finish().isEmpty)
      #expect(second.finish().isEmpty)
      // .all starts afresh, but only once: the second recorder keeps what the first wrote.
      let kept = mode == .newEpisodes ? ["/old"] : []
      #expect(try Self.paths(in: url) == kept + ["/first", "/second"])
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["shared.har"])
    }
  }

  @Test func aRecorderOpenedAfterAnotherWroteStillReplacesInAllMode() throws {
    try withTemporaryDirectory { directory throws in
      let url = directory.appendingPathComponent("shared.har")
      let first = Cassette(at: url, mode: .all)
      Self.recorded(first, "/first")
      #expect(first.finish().isEmpty)
      let later = Cassette(at: url, mode: .all)
      Self.recorded(later, "/later")
      #expect(later.finish().isEmpty)
      #expect(try Self.paths(in: url) == ["/later"])
    }
  }

  @Test func manyParallelRecordersInOneProcessLoseNothing() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("understudy-parallel-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("shared.har")
    let count = 24
    let cassettes = (0..<count).map { _ in Cassette(at: url, mode: .missing) }
    // Threads of their own, as recorders in other tests or processes would be: a recorder waiting
    // for the lock blocks its thread, which must not be one of Swift Testing's few pool threads.
    let failures = await withTaskGroup(of: [ScopeFailure].self) { group in
      for (index, cassette) in cassettes.enumerated() {
        group.addTask {
          await onThread {
            Self.recorded(cassette, "/\(index)")
            return cassette.finish()
          }
        }
      }
      return await group.reduce(into: []) { $0 += $1 }
    }
    #expect(failures.isEmpty)
    #expect(try Set(Self.paths(in: url)) == Set((0..<count).map { "/\($0)" }))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["shared.har"])
  }

  @Test func aFileAnotherWriterLeftUnreadableIsReportedNotOverwritten() throws {
    try withTemporaryDirectory { directory throws in
      let url = directory.appendingPathComponent("shared.har")
      let cassette = Cassette(at: url, mode: .missing)
      Self.recorded(cassette, "/mine")
      let theirs = Data("{\"log\": ".utf8)
      try theirs.write(to: url)
      let failures = cassette.finish()
      #expect(failures.count == 1)
      #expect(failures.first?.message.contains(url.path) == true)
      #expect(failures.first?.message.contains("another recorder wrote the cassette") == true)
      #expect(failures.first?.message.contains("1 new entry was not written") == true)
      #expect(try Data(contentsOf: url) == theirs)
    }
  }

  @Test func aLockHeldTooLongFailsWithTheLockFileAndLeavesTheCassette() throws {
    try withTemporaryDirectory { directory throws in
      let url = directory.appendingPathComponent("held.har")
      let holder = try HeldLock(CassetteFileLock.lockFile(for: url))
      defer { holder.release() }
      var ran = false
      let error = cassetteError {
        try CassetteFileLock.withLock(on: url, patience: 0.2) { () throws(CassetteError) in
          ran = true
        }
      }
      #expect(!ran)
      #expect(error?.kind == .writeFailed)
      #expect(error?.problem.contains(CassetteFileLock.lockFile(for: url).path) == true)
      #expect(!FileManager.default.fileExists(atPath: url.path))
    }
  }

  /// A second process (flock(1)) holds the lock and replaces the cassette; the recorder waits for
  /// it, then merges what it wrote.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/flock")))
  func aRecorderWaitsForAnotherProcessAndMergesWhatItWrote() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("understudy-process-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent("shared.har")
    let theirs = directory.appendingPathComponent("theirs.json")
    try HAR(entries: [.sample(url: "https://api.test/theirs")]).write(to: theirs)
    let cassette = Cassette(at: url, mode: .missing)
    Self.recorded(cassette, "/mine")

    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
    child.arguments = [
      CassetteFileLock.lockFile(for: url).path, "/bin/sh", "-c",
      "cp \"$0\" \"$1\" && echo locked && read line", theirs.path, url.path,
    ]
    let pipes = try ChildProcesses.run(child, piping: [.input, .output])
    let (input, output) = (pipes[.input]!, pipes[.output]!)
    let started = await onThread { output.fileHandleForReading.availableData }
    #expect(started.starts(with: Data("locked".utf8)))

    let done = Locked(false)
    let finishing = Task {
      await onThread {
        defer { done.withLock { $0 = true } }
        return cassette.finish()
      }
    }
    // While the other process holds the lock the write must wait (a wrong pass needs no timing).
    try await Task.sleep(for: .milliseconds(300))
    #expect(!done.current)
    try input.fileHandleForWriting.write(contentsOf: Data("go\n".utf8))
    let failures = await finishing.value
    await onThread { child.waitUntilExit() }
    #expect(failures.isEmpty)
    #expect(try Self.paths(in: url) == ["/theirs", "/mine"])
  }
}

/// Runs `body` on a thread of its own, so what blocks (waiting for a lock or a child process)
/// never holds one of the cooperative pool's threads, which other tests need.
private func onThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
  await withCheckedContinuation { continuation in
    Thread.detachNewThread { continuation.resume(returning: body()) }
  }
}

/// A lock taken the way another recorder would, held until released.
private final class HeldLock: Sendable {
  private let descriptor: Int32

  init(_ file: URL) throws {
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    descriptor = open(file.path, O_RDWR | O_CREAT, 0o644)
    guard descriptor >= 0, flock(descriptor, LOCK_EX) == 0 else {
      throw CocoaError(.fileWriteUnknown)
    }
  }

  func release() { close(descriptor) }
}
