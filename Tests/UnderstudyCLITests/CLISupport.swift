import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// What one run of the `understudy` executable produced.
struct CLIResult {
  var status: Int32
  var stdout: String
  var stderr: String

  /// Both streams, for checks that do not care which one a message went to.
  var output: String { stdout + stderr }
}

/// Runs the built `understudy` executable with `arguments` and waits for it to exit without
/// blocking a thread. Output goes through files rather than pipes, so a chatty run cannot fill
/// a pipe and stall.
func understudy(_ arguments: String...) async throws -> CLIResult {
  try await understudy(arguments)
}

/// `environment` is added to this process's; `executable` runs instead of `understudy` (curl).
func understudy(
  _ arguments: [String], environment: [String: String] = [:], executable: URL = CLIBinary.url
) async throws -> CLIResult {
  // The slot is held from the first file to the last: a run waiting for one holds nothing.
  await CLIRunSlots.shared.acquire()
  do {
    let result = try await run(arguments, environment: environment, executable: executable)
    await CLIRunSlots.shared.release()
    return result
  } catch {
    await CLIRunSlots.shared.release()
    throw error
  }
}

private func run(
  _ arguments: [String], environment: [String: String], executable: URL
) async throws -> CLIResult {
  let base = FileManager.default.temporaryDirectory
    .appendingPathComponent("understudy-cli-\(UUID().uuidString)")
  let stdoutURL = base.appendingPathExtension("out")
  let stderrURL = base.appendingPathExtension("err")
  try Data().write(to: stdoutURL)
  try Data().write(to: stderrURL)
  defer {
    try? FileManager.default.removeItem(at: stdoutURL)
    try? FileManager.default.removeItem(at: stderrURL)
  }
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  if !environment.isEmpty {
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  }
  process.standardInput = FileHandle.nullDevice
  let output = try FileHandle(forWritingTo: stdoutURL)
  let errors = try FileHandle(forWritingTo: stderrURL)
  process.standardOutput = output
  process.standardError = errors
  try await ChildProcesses.runUntilExit(process)
  // Closed now, not when the `Process` that holds them goes.
  try? output.close()
  try? errors.close()
  return CLIResult(
    status: process.terminationStatus,
    stdout: try String(contentsOf: stdoutURL, encoding: .utf8),
    stderr: try String(contentsOf: stderrURL, encoding: .utf8))
}

/// At most ``limit`` runs of the executable at once. Swift Testing starts every CLI test
/// together: 119 children ran at once in a loaded run, with their output files and Foundation's
/// socket pair each, and the test process passed the 1,350 open descriptors past which
/// `Process.run()` reads beyond its buffer (``ChildProcesses``). Waiting here suspends a test;
/// it blocks no thread.
actor CLIRunSlots {
  static let shared = CLIRunSlots()
  static let limit = 16

  private var running = 0
  private var waiting: [CheckedContinuation<Void, Never>] = []

  func acquire() async {
    guard running >= Self.limit else {
      running += 1
      return
    }
    await withCheckedContinuation { waiting.append($0) }
  }

  /// Hands the slot to the longest waiter, or frees it.
  func release() {
    if waiting.isEmpty {
      running -= 1
    } else {
      waiting.removeFirst().resume()
    }
  }
}

/// The package's `Fixtures/HAR` folder, found from this file so tests run from any directory.
enum Fixtures {
  static let directory: URL = {
    var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path)
    {
      url.deleteLastPathComponent()
    }
    return url.appendingPathComponent("Fixtures/HAR")
  }()

  static func path(_ name: String) -> String {
    directory.appendingPathComponent(name).path
  }

  /// Every file in `Fixtures/HAR/malformed`, by name.
  static var malformed: [String] {
    let folder = directory.appendingPathComponent("malformed")
    return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
  }
}

/// A directory of the test's own, removed afterwards, so parallel tests never share files.
func withTemporaryDirectory<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("understudy-cli-test-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  return try await body(directory)
}

/// Credential-shaped strings built at run time, so the repository never holds a string that
/// secret scanners (ours or a host's) would flag.
enum FakeSecret {
  private static func filler(_ count: Int, seed: Int) -> String {
    let alphabet = Array("AbCdEfGhJkMnPqRsTuVwXyZ23456789")
    return String((0..<count).map { alphabet[($0 * 7 + seed) % alphabet.count] })
  }

  static let bearerToken = "tok" + filler(29, seed: 1)
  static let gitHub = "ghp" + "_" + filler(36, seed: 2)
  static let aws = "AK" + "IA" + filler(16, seed: 3).uppercased()
  static let sessionID = "sess-" + filler(24, seed: 4)
  static let accessToken = "at" + filler(30, seed: 5)
  static let password = "pw-" + filler(12, seed: 6)
  static let pin = "pin-" + filler(10, seed: 7)
}

extension HAR.Entry {
  /// An exchange with the given request and a JSON or text response.
  static func exchange(
    method: String = "GET", url: String, requestHeaders: [HAR.Header] = [],
    postData: HAR.PostData? = nil, status: Int = 200, responseHeaders: [HAR.Header] = [],
    body: String = "{}", mimeType: String = "application/json"
  ) -> HAR.Entry {
    HAR.Entry(
      startedDateTime: Date(timeIntervalSince1970: 1_700_000_000), time: 12,
      request: HAR.Request(method: method, url: url, headers: requestHeaders, postData: postData),
      response: HAR.Response(
        status: status, headers: responseHeaders,
        content: HAR.Content(body: Data(body.utf8), mimeType: mimeType)))
  }
}

extension HAR {
  /// Writes the archive to `name` in `directory` and returns the path.
  func saved(as name: String, in directory: URL) throws -> String {
    let url = directory.appendingPathComponent(name)
    try write(to: url)
    return url.path
  }
}
