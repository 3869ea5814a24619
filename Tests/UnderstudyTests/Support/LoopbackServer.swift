import Foundation
import UnderstudyTestSupport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A real HTTP server on 127.0.0.1, for tests of passthrough and recording that must never reach
/// a public host.
///
/// Runs `Tests/Support/loopback_server.py` (Python 3 standard library only) on a free port. The
/// script exits by itself when this test process dies or closes its stdin, so a crashed run
/// leaves nothing behind. Call `stop()` to end a server early; the `shared()` instance lives as
/// long as the test process.
///
///     let server = try await LoopbackServer.shared()
///     let (data, _) = try await URLSession.shared.data(from: server.url("/echo/users?id=7"))
final class LoopbackServer: Sendable {
  /// `http://127.0.0.1:<port>`
  let baseURL: URL
  let port: Int

  private let child: ChildProcess
  /// For the server's own `/__` control calls; ephemeral, so it shares no cookies or cache.
  private let session: URLSession

  private init(port: Int, child: ChildProcess) {
    self.port = port
    self.baseURL = URL(string: "http://127.0.0.1:\(port)")!
    self.child = child
    self.session = URLSession(configuration: .ephemeral)
  }

  deinit {
    stop()
    session.finishTasksAndInvalidate()
  }

  /// `path` may carry a query: `url("/slow?ms=20")`.
  func url(_ path: String) -> URL {
    let separator = path.hasPrefix("/") ? "" : "/"
    return URL(string: baseURL.absoluteString + separator + path)!
  }

  /// Requests received so far, not counting the `/__` control endpoints.
  func hits() async throws -> Int {
    struct Hits: Decodable { let count: Int }
    return try await control("/__hits", as: Hits.self).count
  }

  /// Every request received so far, oldest first, not counting the `/__` control endpoints.
  func log() async throws -> [EchoedRequest] {
    try await control("/__log", as: [EchoedRequest].self)
  }

  /// Clears the hit count and the log.
  func reset() async throws {
    struct Hits: Decodable { let count: Int }
    _ = try await control("/__reset", as: Hits.self)
  }

  /// Terminates the server and waits for it to exit. Idempotent; also runs on deinit.
  func stop() {
    child.stop()
  }

  private func control<Response: Decodable>(_ path: String, as type: Response.Type) async throws
    -> Response
  {
    let (data, response) = try await session.data(from: url(path))
    guard (response as? HTTPURLResponse)?.statusCode == 200 else {
      throw LoopbackServerError("\(path) answered \(response)")
    }
    return try JSONDecoder().decode(Response.self, from: data)
  }
}

// MARK: - Starting

extension LoopbackServer {
  /// `Tests/Support/loopback_server.py`, found from this file's location in the source tree.
  static let defaultScript = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Support
    .deletingLastPathComponent()  // UnderstudyTests
    .deletingLastPathComponent()  // Tests
    .appendingPathComponent("Support/loopback_server.py")

  /// One server for the whole test process, started on first use. Tests run in parallel, so
  /// tests that count hits or read the log should `start()` their own server instead.
  static func shared() async throws -> LoopbackServer {
    try await sharedStart.value
  }

  // A static let is initialised once, thread-safely, on first access; every caller then awaits
  // the same task. A failed start is remembered: retrying within one run would only fail again.
  private static let sharedStart = Task { try await LoopbackServer.start() }

  /// Launches a new server and waits until it listens.
  ///
  /// - Throws: `LoopbackServerError` when python3 is not on PATH, the script is missing, or the
  ///   script does not announce its port within `timeout`; the message includes its stderr.
  static func start(script: URL = defaultScript, timeout: Duration = .seconds(30)) async throws
    -> LoopbackServer
  {
    guard FileManager.default.fileExists(atPath: script.path) else {
      throw LoopbackServerError("loopback server script not found at \(script.path)")
    }
    let python = try findPython()

    let process = Process()
    process.executableURL = python
    process.arguments = [script.path]
    let pipes: [ChildProcesses.Stream: Pipe]
    do {
      pipes = try ChildProcesses.run(process, piping: [.input, .output, .error])
    } catch {
      throw LoopbackServerError("could not launch \(python.path) \(script.path): \(error)")
    }
    let (stdin, stdout, stderr) = (pipes[.input]!, pipes[.output]!, pipes[.error]!)
    // The write end of stdin stays open for as long as the server should live: closing it, or
    // this process dying, gives the script EOF and it exits.
    let child = ChildProcess(process: process, stdin: stdin.fileHandleForWriting)
    let errors = StderrCollector(stderr.fileHandleForReading)

    do {
      let port = try await readPort(from: stdout.fileHandleForReading, timeout: timeout)
      return LoopbackServer(port: port, child: child)
    } catch let failure as StartupFailure {
      child.stop()
      let status = process.terminationStatus
      throw LoopbackServerError(
        "\(python.path) \(script.path) \(failure.reason) (exit status \(status)); stderr:\n"
          + errors.text(waitingUpTo: .seconds(1)))
    }
  }

  private static func findPython() throws -> URL {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    for directory in path.split(separator: ":") where !directory.isEmpty {
      let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("python3")
      if FileManager.default.isExecutableFile(atPath: candidate.path) {
        return candidate
      }
    }
    throw LoopbackServerError(
      "python3 not found on PATH (\(path)); the loopback server needs Python 3")
  }

