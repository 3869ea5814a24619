import Foundation

/// Starts the test process's child processes one at a time, whichever test target asks.
///
/// Foundation on Linux learns that a child exited when a socket the child holds reaches its end,
/// and makes that socket, like the pipes it hands a child, without close-on-exec. It closes the
/// other descriptors in each child it starts, but only those open when it listed them: a socket
/// or pipe that another thread makes between that list and the start reaches the child too. When
/// that child is a loopback server that lives as long as its test, the other process's exit goes
/// unnoticed until the server stops: in a CI run of 746 tests in parallel, `waitUntilExit()` spun
/// for ten minutes on a killed `understudy` that had long been a zombie, while the servers
/// started in the same second still held its socket. Making the pipes and starting the process
/// under one lock leaves no such moment.
///
/// Foundation 6.3 on Linux also lists `/proc/self/fd` in `run()`, copying 256 bytes of every
/// entry's name from glibc's 32 KB directory buffer: past about 1,350 open descriptors the last
/// copies read beyond that buffer (AddressSanitizer showed it), and one CI run died of it with
/// SIGSEGV. Nothing here can make `run()` safe short of spawning children another way; what keeps
/// it safe is a test process that keeps few descriptors open: sessions the library lets go of
/// when their exchanges end, and children awaited through ``runUntilExit(_:)`` or
/// `waitUntilExit()`, each of which would otherwise keep its `Process` and standard streams.
public enum ChildProcesses {
  /// A standard stream of a child process.
  public enum Stream: Hashable, Sendable {
    case input, output, error
  }

  private static let lock = NSLock()

  /// Starts `process` with a new pipe for each of `streams`, while no other test starts one.
  ///
  /// - Returns: The pipes, by stream.
  @discardableResult
  public static func run(_ process: Process, piping streams: Set<Stream> = []) throws
    -> [Stream: Pipe]
  {
    lock.lock()
    defer { lock.unlock() }
    var pipes: [Stream: Pipe] = [:]
    for stream in streams {
      let pipe = Pipe()
      pipes[stream] = pipe
      switch stream {
      case .input: process.standardInput = pipe
      case .output: process.standardOutput = pipe
      case .error: process.standardError = pipe
      }
    }
    try process.run()
    return pipes
  }

  /// Starts `process` as ``run(_:piping:)`` does and waits, without holding a thread, until it
  /// has exited.
  ///
  /// Foundation on Linux ties a started `Process` to itself through the run loop source it makes
  /// in `run()`, and only `waitUntilExit()` lets go of it: a process awaited through its
  /// `terminationHandler` alone stays in memory for the rest of the test run, and with it every
  /// `FileHandle` it was given as a standard stream. The CLI tests, which start the executable
  /// some 1,300 times, held 2,500 descriptors by the end of a run that way. Called once the child
  /// has exited, `waitUntilExit()` returns at once and breaks the cycle.
  public static func runUntilExit(_ process: Process) async throws {
    try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<Void, any Error>) in
      process.terminationHandler = { _ in continuation.resume() }
      do {
        try run(process)
      } catch {
        continuation.resume(throwing: error)
      }
    }
    process.waitUntilExit()
  }
}
