// A real HTTP server on 127.0.0.1 for the recording examples, so no example reaches a public host.

import Foundation
import UnderstudyTestSupport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Runs the package's loopback server, `Tests/Support/loopback_server.py` (Python 3 standard
/// library only), on a free port. The script exits when its standard input closes, so `stop()`
/// (or this test process ending) stops it.
final class ExampleServer {
  /// `http://127.0.0.1:<port>`
  let baseURL: URL
  private let process: Process
  private let input: Pipe

  private init(baseURL: URL, process: Process, input: Pipe) {
    self.baseURL = baseURL
    self.process = process
    self.input = input
  }

  /// `path` may carry a query: `url("/echo/users?id=7")`.
  func url(_ path: String) -> URL {
    URL(string: baseURL.absoluteString + path)!
  }

  /// Starts the server and waits for the `PORT <n>` line it prints once it listens.
  static func start() throws -> ExampleServer {
    let script = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent()  // UnderstudyExamples
      .deletingLastPathComponent()  // Tests
      .appendingPathComponent("Support/loopback_server.py")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path]
    let pipes = try ChildProcesses.run(process, piping: [.input, .output])
    let (input, output) = (pipes[.input]!, pipes[.output]!)
    var line = Data()
    while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty,
      byte != Data("\n".utf8)
    {
      line.append(byte)
    }
    let text = String(decoding: line, as: UTF8.self)
    guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
      process.terminate()
      throw ExampleServerError(description: "\(script.path) printed \(text.debugDescription)")
    }
    return ExampleServer(
      baseURL: URL(string: "http://127.0.0.1:\(port)")!, process: process, input: input)
  }

  /// Stops the server and waits for it to exit.
  func stop() {
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }
}

struct ExampleServerError: Error, CustomStringConvertible {
  var description: String
}
