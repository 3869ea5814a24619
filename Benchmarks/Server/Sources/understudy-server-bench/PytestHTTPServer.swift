import Foundation

/// `pytest-httpserver` (PyPI), the stub server a Python-minded user might pick instead, run by
/// `Benchmarks/Tools/pytest_httpserver_bench.py` in a process of its own.
final class PytestHTTPServer {
  let port: Int
  private let process: Process
  private let input: Pipe

  private init(port: Int, process: Process, input: Pipe) {
    self.port = port
    self.process = process
    self.input = input
  }

  static var script: URL {
    URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Tools/pytest_httpserver_bench.py")
  }

  /// Starts it and waits for its `PORT <n>` line; `nil` when it is not installed.
  static func start() throws -> PytestHTTPServer? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    var line = Data()
    while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty,
      byte != Data("\n".utf8)
    {
      line.append(byte)
    }
    let text = String(decoding: line, as: UTF8.self)
    guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
      process.waitUntilExit()
      return nil
    }
    return PytestHTTPServer(port: port, process: process, input: input)
  }

  func stop() {
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }
}