  /// Reads stdout until the `PORT <n>` line, on a dedicated thread because the reads block.
  private static func readPort(from stdout: FileHandle, timeout: Duration) async throws -> Int {
    try await withCheckedThrowingContinuation { continuation in
      let once = Once(continuation)
      let thread = Thread {
        var line = Data()
        while true {
          // One byte at a time: the line is short, and a larger read might wait for more output
          // than the script will ever write.
          guard let byte = try? stdout.read(upToCount: 1), !byte.isEmpty else {
            once.resume(throwing: StartupFailure(reason: "exited before announcing its port"))
            return
          }
          if byte.first == UInt8(ascii: "\n") { break }
          line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)), port > 0 {
          once.resume(returning: port)
        } else {
          once.resume(throwing: StartupFailure(reason: "printed \(text.debugDescription)"))
        }
      }
      thread.name = "LoopbackServer stdout"
      thread.start()
      // Stretched as waits for hangs are: at load 10 on 2 cores Python took over 30 s to start,
      // and a failed start of the shared server fails every test that uses it.
      let seconds = timeout.seconds * TestTiming.scale * TestTiming.loadFactor()
      DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
        once.resume(throwing: StartupFailure(reason: "did not announce its port in \(seconds) s"))
      }
    }
  }
}

/// A launch problem with python3 or the script; the description says what to fix.
struct LoopbackServerError: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) {
    self.description = description
  }
}

// MARK: - Echo

/// A request as the server saw it: the JSON from `/echo…` and from `log()`.
struct EchoedRequest: Decodable, Sendable, Equatable {
  /// One header line, in the order received; names keep the client's spelling.
  struct Header: Decodable, Sendable, Equatable {
    let name: String
    let value: String

    // The server sends each header as a two-element list `[name, value]`.
    init(from decoder: any Decoder) throws {
      var pair = try decoder.unkeyedContainer()
      name = try pair.decode(String.self)
      value = try pair.decode(String.self)
    }
  }

  let method: String
  /// Without the query, percent-escapes as sent.
  let path: String
  /// The raw query string, "" when there is none.
  let query: String
  let headers: [Header]
  let bodyBase64: String
  /// `nil` when the body is not valid UTF-8.
  let bodyText: String?

  enum CodingKeys: String, CodingKey {
    case method, path, query, headers
    case bodyBase64 = "body_base64"
    case bodyText = "body_text"
  }

  var body: Data {
    Data(base64Encoded: bodyBase64) ?? Data()
  }

  /// Every value of the header `name`, compared case-insensitively.
  func values(of name: String) -> [String] {
    headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
  }

  /// The first value of the header `name`, compared case-insensitively.
  func value(of name: String) -> String? {
    values(of: name).first
  }
}

// MARK: - Plumbing

/// The running script. `Process` is not `Sendable` on every platform and `stop()` must act once
/// however many tasks call it, so the process lives behind a lock and is only touched there.
private final class ChildProcess: @unchecked Sendable {
  private let lock = NSLock()
  private var process: Process?
  private var stdin: FileHandle?

  init(process: Process, stdin: FileHandle) {
    self.process = process
    self.stdin = stdin
  }

  func stop() {
    lock.lock()
    let process = self.process
    let stdin = self.stdin
    self.process = nil
    self.stdin = nil
    lock.unlock()

    guard let process else { return }
    try? stdin?.close()
    if process.isRunning {
      process.terminate()
    }
    process.waitUntilExit()
  }
}

/// Collects the script's stderr on a thread of its own, so a chatty failure can neither block
/// the script on a full pipe nor be lost before we report it.
private final class StderrCollector: @unchecked Sendable {
  // `data` is guarded by `lock`; `finished` is signalled once at EOF.
  private let lock = NSLock()
  private var data = Data()
  private let finished = DispatchSemaphore(value: 0)
  private static let limit = 64 * 1024

  init(_ handle: FileHandle) {
    let thread = Thread { [self] in
      while let chunk = try? handle.read(upToCount: 4096), !chunk.isEmpty {
        lock.lock()
        if data.count < Self.limit { data.append(chunk.prefix(Self.limit - data.count)) }
        lock.unlock()
      }
      finished.signal()
    }
    thread.name = "LoopbackServer stderr"
    thread.start()
  }

  /// What the script wrote, once it has closed stderr or after `wait`, whichever comes first.
  func text(waitingUpTo wait: Duration) -> String {
    _ = finished.wait(timeout: .now() + wait.seconds)
    lock.lock()
    defer { lock.unlock() }
    let text = String(decoding: data, as: UTF8.self)
    return text.isEmpty ? "(empty)" : text
  }
}

extension Duration {
  fileprivate var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}

/// Why the script did not come up; `start()` turns it into a `LoopbackServerError`.
private struct StartupFailure: Error {
  let reason: String
}

/// Resumes a continuation exactly once: the stdout reader and the timeout race for it.
private final class Once: @unchecked Sendable {
  // `continuation` is guarded by `lock` and taken by the first caller.
  private let lock = NSLock()
  private var continuation: CheckedContinuation<Int, any Error>?

  init(_ continuation: CheckedContinuation<Int, any Error>) {
    self.continuation = continuation
  }

  func resume(returning port: Int) {
    take()?.resume(returning: port)
  }

  func resume(throwing error: any Error) {
    take()?.resume(throwing: error)
  }

  private func take() -> CheckedContinuation<Int, any Error>? {
    lock.lock()
    defer { lock.unlock() }
    let taken = continuation
    continuation = nil
    return taken
  }
}
