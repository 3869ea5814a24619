#if Server
  import Foundation
  import UnderstudyTestSupport

  /// A value handed from one thread to another.
  private final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?

    func set(_ newValue: Value) { lock.withLock { value = newValue } }
    func get() -> Value { lock.withLock { value! } }
  }

  /// A command-line client run to completion: what it printed and how it exited.
  struct Subprocess {
    let status: Int32
    let output: String
    let errors: String

    /// Runs `arguments` (the first found on `PATH`), with standard input closed. The waiting
    /// happens on a thread of its own: blocking the few threads of Swift's cooperative pool
    /// would starve the very server the client is talking to, and so would blocking
    /// `DispatchQueue.global()`, whose Linux pool is about as wide as the machine and grows
    /// slowly (with a dozen clients in parallel, curl's 10 s limit ran out before it did).
    static func run(_ arguments: [String]) async throws -> Subprocess {
      try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try runBlocking(arguments) }) }.start()
      }
    }

    private static func runBlocking(_ arguments: [String]) throws -> Subprocess {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = arguments
      process.standardInput = FileHandle.nullDevice
      let pipes = try ChildProcesses.run(process, piping: [.output, .error])
      let (output, errors) = (pipes[.output]!, pipes[.error]!)
      // Standard error is read on another thread, so neither pipe can fill and stall the client.
      let complained = Locked<Data>()
      let read = DispatchSemaphore(value: 0)
      Thread {
        complained.set(errors.fileHandleForReading.readDataToEndOfFile())
        read.signal()
      }.start()
      let printed = output.fileHandleForReading.readDataToEndOfFile()
      read.wait()
      process.waitUntilExit()
      return Subprocess(
        status: process.terminationStatus, output: String(decoding: printed, as: UTF8.self),
        errors: String(decoding: complained.get(), as: UTF8.self))
    }

    /// `curl` with a time limit, so a server that hangs fails the test instead of stalling it.
    static func curl(_ arguments: String...) async throws -> Subprocess {
      try await curl(arguments)
    }

    /// The same, with the arguments in an array.
    static func curl(_ arguments: [String]) async throws -> Subprocess {
      try await run(["curl", "--silent", "--show-error", "--max-time", "10"] + arguments)
    }
  }
#endif
