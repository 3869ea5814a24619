import Foundation
import UnderstudyTestSupport

/// The package's loopback server (`Tests/Support/loopback_server.py`, Python 3 standard library
/// only) on a free port of 127.0.0.1, for the XCTest target's recording tests: recording needs a
/// live server, and never a public host. The script exits when its standard input closes.
final class LoopbackProcess {
  /// `http://127.0.0.1:<port>`
  let baseURL: URL
  private let process: Process
  private let input: Pipe

  /// Starts the server and waits for the `PORT <n>` line it prints once it listens.
  init() throws {
    let script = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Support/loopback_server.py")
    process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path]
    let pipes = try ChildProcesses.run(process, piping: [.input, .output])
    input = pipes[.input]!
    let output = pipes[.output]!
    let firstLine = output.fileHandleForReading.readLine()
    guard firstLine.hasPrefix("PORT "), let port = Int(firstLine.dropFirst(5)) else {
      process.terminate()
      throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: script.path])
    }
    baseURL = URL(string: "http://127.0.0.1:\(port)")!
  }

  /// Stops the server and waits for it to exit.
  func stop() {
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }
}

extension FileHandle {
  /// The bytes up to the next newline, as text.
  fileprivate func readLine() -> String {
    var line = Data()
    while let byte = try? read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
      line.append(byte)
    }
    return String(decoding: line, as: UTF8.self)
  }
}
