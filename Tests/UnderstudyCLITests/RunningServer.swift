#if Server
  import Foundation
  import Testing
  import UnderstudyTestSupport

  #if canImport(FoundationNetworking)
    import FoundationNetworking
  #endif

  /// A long-running process started for a test: `understudy serve`/`record`, or the Python
  /// upstream. Output goes to files, which are polled for the line announcing the URL, so no
  /// thread blocks on a pipe and a chatty process never stalls on a full one.
  final class RunningServer: @unchecked Sendable {
    let process: Process
    /// The URL the process announced.
    let baseURL: URL
    private let stdoutURL: URL
    private let stderrURL: URL
    private let input: Pipe

    private init(process: Process, baseURL: URL, stdoutURL: URL, stderrURL: URL, input: Pipe) {
      self.process = process
      self.baseURL = baseURL
      self.stdoutURL = stdoutURL
      self.stderrURL = stderrURL
      self.input = input
    }

    /// Runs the built `understudy` with `arguments` and waits for the `at http://127.0.0.1:PORT`
    /// it prints once it listens.
    static func understudy(_ arguments: [String]) async throws -> RunningServer {
      try await start(CLIBinary.url, arguments) { output in
        output.range(of: #"at http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression)
          .map { URL(string: String(output[$0].dropFirst(3)))! }
      }
    }

    /// Runs `Tests/Support/loopback_server.py`, which prints `PORT <n>` once it listens and
    /// exits when its standard input closes.
    static func pythonUpstream() async throws -> RunningServer {
      let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Support/loopback_server.py")
      return try await start(
        URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path]
      ) { output in
        output.range(of: #"PORT [0-9]+"#, options: .regularExpression)
          .map { URL(string: "http://127.0.0.1:\(output[$0].dropFirst(5))")! }
      }
    }

    private static func start(
      _ executable: URL, _ arguments: [String], announcing find: (String) -> URL?
    ) async throws -> RunningServer {
      let base = FileManager.default.temporaryDirectory
        .appendingPathComponent("understudy-server-\(UUID().uuidString)")
      let stdoutURL = base.appendingPathExtension("out")
      let stderrURL = base.appendingPathExtension("err")
      try Data().write(to: stdoutURL)
      try Data().write(to: stderrURL)
      let process = Process()
      process.executableURL = executable
      process.arguments = arguments
      process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
      process.standardError = try FileHandle(forWritingTo: stderrURL)
      let input = try ChildProcesses.run(process, piping: [.input])[.input]!
      // 60 s: a loaded CI machine starts a debug binary slowly; a healthy one takes milliseconds.
      let deadline = Date().addingTimeInterval(60)
      while Date() < deadline {
        let output = (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? ""
        if let url = find(output) {
          return RunningServer(
            process: process, baseURL: url, stdoutURL: stdoutURL, stderrURL: stderrURL,
            input: input)
        }
        if !process.isRunning { break }
        try await Task.sleep(for: .milliseconds(20))
      }
      if process.isRunning { process.terminate() }
      let output = (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? ""
      let errors = (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
      throw RunningServerError(
        description:
          "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) announced no URL; "
          + "it printed \(output.debugDescription) and \(errors.debugDescription)")
    }

    /// `path` may carry a query: `url("/users/7?full=1")`.
    func url(_ path: String) -> URL {
      URL(string: baseURL.absoluteString + path)!
    }

    /// What it printed so far.
    var output: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }

    /// Sends `signal` (SIGINT by default, as Ctrl-C does) and waits for the exit, off the
    /// cooperative pool.
    func stop(_ signal: Int32 = SIGINT) async -> (status: Int32, stdout: String, stderr: String) {
      kill(process.processIdentifier, signal)
      try? input.fileHandleForWriting.close()
      let process = self.process
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().async {
          process.waitUntilExit()
          continuation.resume()
        }
      }
      let result = (
        process.terminationStatus,
        (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "",
        (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
      )
      try? FileManager.default.removeItem(at: stdoutURL)
      try? FileManager.default.removeItem(at: stderrURL)
      return result
    }
  }

  struct RunningServerError: Error, CustomStringConvertible {
    var description: String
  }

  /// One request through a plain `URLSession` (no Understudy protocol): status and body text.
  func fetch(_ url: URL, method: String = "GET", headers: [String: String] = [:], body: Data? = nil)
    async throws -> (status: Int, body: String)
  {
    var request = URLRequest(url: url, timeoutInterval: 30)
    request.httpMethod = method
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    request.httpBody = body
    let session = URLSession(configuration: .ephemeral)
    defer { session.finishTasksAndInvalidate() }
    let (data, response) = try await session.data(for: request)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
  }
#endif
